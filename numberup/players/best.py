"""``best``: the strongest measured setting of a level within a cost budget.

``best`` is not a kernel of its own: on each level it stands for another player spec, the one
with the highest measured P(gold) (then the highest mean) among the settings whose measured
cost is at most ``budget`` seconds a game on one core. The measurements are a table shipped
as package data (:data:`TABLE`, ``numberup/data/best.csv``, written by ``results/best.py``
from the runs in ``results/``): per level, every measured setting with its games, mean, medal
odds and one-core seconds per game. ``best:budget=1`` on level 19 is then a rollout setting,
``best`` (50 ms) the learned player, and a command that plays several levels plays each with
its own setting. Same table, same settings: the games of ``best`` are as reproducible as any
other spec's.
"""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path

from ..errors import InputError
from .base import Param, PlayerType

TABLE = Path(__file__).resolve().parents[1] / "data" / "best.csv"
TABLE_NAME = "results/best.csv"  # how messages name it (the package carries a copy)
# The default budget: 2,500 games of a level in about a minute on 2 cores (simulate, compare,
# campaign; what it plays on each level: `numberup players best`).
DEFAULT_BUDGET = 0.05
# The budget of the player that other work plays hundreds of times an answer (advise and the
# hints of play and assist, which must answer within 2 s and 1 s; hindsight's pilot and warm
# start; calibrate, which checks advise's estimates): the one-move settings, up to level 20's
# learned:objective=gold,k=128 (0.031 s). With the look at the next card (0.034-0.046 s) advise
# took up to 3.0 s and a hint up to 1.8 s (benchmarks/README.md, "Advise and hints with one
# player").
QUICK_BUDGET = 0.032
QUICK = f"best:budget={QUICK_BUDGET:g}"
COLUMNS = ("level", "spec", "games", "mean", "p_bronze", "p_silver", "p_gold", "p_gold_lo",
           "p_gold_hi", "seconds_per_game", "source")


def read_table(text: str, source: str) -> list[dict]:
    """The rows of a best table (csv text): numbers as numbers; :class:`InputError` naming
    ``source`` and the line when a column or a number is missing."""
    reader = csv.DictReader(text.splitlines())
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise InputError(f"{source}: not a best table (no column {', '.join(missing)}; "
                         f"'python results/best.py' writes one)")
    rows = []
    for lineno, row in enumerate(reader, 2):
        try:
            rows.append({"level": int(row["level"]), "spec": row["spec"].strip(),
                         "games": int(row["games"]), "source": row["source"],
                         **{c: float(row[c]) for c in COLUMNS[3:-1]}})
        except (TypeError, ValueError):
            raise InputError(f"{source}, line {lineno}: a number is missing or malformed") from None
    return rows


@cache
def table() -> tuple[dict, ...]:
    """The package's table (empty when the package was built without it)."""
    if not TABLE.is_file():
        return ()
    return tuple(read_table(TABLE.read_text(), TABLE_NAME))


def stronger(a: dict, b: dict) -> bool:
    """Whether measured setting ``a`` is stronger than ``b``: higher P(gold), then higher mean."""
    return (a["p_gold"], a["mean"]) > (b["p_gold"], b["mean"])


def choose(rows, level: int, budget: float) -> dict:
    """The row of the strongest setting of ``level`` in ``rows`` that costs at most ``budget``
    seconds a game (the cheapest one where none does); :class:`InputError` when the level has
    no row."""
    mine = [r for r in rows if r["level"] == level]
    if not mine:
        raise InputError(f"player 'best': {TABLE_NAME} has no measured setting of level {level} "
                         f"(name a player instead: see 'numberup players')")
    within = [r for r in mine if r["seconds_per_game"] <= budget]
    if not within:
        return min(mine, key=lambda r: r["seconds_per_game"])
    out = within[0]
    for r in within[1:]:
        if stronger(r, out):
            out = r
    return out


def frontier(rows, level: int) -> list[dict]:
    """The settings of ``level`` that ``best:budget=S`` plays for some ``S``, cheapest first:
    each is stronger than every cheaper one, and is played from its cost up to the next one's."""
    out = []
    for r in sorted((r for r in rows if r["level"] == level),
                    key=lambda r: (r["seconds_per_game"], -r["p_gold"], -r["mean"])):
        if not out or stronger(r, out[-1]):
            out.append(r)
    return out


def _resolve(params, level: int) -> str:
    return choose(table(), level, float(params[0]))["spec"]


PLAYER = PlayerType(
    "best",
    "the strongest measured setting of the level (highest P(gold), then mean) that costs at "
    f"most budget seconds a game on one core, from {TABLE_NAME}: 'numberup players best "
    "--level N' shows what it plays there",
    None,
    {"budget": Param(DEFAULT_BUDGET, "seconds a game on one core the setting may cost (the "
                     "default plays 2,500 games in about a minute on 2 cores; advise and the "
                     f"hints play best:budget={QUICK_BUDGET:g})", minimum=0.0,
                     integer=False)},
    resolve=_resolve,
)
