"""How long advise's answer and a hint take, per level, with the one player that ranks and
estimates (by default advise's own, ``best`` at its quick budget).

Input: for each level, the positions of game 0 of seed 1 (``numberup play``'s deal), played by
following the advice, every ``--every``-th decision. At each, :func:`numberup.analysis.advise.advice`
(``numberup advise``'s answer: default candidates and continuations, ``--jobs`` threads) and
:meth:`numberup.interactive.session.Session.advice` (a hint or a proposal) are timed, after one
warm-up call (compile or load from cache). Targets: 2 s for advise, 1 s for a hint. Reported:
median and worst seconds per level, the setting ``best`` plays there, the continuations the
first action got, how many answers had a runner-up within noise of the first, and how many
candidates an answer and a hint estimated (as many as their time pays for, up to 6 and 4).

    python benchmarks/bench_advice.py [--levels 1-20] [--every 4] [--player SPEC] [--jobs 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import machine  # noqa: E402


def main() -> None:
    from numberup.analysis.advise import DEFAULT_PLAYER, advice
    from numberup.game.cards import format_card
    from numberup.game.levels import get_level
    from numberup.interactive.session import Session

    ap = argparse.ArgumentParser()
    ap.add_argument("--levels", default="1-20")
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--player", default=DEFAULT_PLAYER)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    lo, _, hi = a.levels.partition("-")
    levels = range(int(lo), int(hi or lo) + 1)
    print(f"# advise and hints: seconds per answer, warm cache ({machine()}; {a.player}, "
          f"{a.jobs} threads; one decision in {a.every}, from the first, of game 0 of seed 1)")
    print("| level | plays | advise: median / worst s | first's continuations (min-max) | "
          "runner-up close | hint: median / worst s | candidates: advise, hint (min-max) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for level in levels:
        s = Session(get_level(level), "play", 1, 0)

        def ask():
            return advice(s.level, s.grid_text(), s._hand_text(),
                          " ".join(format_card(c) for c in s.discarded), s.discards_left,
                          a.player, seed=7, jobs=a.jobs)

        ask(), s.advice(a.player)  # warm up
        adv, hint, counts, close, k, plays = [], [], [], 0, 0, ""
        estimated, hinted = [], []
        while not s.done:
            if k % a.every == 0 and len(s.legal_actions()) > 1:
                t0 = time.perf_counter()
                got = ask()
                adv.append(time.perf_counter() - t0)
                plays = got["plays"]
                counts.append(got["actions"][0]["estimate"]["n"])
                estimated.append(got["candidates"])
                second = got["actions"][1]["vs_first"] if len(got["actions"]) > 1 else None
                close += bool(second and second["close"])
                t0 = time.perf_counter()
                rows = s.advice(a.player)
                hint.append(time.perf_counter() - t0)
                hinted.append(len(rows))
            else:
                rows = s.advice(a.player)
            s.apply(rows[0]["card"], rows[0]["cell"])
            k += 1
        print(f"| {level} | {plays} | {statistics.median(adv):.2f} / {max(adv):.2f} | "
              f"{min(counts)}-{max(counts)} | {close} of {len(adv)} | "
              f"{statistics.median(hint):.2f} / {max(hint):.2f} | "
              f"{min(estimated)}-{max(estimated)}, {min(hinted)}-{max(hinted)} |", flush=True)


if __name__ == "__main__":
    main()
