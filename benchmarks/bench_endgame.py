"""The exact endgame's cost: time per decision at e empty cells, and per game with endgame=E.

Input: games 0..G-1 of master seed 1 played by ``expectimax`` (the default player) on the
given levels; the positions are those games' decisions with e = 1..5 empty cells.
Variants: the exact decision (numberup.evaluation.endgame._endgame_decide) at e empty cells; whole games
of ``expectimax:endgame=E`` for E = 1..5.
Reference: expectimax's own (depth 1) decision on the same positions, and whole games of
``expectimax``; ratios are against them. Times are CPU time of this process (one thread), so
that other jobs on the machine do not count.
A decision slower than --limit seconds is timed on one position only, and the E above it
not at all ("> limit"); whole games only where a decision takes under a tenth of the limit.
Run: python benchmarks/bench_endgame.py [--levels 8,14,20] [--games G] [--limit S]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from common import best_cpu, machine

from numberup.game import levels as L
from numberup.evaluation.endgame import MAX_ENDGAME, _endgame_decide
from numberup.game.engine import _apply, _begin_turn, _candidates, _deal, _done, _may_discard
from numberup.game.grid import geometry
from numberup.game.levels import get_level
from numberup.players.registry import parse_player
from numberup.players.scratch import new_scratch
from numberup.runs.loop import play_batch
from numberup.game.state import I_FILLED, _copy_state, new_state


def positions(level, player, games: int) -> dict:
    """{e: [(state, cand)]}: the decisions of the games with e = 1..MAX_ENDGAME empty cells
    (the first with that many, where discards repeat it)."""
    p, geo = L.PARAMS[level.number], geometry(level.size)
    S, X = new_state(level.cells), new_scratch(level, player)
    deck = np.zeros(level.deck_size, np.int8)
    out = {e: [] for e in range(1, MAX_ENDGAME + 1)}
    for g in range(games):
        _deal(p, geo, S, deck, np.uint64(1), g, True)
        seen = set()
        while not _done(p, S):
            _begin_turn(p, geo, S, deck)
            cand = np.zeros(level.cells, np.int64)
            n = _candidates(geo, S, cand)
            e = level.cells - int(S.ints[I_FILLED])
            if e <= MAX_ENDGAME and e not in seen:
                seen.add(e)
                T = new_state(level.cells)
                _copy_state(S, T)
                T.rng[:] = S.rng
                out[e].append((T, cand.copy(), n, bool(_may_discard(p, geo, S))))
            slot, cell = player.action(p, geo, S, X, cand, n, _may_discard(p, geo, S),
                                       player.params)
            _apply(p, geo, S, slot, cell)
    return out


def decision_ms(level, player, states, e: int | None, limit: float) -> float:
    """Mean ms of one decision over ``states``: exact (endgame ``e``) or the player's own."""
    p, geo = L.PARAMS[level.number], geometry(level.size)
    X = new_scratch(level, player)
    total, count = 0.0, 0
    for T, cand, n, may in states:
        if e is None:
            fn = lambda: player.action(p, geo, T, X, cand, n, may, player.params)  # noqa: E731
        else:
            fn = lambda: _endgame_decide(p, geo, T, X, cand, n, may, e, 0)  # noqa: E731
        t0 = time.process_time()
        fn()  # compiles nothing: the kernels are the same for every e, warm after the first
        once = time.process_time() - t0
        total += once if once > limit else best_cpu(fn, 2)
        count += 1
        if once > limit:  # too slow to time on every position: this one only
            break
    return 1000 * total / count


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--levels", default="8,14,16,17,18,19,20,3,13")
    ap.add_argument("--games", type=int, default=6, help="games whose positions are timed")
    ap.add_argument("--game-games", type=int, default=20, help="games timed whole per E")
    ap.add_argument("--limit", type=float, default=20.0,
                    help="seconds: a decision slower than this stops its level's rows")
    args = ap.parse_args()
    player = parse_player("expectimax")
    print(f"# exact endgame: CPU ms per decision (mean over {args.games} games' positions) and "
          f"per game ({args.game_games} games), one thread ({machine()})")
    print("| level | e | expectimax ms/decision | exact ms/decision | ratio | "
          "E | expectimax:endgame=E ms/game | extra ms/game |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for lv in map(int, args.levels.split(",")):
        level = get_level(lv)
        pos = positions(level, player, args.games)
        base_game = 1000 * best_cpu(lambda: play_batch(level, player, 1, 0, args.game_games, 1),
                                    1) / args.game_games
        slow = False
        for e in range(1, MAX_ENDGAME + 1):
            own = decision_ms(level, player, pos[e], None, args.limit)
            if slow:
                print(f"| {lv} | {e} | {own:.3f} | > {args.limit:g} s | | {e} | | |")
                continue
            exact = decision_ms(level, player, pos[e], e, args.limit)
            slow = exact / 1000 > args.limit
            cells = f"| {lv} | {e} | {own:.3f} | {exact:,.3f} | {exact / own:,.1f}x | {e} |"
            if exact / 1000 > args.limit / 10:  # whole games would take too long
                print(f"{cells} | |", flush=True)
                continue
            eg = parse_player(f"expectimax:endgame={e}")
            n = args.game_games if exact < 20 else max(2, args.game_games // 10)
            game = 1000 * best_cpu(lambda: play_batch(level, eg, 1, 0, n, 1), 1) / n
            print(f"{cells} {game:.2f} | {game - base_game:+.2f} |", flush=True)


if __name__ == "__main__":
    main()
