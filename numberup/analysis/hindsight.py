"""Hindsight: the best result found by a player who knows the whole deck order.

For game ``i`` of master seed ``S`` (exactly the deck that ``simulate`` and ``compare`` deal),
:func:`solve` runs a beam search over the real engine (:mod:`numberup.analysis.foresight`) and returns the
best legal game it found, with a proven upper bound where one is known (:mod:`numberup.analysis.bounds`).
The found result is a lower bound of the foresight optimum, the bound an upper one: a deal whose
found result reaches Gold is one where Gold was reachable; a deal whose bound is below Gold is
one where no player could have reached it.

Everything is deterministic: the search has no randomness, so the same seed gives the same
found results whatever the number of threads.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from ..game import levels as L
from ..game.cards import deal
from ..game.levels import Level, get_level
from ..stats import summarize

POLICY = "hindsight"
# States kept per generation, by (grid size, hand of five): sized so that 500 deals of all 20
# levels take under half an hour of one core (0.05-0.3 s a deal).
DEFAULT_WIDTH = {(5, False): 40, (6, False): 40, (5, True): 16, (6, True): 12}
PILOTS = 3  # children finished greedily per generation, per state kept


def default_width(level: int | Level) -> int:
    """The beam width used unless one is asked for."""
    lv = get_level(level)
    return DEFAULT_WIDTH[(lv.size, lv.hand > 0)]


@dataclass
class Foresight:
    """One deal solved with the deck order known.

    ``found``: the result of the best legal game found (its ``deck`` in draw order and
    ``moves`` (card, cell or -1) as int8 arrays); ``bound``: a proven upper bound of every
    game on this deal, or ``None``; ``bound_proven`` says whether ``bound`` is proven (it is
    never a heuristic figure when set)."""

    level: int
    game: int
    seed: int  # the game's own seed (numberup.game.rng.game_seed of master seed and game)
    found: int
    bound: float | None
    bound_proven: bool
    deck: np.ndarray
    moves: np.ndarray
    seconds: float = 0.0

    def record(self) -> dict:
        """The found game as an object of ``simulate --log``'s JSON Lines format."""
        from ..runs.sinks import CARD_TEXT, move_dicts

        lv = get_level(self.level)
        return {
            "level": self.level, "game": self.game, "seed": self.seed, "policy": POLICY,
            "score": int(self.found), "deck": [CARD_TEXT[c] for c in self.deck],
            "moves": move_dicts(lv, self.moves),
        }


def search(level: int | Level, deck: np.ndarray, prefix=None, width: int | None = None,
           pilots: int | None = None):
    """(found result, moves int8 (decisions, 2)): the beam search on ``deck`` (draw order)
    after the decisions ``prefix`` (rows (card, cell or -1), default none); ``pilots``
    children finished greedily per generation (default: 3 x width; 0: none)."""
    from .foresight import ZOBRIST, _beam_search
    from ..game.grid import geometry
    from ..runs.loop import max_moves
    from ..game.state import new_state

    lv = get_level(level)
    width = default_width(lv) if width is None else int(width)
    if width < 1:
        raise ValueError(f"the beam width must be at least 1, not {width}")
    pre = np.zeros((0, 2), np.int8) if prefix is None else np.asarray(prefix, np.int8).reshape(-1, 2)
    d = np.zeros(64, np.int8)
    d[: len(deck)] = deck
    moves = np.full((max_moves(lv), 2), -1, np.int8)
    pilots = PILOTS * width if pilots is None else int(pilots)
    found, n = _beam_search(L.PARAMS[lv.number], geometry(lv.size), d, len(deck), pre,
                            len(pre), width, pilots, ZOBRIST, moves, new_state(lv.cells),
                            new_state(lv.cells))
    if n == 0 or found <= -(1 << 39):
        raise ValueError("the decisions given are not a game of this deck")
    return int(found), moves


