"""Where a continuation's time goes: what one continuation of advise's player costs from
positions ever further into a game, against the count advise makes of it
(:func:`numberup.analysis.advise.continuation_count`: the best table's cost of a game times the
empty cells' share of the grid, or the whole game's cost for a player with an exact endgame).

Input: for each level, the positions of game 0 of seed 1 (``numberup play``'s deal), played by
following the hints, one decision in ``--every`` from the first. At each, the action the player
itself picks gets ``M + 1`` continuations and then 1, on one thread, and the difference of this
process's CPU time, over ``M``, is one continuation's cost. Reported per level: the table's cost
of a game, and at each position (empty cells) the measured cost and advise's count of it, both
as shares of the table's cost (``empty: measured/counted``). A measured share above the counted
one means advise plays more work there than its budget says.

    python benchmarks/bench_continuations.py [--levels 1-20] [--every 4] [--continuations 60]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import machine  # noqa: E402


def main() -> None:
    from numberup.analysis.advise import DEFAULT_PLAYER, advice, continuation_seconds
    from numberup.game.cards import format_card
    from numberup.game.levels import get_level
    from numberup.interactive.session import Session
    from numberup.players.registry import at_level, parse_player

    ap = argparse.ArgumentParser()
    ap.add_argument("--levels", default="1-20")
    ap.add_argument("--every", type=int, default=4)
    ap.add_argument("--continuations", type=int, default=60)
    a = ap.parse_args()
    lo, _, hi = a.levels.partition("-")
    m = a.continuations
    print(f"# one continuation's CPU time as a share of the best table's cost of a game: measured/"
          f"advise's count, by empty cells ({machine()}; {DEFAULT_PLAYER}, 1 thread, {m} "
          f"continuations; one decision in {a.every} of game 0 of seed 1)")
    print("| level | plays | table's s/game | empty cells: measured/counted |")
    print("|---|---|---:|---|")
    for level in range(int(lo), int(hi or lo) + 1):
        lv = get_level(level)
        pl = at_level(parse_player(DEFAULT_PLAYER), level)
        cost = continuation_seconds(lv, pl, lv.cells)  # a whole game: the table's cost
        s = Session(lv, "play", 1, 0)

        def cpu(n):
            t0 = time.process_time()
            advice(lv, s.grid_text(), s._hand_text(),
                   " ".join(format_card(c) for c in s.discarded), s.discards_left,
                   DEFAULT_PLAYER, seed=7, candidates=1, continuations=n, jobs=1)
            return time.process_time() - t0

        cpu(2)  # warm up
        cells, k = [], 0
        while not s.done:
            if k % a.every == 0 and len(s.legal_actions()) > 1:
                empty = s.grid_text().split().count(".")
                one = cpu(1)
                per = (cpu(m + 1) - one) / m
                counted = continuation_seconds(lv, pl, empty) / cost
                cells.append(f"{empty}: {per / cost:.2f}/{counted:.2f}")
            rows = s.advice(DEFAULT_PLAYER)
            s.apply(rows[0]["card"], rows[0]["cell"])
            k += 1
        print(f"| {level} | {pl.spec} | {cost:.4f} | {', '.join(cells)} |", flush=True)


if __name__ == "__main__":
    main()
