"""The player catalogue: every player spec, its parameters, and what it costs and reaches.

The specs and parameters come from the registry (:data:`numberup.players.registry.PLAYERS`: name ->
``PlayerType`` with ``.help`` and ``.params``, each ``Param`` with ``.default``, ``.help``,
``.minimum``, ``.maximum``, ``.choices``, ``.integer``); the costs and strengths from a summary
table written by ``numberup simulate --out`` / ``numberup compare --out`` (by default the
committed ``results/summary.csv``, which the package carries as ``numberup/data/summary.csv``:
``results/package_data.py`` copies it). Only the csv module reads the table: no pandas here.
"""

from __future__ import annotations

import csv
import io
import statistics
from pathlib import Path

from ..errors import InputError

# Measured results the commands read, shipped as package data (written by results/make.sh)
DATA = Path(__file__).resolve().parents[1] / "data"
SUMMARY = DATA / "summary.csv"  # results/summary.csv: every level x player's cost and odds
SUMMARY_NAME = "results/summary.csv"  # how messages name it
NEEDED = ("level", "policy", "games", "mean", "p_bronze", "p_silver", "p_gold", "seconds_per_game")


def param_dict(name: str, par) -> dict:
    """One parameter as plain data: its default, range or choices, and help."""
    return {
        "name": name,
        "default": par.default,
        "type": "choice" if par.choices else ("integer" if par.integer else "number"),
        "minimum": par.minimum,
        "maximum": par.maximum,
        "choices": list(par.choices) or None,
        "help": par.help,
    }


def read_summary(text: str, source: str) -> list[dict]:
    """The rows of a summary table (csv text), numbers as floats; :class:`InputError` naming
    ``source`` when a needed column or a number is missing."""
    reader = csv.DictReader(io.StringIO(text))
    missing = [k for k in NEEDED if k not in (reader.fieldnames or [])]
    if missing:
        raise InputError(f"{source}: not a summary table (no column {', '.join(missing)}; "
                         f"'numberup simulate --out DIR' writes DIR/summary.csv)")
    rows = []
    for lineno, row in enumerate(reader, 2):
        try:
            rows.append({"policy": row["policy"].strip(),
                         **{k: float(row[k]) for k in NEEDED if k != "policy"}})
        except (TypeError, ValueError):
            raise InputError(f"{source}, line {lineno}: a number is missing or malformed "
                             f"in columns {', '.join(NEEDED)}") from None
    return rows


def measured_rows() -> list[dict] | None:
    """The rows of the package's summary table (:data:`SUMMARY`); None where it is missing."""
    if not SUMMARY.is_file():
        return None
    return read_summary(SUMMARY.read_text(), SUMMARY_NAME)


def measured(rows: list[dict], name: str, level: int | None = None) -> list[dict]:
    """What each spec of player ``name`` costs and reaches in ``rows``: per spec, over the
    levels it was run on (or on ``level`` only), the median seconds per game, the mean over
    levels of P(>=bronze), P(>=silver) and P(gold), and the mean result when the spec was
    run on one level only (None otherwise)."""
    specs: dict[str, list[dict]] = {}
    for row in rows:
        if row["policy"].partition(":")[0] == name and (level is None or row["level"] == level):
            specs.setdefault(row["policy"], []).append(row)
    out = []
    for spec, rs in specs.items():
        out.append({
            "spec": spec,
            "levels": sorted(int(r["level"]) for r in rs),
            "games": int(min(r["games"] for r in rs)),
            "seconds_per_game": statistics.median(r["seconds_per_game"] for r in rs),
            # results of different levels are on different scales: a mean of one level only
            "mean": rs[0]["mean"] if len(rs) == 1 else None,
            **{k: statistics.fmean(r[k] for r in rs) for k in ("p_bronze", "p_silver", "p_gold")},
        })
    return out


def catalog(rows: list[dict] | None, name: str | None = None, level: int | None = None) -> list[dict]:
    """Every player (or the one called ``name``) as plain data: name, help, parameters, and
    what it measured in ``rows`` (None: no table)."""
    from ..players.registry import PLAYERS

    if name is not None and name not in PLAYERS:
        raise InputError(f"unknown player {name!r}: choose from {', '.join(PLAYERS)}")
    return [{
        "name": kind.name,
        "help": kind.help,
        "spec": kind.name + (":" + ",".join(f"{k}=..." for k in kind.params) if kind.params else ""),
        "params": [param_dict(k, p) for k, p in kind.params.items()],
        "measured": measured(rows, kind.name, level) if rows is not None else None,
        **({"plays": plays(level)} if kind.resolve is not None else {}),
    } for kind in PLAYERS.values() if name is None or kind.name == name]


def plays(level: int | None = None) -> list[dict]:
    """What ``best`` plays: on ``level``, every setting some budget picks (cheapest first,
    ``budget`` the least budget that picks it); on every level (None), the setting of the
    default budget. Each as the best table's row (:mod:`numberup.players.best`)."""
    from ..players import best

    rows = best.table()
    if level is not None:
        return [{**r, "budget": r["seconds_per_game"]} for r in best.frontier(rows, level)]
    levels = sorted({r["level"] for r in rows})
    return [{**best.choose(rows, lv, best.DEFAULT_BUDGET), "budget": best.DEFAULT_BUDGET}
            for lv in levels]
