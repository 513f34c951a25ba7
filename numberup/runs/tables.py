"""The tables of finished runs, read back: ``games.parquet`` and ``summary.csv`` of one or
more run directories (``numberup simulate --out DIR``), for plots and the campaign.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .sinks import GAME_COLUMNS


@dataclass
class Runs:
    """The tables of one or more runs: ``games`` (one row per game: level, policy, game,
    score; None when no games table was read) and ``summary`` (one row per level x player;
    None when no summary was read)."""

    games: object
    summary: object


# the columns of the games table (:data:`numberup.runs.sinks.GAME_COLUMNS`) the reports read:
# each game's identity and score, not its medal or line values
SCORE_COLUMNS = [c for c in GAME_COLUMNS if c not in ("medal", "lines")]


def read_runs(dirs) -> Runs:
    """Read ``games.parquet`` and ``summary.csv`` of each directory written by
    ``numberup simulate --out DIR`` and stack them, one level x player at a time.

    A level x player found in several directories is one run split between them (``--first``,
    several machines, or a smaller run on the same decks): its games are combined, each game
    once, in game order. A directory given twice counts once. When the combined games are one
    directory's, that directory's summary row is kept; otherwise the row is computed from the
    combined games (seconds: the directories' sum).

    Raises
    ------
    ValueError
        A directory is missing or holds neither table; or two directories disagree on a game,
        or on the master seed, of the same level x player (they are not the same run).
    """
    import pandas as pd

    pieces: dict = {}  # (level, policy) -> [(dir, games or None, summary row or None)]
    done = set()
    for d in map(Path, dirs):
        if not d.is_dir():
            raise ValueError(f"{d} is not a directory of tables (numberup simulate --out DIR)")
        if d.resolve() in done:
            continue
        done.add(d.resolve())
        gpath, spath = d / "games.parquet", d / "summary.csv"
        if not gpath.exists() and not spath.exists():
            hint = (f"its run was interrupted: numberup simulate --resume --out {d} finishes it"
                    if (d / "manifest.json").exists() else
                    f"write them with numberup simulate --out {d}")
            raise ValueError(f"{d} holds neither games.parquet nor summary.csv ({hint})")
        try:
            games = pd.read_parquet(gpath, columns=SCORE_COLUMNS) if gpath.exists() else None
            summary = pd.read_csv(spath) if spath.exists() else None
        except (OSError, KeyError, ValueError) as err:
            raise ValueError(f"{d}: cannot read its tables ({err})") from None
        keys = {}
        if games is not None:
            for key, g in games.groupby(["level", "policy"], sort=False):
                keys.setdefault((int(key[0]), key[1]), [None, None])[0] = g
        if summary is not None:
            for i in range(len(summary)):
                row = summary.iloc[[i]]
                keys.setdefault((int(row["level"].iloc[0]), row["policy"].iloc[0]),
                                [None, None])[1] = row
        for key, (g, row) in keys.items():
            pieces.setdefault(key, []).append((d, g, row))
    games, summaries = [], []
    for key, have in pieces.items():
        g, row = _combine(key, have)
        if g is not None:
            games.append(g)
        if row is not None:
            summaries.append(row)
    return Runs(
        pd.concat(games, ignore_index=True) if games else None,
        pd.concat(summaries, ignore_index=True) if summaries else None,
    )


def _combine(key, have):
    """One level x player's games and summary row from the directories that hold it."""
    import pandas as pd

    from ..game.levels import get_level
    from ..stats import summarize

    level, policy = key
    rows = [(d, row) for d, _, row in have if row is not None]
    seeds = {d: int(row["seed"].iloc[0]) for d, row in rows
             if "seed" in row and pd.notna(row["seed"].iloc[0])}
    if len(set(seeds.values())) > 1:
        (d1, s1), (d2, s2) = list(seeds.items())[0], next(
            x for x in seeds.items() if x[1] != next(iter(seeds.values())))
        raise ValueError(f"level {level} {policy}: {d1} has seed {s1} but {d2} has seed {s2}: "
                         f"not the same decks, so not one run")
    tables = [(d, g) for d, g, _ in have if g is not None]
    if len(have) == 1 or not tables:
        return have[0][1], have[0][2]
    both = pd.concat([g for _, g in tables], ignore_index=True)
    both = both.sort_values("game", kind="stable")
    twice = both[both.duplicated("game", keep=False)]
    if len(twice):
        firsts = twice.drop_duplicates("game")
        clash = twice.merge(firsts, on="game", suffixes=("", "_first"))
        bad = clash[(clash["score"] != clash["score_first"]) | (clash["seed"] != clash["seed_first"])]
        if len(bad):
            raise ValueError(f"level {level} {policy}: game {int(bad['game'].iloc[0])} differs "
                             f"between the directories (another seed or numberup build)")
    g = both.drop_duplicates("game").reset_index(drop=True)
    for d, t in tables:  # one directory holds every game: its own summary row
        if len(t) == len(g):
            row = next((r for dd, r in rows if dd == d), None)
            return t.reset_index(drop=True), row
    lv = get_level(level)
    plays = next((str(r["plays"].iloc[0]) for _, r in rows if "plays" in r), policy)
    row = {"level": level, "policy": policy, "plays": plays,
           "seed": next(iter(seeds.values())) if seeds else None,
           **summarize(g["score"].to_numpy(), lv.medals)}
    seconds = sum(float(r["seconds"].iloc[0]) for _, r in rows) if rows else float("nan")
    row.update(seconds=seconds, games_per_s=len(g) / seconds if seconds else float("nan"),
               seconds_per_game=seconds / len(g))
    return g, pd.DataFrame([row])


def runs_from_results(results, first: int = 0) -> Runs:
    """The same tables from finished runs in memory (``numberup.runs.simulate.RunResult``)."""
    import pandas as pd

    from .simulate import summary_frame

    parts = []
    for r in results:
        s = r.all_scores
        parts.append(pd.DataFrame({
            "level": np.full(len(s), r.level.number, np.int64), "policy": r.player.spec,
            "game": np.arange(first, first + len(s), dtype=np.int64),
            "score": s.astype(np.int64),
        }))
    games = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(
        columns=["level", "policy", "game", "score"])
    return Runs(games, summary_frame(results))