def solve(level: int | Level, seed: int, game: int, width: int | None = None) -> Foresight:
    """Game ``game`` of master ``seed`` (the deck ``simulate`` deals) played with the deck
    order known: the best game the search finds, and the proven bound where one exists."""
    from .bounds import bound as level_bound
    from ..game.rng import game_seed

    lv = get_level(level)
    t0 = time.perf_counter()
    deck = deal(lv, seed, game)
    found, moves = search(lv, deck, width=width)
    b = level_bound(lv, deck)
    return Foresight(lv.number, int(game), game_seed(seed, game), found,
                     None if b is None else float(b), b is not None, deck, moves,
                     time.perf_counter() - t0)


@dataclass
class LevelRun:
    """Hindsight on games ``0 .. games-1`` of one level: each deal's found result and bound."""

    level: Level
    seed: int
    width: int
    found: np.ndarray
    bound: np.ndarray  # float, NaN where no proven bound
    seconds: float  # CPU-side wall time of the searches, summed over deals
    wall: float
    interrupted: bool = False
    solved: list = field(default_factory=list)

    def summary(self) -> dict:
        """Mean found, P(found >= medal) with Wilson intervals ("reachable on at least"), and
        where bounds exist mean bound and P(bound >= medal) ("reachable on at most")."""
        lv = self.level
        out = {"level": lv.number, "policy": POLICY, "seed": self.seed, "width": self.width}
        out.update(summarize(self.found, lv.medals))
        proven = ~np.isnan(self.bound)
        out["bound_proven"] = bool(proven.all()) and len(self.bound) > 0
        if out["bound_proven"]:
            ub = summarize(self.bound, lv.medals)
            out["bound_mean"] = ub["mean"]
            for m in ("bronze", "silver", "gold"):
                out[f"bound_p_{m}"] = ub[f"p_{m}"]
                out[f"bound_p_{m}_hi"] = ub[f"p_{m}_hi"]
            out["bound_tight"] = float(np.mean(self.bound == self.found))
        else:
            out["bound_mean"] = None
        n = len(self.found)
        out["seconds_per_deal"] = self.seconds / n if n else float("nan")
        return out


def run_level(level: int | Level, seed: int, games: int, jobs: int = 1, width: int | None = None,
              on_game=None, keep: bool = False, first: int = 0) -> LevelRun:
    """Solve games ``first .. first+games-1`` of ``level`` on ``jobs`` threads (the search releases the
    GIL). ``on_game(Foresight)`` is called in game order (for logs and progress); ``keep``
    keeps every :class:`Foresight` in ``LevelRun.solved``. Ctrl-C stops after the deals in
    flight and returns the deals done so far (``interrupted``)."""
    from ..runs.simulate import set_jobs

    lv = get_level(level)
    jobs = set_jobs(jobs)
    width = default_width(lv) if width is None else int(width)
    found = np.zeros(games, np.int64)
    bound = np.full(games, np.nan)
    t0 = time.perf_counter()
    busy = 0.0
    done = 0
    solved = []
    interrupted = False
    chunk = max(1, 4 * jobs)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        try:
            for lo in range(0, games, chunk):
                ids = range(first + lo, first + min(games, lo + chunk))
                for f in pool.map(lambda i: solve(lv, seed, i, width), ids):
                    found[f.game - first] = f.found
                    bound[f.game - first] = np.nan if f.bound is None else f.bound
                    busy += f.seconds
                    done += 1
                    if keep:
                        solved.append(f)
                    if on_game is not None:
                        on_game(f)
        except KeyboardInterrupt:
            interrupted = True
    return LevelRun(lv, seed, width, found[:done], bound[:done], busy,
                    time.perf_counter() - t0, interrupted, solved)


def run_levels(levels, seed: int, games: int, jobs: int = 1, width: int | None = None, out=None,
               log=None, bar=None) -> tuple[list[LevelRun], bool]:
    """:func:`run_level` for each level, streaming found games to ``log`` (JSON Lines) and
    writing ``out/summary.csv`` and ``out/deals.csv`` at the end; returns the runs and whether
    Ctrl-C stopped them."""
    import json

    runs = []
    interrupted = False
    from ..errors import InputError

    try:
        f = open(log, "w") if log is not None else None
    except OSError as err:
        raise InputError(f"--log: cannot write {log}: {err.strerror}") from None
    try:
        for level in levels:
            lv = get_level(level)
            task = bar.add_task(f"level {lv.number} hindsight", total=games) if bar else None

            def on_game(res, task=task):
                if f is not None:
                    f.write(json.dumps(res.record(), separators=(",", ":")) + "\n")
                if bar is not None:
                    bar.advance(task, 1)

            r = run_level(lv, seed, games, jobs, width, on_game)
            runs.append(r)
            if f is not None:
                f.flush()
            if r.interrupted:
                interrupted = True
                break
    finally:
        if f is not None:
            f.close()
    if out is not None:
        write_tables(runs, out)
    return runs, interrupted


