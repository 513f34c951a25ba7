"""Hindsight: the best result found by a player who knows the whole deck order.

For game ``i`` of master seed ``S`` (exactly the deck that ``simulate`` and ``compare`` deal),
:func:`solve` runs a beam search over the real engine (:mod:`numberup.analysis.foresight`) and a
nested Monte Carlo search whose playouts are a strong player's (:mod:`numberup.analysis.pilot`;
by default ``best``'s setting of the level), and returns the best legal game they found, with
a proven upper bound where one is known (:mod:`numberup.analysis.bounds`).
Given a warm game (a game some player played on the deal: :mod:`numberup.analysis.warm`; by
default :func:`run_level` plays ``best``'s), the found game is the better of the search's and
the warm one (``found_by``), so found is never below the warm game; the search's own result is
kept apart (``search``). The found result is a lower bound of the foresight optimum, the bound
an upper one: a deal whose found result reaches Gold is one where Gold was reachable; a deal
whose bound is below Gold is one where no player could have reached it; found = bound proves
found optimal.

Everything is deterministic: the beam has no randomness, the nested search's pilot and the
warm games are seeded per game, so the same seed gives the same found results whatever the
number of threads.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from ..game import levels as L
from ..game.cards import deal
from ..game.levels import Level, get_level
from ..stats import summarize
from .foresight import DEFAULT_WIDTH, PILOTS, default_width, search  # noqa: F401 (the API)
from .pilot import (DEFAULT_RESTARTS as PILOT_RESTARTS, DEFAULT_WIDTH as PILOT_WIDTH, PILOT,
                    pilot_search)
from . import design
from .warm import WARM_PLAYER, describe_warm, warm_games

POLICY = "hindsight"
@dataclass
class Foresight:
    """One deal solved with the deck order known.

    ``found``: the result of the best legal game found (its ``deck`` in draw order and
    ``moves`` (card, cell or -1) as int8 arrays), ``found_by`` which found it (``search`` or
    ``warm``; a tie is the search's); ``search``: the search's own result, ``warm`` the warm
    game's (``None`` without one); ``bound``: a proven upper bound of every game on this deal,
    or ``None``; ``bound_proven`` says whether ``bound`` is proven (it is never a heuristic
    figure when set); ``optimal``: found is proven optimal (it meets the bound)."""

    level: int
    game: int
    seed: int  # the game's own seed (numberup.game.rng.game_seed of master seed and game)
    found: int
    bound: float | None
    bound_proven: bool
    deck: np.ndarray
    moves: np.ndarray
    seconds: float = 0.0
    search: int = 0
    warm: int | None = None
    found_by: str = "search"
    beam: int = 0  # the beam search's own result
    pilot: int | None = None  # the nested Monte Carlo search's (None: not run)
    exact: str | None = None  # the exact model's outcome: optimal, limit (None: not run)
    exact_seconds: float = 0.0
    layout: int | None = None  # the played layout's result (None: not run, or not played)
    layout_ran: bool = False

    @property
    def optimal(self) -> bool:
        return self.bound_proven and self.bound is not None and self.found >= self.bound

    def record(self) -> dict:
        """The found game as an object of ``simulate --log``'s JSON Lines format."""
        from ..runs.sinks import CARD_TEXT, move_dicts

        lv = get_level(self.level)
        return {
            "level": self.level, "game": self.game, "seed": self.seed, "policy": POLICY,
            "score": int(self.found), "deck": [CARD_TEXT[c] for c in self.deck],
            "moves": move_dicts(lv, self.moves),
        }


def solve(level: int | Level, seed: int, game: int, width: int | None = None,
          warm=None, lp_passes: int = 0, pilot: str | None = PILOT,
          pilot_width: int = PILOT_WIDTH, pilot_restarts: int = PILOT_RESTARTS,
          exact_seconds: float = 0.0, layout_seconds: float = 0.0) -> Foresight:
    """Game ``game`` of master ``seed`` (the deck ``simulate`` deals) played with the deck
    order known: the better of the game the search finds and the ``warm`` game ((score,
    moves) of a game played on this deal, or ``None``), and the proven bound where one
    exists. The warm game is replayed through the engine first: it must be a whole legal
    game of the deck with its score. ``lp_passes`` > 0: the bound is also at most the
    rows-and-columns LP bound after that many column-generation passes
    (:func:`numberup.analysis.partition.partition_bound`; a pass limit, not a time limit, so
    the bound is the same on any machine). ``pilot``: a player spec whose playouts also run
    the nested Monte Carlo search (:mod:`numberup.analysis.pilot`, ``pilot_width`` actions a
    decision, the best of ``pilot_restarts`` searches, seeded by the game's seed); the
    search's result is the better of the beam's and that one (``None``: the beam alone).
    ``exact_seconds`` > 0: on level 4 the bound is also at most the colour supply with each
    line's two colours apart (:func:`numberup.analysis.supply.paired_bound`), and the deal's
    exact model runs too
    (:mod:`numberup.analysis.exact`, on the levels it models, where found does not already
    meet the bound) within that time: its proven optimum (``found_by`` exact where it beats
    the rest) or its proven bound. ``layout_seconds`` > 0 (levels 6-10, before the exact
    model): the best layout of the deal's placed values within that time, played in the
    deal's order where some arrangement of it can be (:mod:`numberup.analysis.realize`;
    ``found_by`` layout where it beats the rest), its proven bound counting too."""
    from .bounds import bound as level_bound
    from .warm import checked
    from ..game.rng import game_seed

    lv = get_level(level)
    t0 = time.perf_counter()
    deck = deal(lv, seed, game)
    found, moves = search(lv, deck, width=width)
    beam, piloted = found, None
    if pilot is not None:
        piloted, p_moves = pilot_search(lv, deck, game_seed(seed, game), pilot, pilot_width,
                                        restarts=pilot_restarts)
        if piloted > found:
            found, moves = piloted, p_moves
    best, by, best_moves = found, "search", moves
    if warm is not None:
        checked(lv, deck, int(warm[0]), warm[1], f"the warm game of level {lv.number} game {game}")
        if warm[0] > found:
            best, by, best_moves = int(warm[0]), "warm", np.asarray(warm[1], np.int8)
    b = level_bound(lv, deck)
    if lp_passes > 0:
        from .partition import partition_bound

        lp = partition_bound(lv, deck, seconds=float("inf"), max_passes=int(lp_passes))
        b = b if lp is None else min(b, lp)
    if exact_seconds > 0:  # OR-Tools is there: level 4's colour supply with its pairs apart
        from .supply import paired_bound

        paired = paired_bound(lv, deck)
        b = b if paired is None else min(b, paired)
    laid = None
    if layout_seconds > 0 and design.applies(lv) and not (b is not None and best >= b):
        from .realize import layout_game

        laid = layout_game(lv, deck, layout_seconds, game_seed(seed, game), start=best_moves,
                           at_most=b)
        if laid.found is not None and laid.found > best:
            best, by, best_moves = laid.found, "layout", laid.moves
        b = laid.bound if b is None else min(b, laid.bound)
    ex = None
    if exact_seconds > 0 and not (b is not None and best >= b):  # not already proven
        from .exact import exact

        ex = exact(lv, deck, exact_seconds, start=best_moves, at_least=best, at_most=b)
        if ex.found is not None and ex.found > best:
            best, by, best_moves = ex.found, "exact", ex.moves
        b = ex.bound if b is None else min(b, ex.bound)
    return Foresight(lv.number, int(game), game_seed(seed, game), best,
                     None if b is None else float(b), b is not None, deck, best_moves,
                     time.perf_counter() - t0, found, None if warm is None else int(warm[0]), by,
                     beam, piloted, None if ex is None else ("optimal" if ex.optimal else "limit"),
                     0.0 if ex is None else ex.seconds, None if laid is None else laid.found,
                     laid is not None)


@dataclass
class LevelRun:
    """Hindsight on games ``first .. first+games-1`` of one level: each deal's found result,
    the search's own, the warm game's (NaN without one) and the bound (NaN where none is
    proven). ``warm_from``: the warm games' source (a player spec, ``--warm`` log, or ``None``)."""

    level: Level
    seed: int
    width: int
    found: np.ndarray
    bound: np.ndarray  # float, NaN where no proven bound
    seconds: float  # CPU-side wall time of the searches, summed over deals
    wall: float
    interrupted: bool = False
    solved: list = field(default_factory=list)
    search: np.ndarray = None
    warm: np.ndarray = None  # float, NaN where the deal had no warm game
    warm_from: str | None = None
    first: int = 0
    beam: np.ndarray = None  # the beam's own result per deal
    pilot: np.ndarray = None  # float: the nested search's, NaN where it did not run
    found_by: np.ndarray = None  # str per deal: search, warm, layout or exact
    exact: np.ndarray = None  # str per deal: the exact model's optimal, limit, or "" (not run)
    exact_seconds: np.ndarray = None
    layout: np.ndarray = None  # float per deal: the played layout's result, NaN where none
    layout_ran: np.ndarray = None  # bool per deal: the layout stage ran

    def summary(self) -> dict:
        """Mean found, P(found >= medal) with Wilson intervals ("reachable on at least"), the
        search alone and the warm games apart, and where bounds exist mean bound and
        P(bound >= medal) ("reachable on at most")."""
        lv = self.level
        out = {"level": lv.number, "policy": POLICY, "seed": self.seed, "width": self.width}
        out.update(summarize(self.found, lv.medals))
        gold = lv.medals[2]
        n = len(self.found)
        found_by = self._found_by()
        out["search_mean"] = float(self.search.mean()) if n else float("nan")
        out["search_p_gold"] = float(np.mean(self.search >= gold)) if n else float("nan")
        has = ~np.isnan(self.warm)
        out["warm"] = self.warm_from
        out["warm_games"] = int(has.sum())
        if has.any():
            w = self.warm[has]
            out["warm_mean"] = float(w.mean())
            out["warm_p_gold"] = float(np.mean(w >= gold))
            out["search_at_least_warm"] = float(np.mean(self.search[has] >= w))
            out["found_by_warm"] = float(np.mean(found_by[has] == "warm"))
        else:
            out.update(warm_mean=None, warm_p_gold=None, search_at_least_warm=None,
                       found_by_warm=None)
        proven = ~np.isnan(self.bound)
        out["bound_proven"] = bool(proven.all()) and n > 0
        if out["bound_proven"]:
            ub = summarize(self.bound, lv.medals)
            out["bound_mean"] = ub["mean"]
            for m in ("bronze", "silver", "gold"):
                out[f"bound_p_{m}"] = ub[f"p_{m}"]
                out[f"bound_p_{m}_hi"] = ub[f"p_{m}_hi"]
            out["bound_tight"] = float(np.mean(self.bound <= self.found))
        else:
            out["bound_mean"] = None
        ran = self.exact != "" if self.exact is not None else np.zeros(n, bool)
        if ran.any():
            out["exact_deals"] = int(ran.sum())
            out["exact_optimal"] = float(np.mean(self.exact[ran] == "optimal"))
            out["exact_hit_limit"] = float(np.mean(self.exact[ran] == "limit"))
            out["found_by_exact"] = float(np.mean(found_by == "exact"))
            out["exact_seconds_per_deal"] = float(self.exact_seconds[ran].mean())
        laid = self.layout_ran if self.layout_ran is not None else np.zeros(n, bool)
        if laid.any():
            out["layout_deals"] = int(laid.sum())
            out["layout_played"] = float(np.mean(~np.isnan(self.layout[laid])))
            out["found_by_layout"] = float(np.mean(found_by == "layout"))
        out["seconds_per_deal"] = self.seconds / n if n else float("nan")
        return out

    def deals(self):
        """One row per deal: level, game, found, found_by, search (the better of beam and
        pilot: the beam's and the nested search's own results, pilot empty where it did not
        run), warm, bound, bound_proven, optimal, and the exact model's outcome (exact:
        optimal, limit, or empty where it did not run) and seconds (a pandas DataFrame)."""
        import pandas as pd

        proven = ~np.isnan(self.bound)
        n = len(self.found)
        exact = self.exact if self.exact is not None else np.full(n, "", object)
        return pd.DataFrame({
            "level": self.level.number, "game": self.first + np.arange(len(self.found)),
            "found": self.found,
            "found_by": self._found_by(),
            "search": self.search, "beam": self.beam,
            "pilot": _ints(self.pilot), "warm": _ints(self.warm),
            "bound": self.bound, "bound_proven": proven,
            "optimal": proven & (self.found >= np.nan_to_num(self.bound, nan=np.inf)),
            "exact": exact,
            "exact_seconds": (self.exact_seconds if self.exact_seconds is not None
                              else np.zeros(n)),
            "layout": _ints(self.layout if self.layout is not None else np.full(n, np.nan))})

    def _found_by(self) -> np.ndarray:
        """Which stage found each deal's game (``found_by``; where a run kept none, the warm
        game wherever found is above the search's)."""
        if self.found_by is not None:
            return self.found_by
        return np.where(self.found > self.search, "warm", "search")


def _ints(a: np.ndarray):
    """Floats with NaN for "none" as a column of whole numbers with empty cells."""
    import pandas as pd

    return pd.array([None if np.isnan(v) else int(v) for v in a], dtype="Int64")


def run_level(level: int | Level, seed: int, games: int, jobs: int = 1, width: int | None = None,
              on_game=None, keep: bool = False, first: int = 0, warm=WARM_PLAYER,
              warm_from: str | None = None, lp_passes: int = 0, pilot: str | None = PILOT,
              pilot_width: int = PILOT_WIDTH, pilot_restarts: int = PILOT_RESTARTS,
              exact_seconds: float = 0.0, layout_seconds: float = 0.0) -> LevelRun:
    """Solve games ``first .. first+games-1`` of ``level`` on ``jobs`` threads (the search releases the
    GIL), each warm-started by its game of ``warm`` (:func:`warm_games`; by default the games
    of ``best``). ``on_game(Foresight)`` is called in game order (for logs and progress); ``keep``
    keeps every :class:`Foresight` in ``LevelRun.solved``. Ctrl-C stops after the deals in
    flight and returns the deals done so far (``interrupted``)."""
    from ..runs.simulate import set_jobs

    lv = get_level(level)
    jobs = set_jobs(jobs)
    width = default_width(lv) if width is None else int(width)
    found = np.zeros(games, np.int64)
    search_found = np.zeros(games, np.int64)
    beam = np.zeros(games, np.int64)
    piloted = np.full(games, np.nan)
    found_by = np.full(games, "search", object)
    exact = np.full(games, "", object)
    exact_s = np.zeros(games)
    layout = np.full(games, np.nan)
    layout_ran = np.zeros(games, bool)
    warm_score = np.full(games, np.nan)
    bound = np.full(games, np.nan)
    t0 = time.perf_counter()
    busy = 0.0
    done = 0
    solved = []
    interrupted = False
    chunk = max(1, 4 * jobs)
    if warm_from is None:
        warm_from = describe_warm(warm, lv.number)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        try:
            given = warm_games(lv, seed, first, games, warm, jobs)
            for lo in range(0, games, chunk):
                ids = range(first + lo, first + min(games, lo + chunk))
                for f in pool.map(lambda i: solve(lv, seed, i, width, given.get(i), lp_passes,
                                                  pilot, pilot_width, pilot_restarts,
                                                  exact_seconds, layout_seconds), ids):
                    k = f.game - first
                    found[k], search_found[k], beam[k] = f.found, f.search, f.beam
                    piloted[k] = np.nan if f.pilot is None else f.pilot
                    found_by[k], exact[k] = f.found_by, f.exact or ""
                    exact_s[k] = f.exact_seconds
                    layout[k] = np.nan if f.layout is None else f.layout
                    layout_ran[k] = f.layout_ran
                    warm_score[k] = np.nan if f.warm is None else f.warm
                    bound[k] = np.nan if f.bound is None else f.bound
                    busy += f.seconds
                    done += 1
                    if keep:
                        solved.append(f)
                    if on_game is not None:
                        on_game(f)
        except KeyboardInterrupt:
            interrupted = True
    return LevelRun(lv, seed, width, found[:done], bound[:done], busy,
                    time.perf_counter() - t0, interrupted, solved, search_found[:done],
                    warm_score[:done], warm_from if given else None, first, beam[:done],
                    piloted[:done], found_by[:done], exact[:done], exact_s[:done],
                    layout[:done], layout_ran[:done])


def run_levels(levels, seed: int, games: int, jobs: int = 1, width: int | None = None, out=None,
               log=None, bar=None, warm=WARM_PLAYER, warm_from=None,
               lp_passes: int = 0, pilot: str | None = PILOT,
               pilot_width: int = PILOT_WIDTH, pilot_restarts: int = PILOT_RESTARTS,
               exact_seconds: float = 0.0,
               layout_seconds: float = 0.0) -> tuple[list[LevelRun], bool]:
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

            r = run_level(lv, seed, games, jobs, width, on_game, warm=warm, warm_from=warm_from,
                          lp_passes=lp_passes, pilot=pilot, pilot_width=pilot_width,
                          pilot_restarts=pilot_restarts, exact_seconds=exact_seconds,
                          layout_seconds=layout_seconds)
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
    """``summary.csv`` (one row per level) and ``deals.csv`` (:meth:`LevelRun.deals`)."""
    import pandas as pd
    from pathlib import Path

    from ..files import atomic_write

    out = Path(out)
    with atomic_write(out / "summary.csv") as fh:
        pd.DataFrame([r.summary() for r in runs]).to_csv(fh, index=False, float_format="%.6g")
    with atomic_write(out / "deals.csv") as fh:
        pd.concat([r.deals() for r in runs]).to_csv(fh, index=False)


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
