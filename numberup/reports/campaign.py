"""The campaign's odds as tables (:func:`numberup.analysis.campaign.campaign` computes them)."""

from __future__ import annotations

import math

from ..game.levels import MEDALS

def _p(p) -> str:
    """``0.1234 -> '12.3%'``; a probability that rounds to 0% or 100% but is neither says so."""
    if p is None:
        return "-"
    if 0 < p < 0.0005:
        return "<0.1%"
    if 0.9995 <= p < 1:
        return ">99.9%"
    return f"{100 * p:.1f}%"


def _attempts(x) -> str:
    return "-" if x is None else ("never" if math.isinf(x) else f"{x:,.1f}")


def campaign_tables(result: dict, policy: str, seed=None) -> list:
    """The campaign as rich renderables: levels, chapters, booklet."""
    from rich.table import Table

    k = result["attempts"]
    title = f"numberup campaign: {policy}, best of {k} attempt{'s' * (k != 1)} per level"
    if seed is not None:
        title += f" (seed {seed})"
    levels = Table(title=title, title_justify="left")
    for col in ("level", "ch", "games", "P(>=bronze)", "P(>=silver)", "P(gold)",
                "games to gold", f"P(gold in {k})", f"mean best of {k}"):
        levels.add_column(col, justify="right")
    for lv in result["levels"]:
        levels.add_row(str(lv["level"]), str(lv["chapter"]), f"{lv['games']:,}",
                       _p(lv["p_bronze"]), _p(lv["p_silver"]), _p(lv["p_gold"]),
                       _attempts(lv["expected_attempts_gold"]), _p(lv["p_gold_in_attempts"]),
                       f"{lv['mean_best']:.1f}")
    chapters = Table(title="Chapters: sum of each level's best result", title_justify="left")
    for col in ("chapter", "levels", "B/S/G", "mean total", "P(>=bronze)", "P(>=silver)",
                "P(gold)"):
        chapters.add_column(col, justify="left" if col == "chapter" else "right")
    for ch in result["chapters"]:
        lv = ch["levels"]
        chapters.add_row(
            f"{ch['chapter']} {ch['name']}", f"{lv[0]}-{lv[-1]}",
            "/".join(str(ch["thresholds"][m]) for m in MEDALS),
            "-" if ch["mean_total"] is None else f"{ch['mean_total']:.1f}",
            _p(ch["p_bronze"]), _p(ch["p_silver"]), _p(ch["p_gold"]),
        )
    b = result["booklet"]
    booklet = (f"Booklet (every chapter at or above the medal): bronze {_p(b['p_bronze'])}, "
               f"silver {_p(b['p_silver'])}, gold {_p(b['p_gold'])}")
    missing = [n for ch in result["chapters"] for n in ch.get("missing", [])]
    if missing:
        booklet += f" (levels {', '.join(map(str, missing))} not played)"
    return [levels, chapters, booklet]