def write_tables(runs: list[LevelRun], out) -> None:
    """``summary.csv`` (one row per level) and ``deals.csv`` (level, game, found, bound)."""
    import pandas as pd
    from pathlib import Path

    from ..files import atomic_write

    out = Path(out)
    with atomic_write(out / "summary.csv") as fh:
        pd.DataFrame([r.summary() for r in runs]).to_csv(fh, index=False, float_format="%.6g")
    deals = pd.concat([pd.DataFrame({"level": r.level.number, "game": np.arange(len(r.found)),
                                     "found": r.found, "bound": r.bound}) for r in runs])
    with atomic_write(out / "deals.csv") as fh:
        deals.to_csv(fh, index=False)


def report_lines(rows: list[dict], seed: int) -> list[str]:
    """The summary in words, one block per level."""
    out = [f"numberup hindsight (seed {seed}): best game found with the deck order known"]
    for r in rows:
        lv = get_level(r["level"])
        pct = lambda x: f"{100 * x:.1f}%"  # noqa: E731
        out.append(
            f"level {r['level']:>2}: {r['games']} deals, mean found {r['mean']:.1f}; "
            f"P(>=B/S/G) {pct(r['p_bronze'])} / {pct(r['p_silver'])} / {pct(r['p_gold'])}; "
            f"{r['seconds_per_deal']:.3f} s a deal")
        out.append(f"    with foresight, gold ({lv.medals[2]}) is reachable on at least "
                   f"{pct(r['p_gold'])} of deals (95% CI {pct(r['p_gold_lo'])}-{pct(r['p_gold_hi'])})")
        if r["bound_proven"]:
            out.append(f"    proven bound: mean {r['bound_mean']:.1f} (found/bound "
                       f"{r['mean'] / r['bound_mean']:.2f}); gold reachable on at most "
                       f"{pct(r['bound_p_gold'])} of deals (95% CI up to {pct(r['bound_p_gold_hi'])}); "
                       f"found = bound on {pct(r['bound_tight'])}")
        else:
            out.append("    no proven bound")
    return out


def versus(rows: list[dict], results, seed: int, first: int = 0, jobs=1) -> None:
    """Add to each ``compare`` row (one per level x player, ``results`` its
    :class:`numberup.runs.simulate.RunResult`) hindsight on the same deals: ``hindsight_mean``, the
    player's ``share_of_hindsight`` (its mean over the hindsight mean), ``gold_reachable``
    (deals where the search found gold) and ``p_gold_if_reachable`` (the player's P(gold) on
    those deals, with a 95% Wilson interval)."""
    from ..stats import wilson

    found = {}
    for row, r in zip(rows, results):
        lv = r.level
        scores = r.all_scores
        if lv.number not in found or len(found[lv.number]) < len(scores):
            found[lv.number] = run_level(lv, seed, len(scores), jobs, first=first).found
        hs = found[lv.number][: len(scores)]
        reach = hs >= lv.medals[2]
        k, n = int((scores[reach] >= lv.medals[2]).sum()), int(reach.sum())
        lo, hi = wilson(k, n)
        row.update(hindsight_mean=float(hs.mean()) if len(hs) else float("nan"),
                   share_of_hindsight=float(scores.mean() / hs.mean()) if len(hs) and hs.mean() > 0
                   else float("nan"),
                   gold_reachable=n, p_gold_if_reachable=k / n if n else float("nan"),
                   p_gold_if_reachable_lo=lo, p_gold_if_reachable_hi=hi)


VERSUS_KEYS = ("hindsight_mean", "share_of_hindsight", "gold_reachable", "p_gold_if_reachable",
               "p_gold_if_reachable_lo", "p_gold_if_reachable_hi")
