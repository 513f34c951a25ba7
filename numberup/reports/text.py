"""Text for people: the tables and summaries the command line prints.

Everything here turns library results into strings (``rich`` renderables or plain text); nothing
here computes game results.
"""

from __future__ import annotations

from ..game.levels import AGG_NAMES, CHAPTERS, RULE_NAMES, RULINGS, Level, get_level


def level_dict(level: Level) -> dict:
    """A level as plain data (the ``--json`` form of ``numberup levels``)."""
    return {
        "level": level.number,
        "chapter": level.chapter,
        "deck": {"cards": level.deck_size, "values": level.values, "colours": level.colours},
        "grid": f"{level.size}x{level.size}",
        "lines": "rows, columns, diagonals" if level.diagonals else "rows, columns",
        "rule": RULE_NAMES[level.rule],
        "summary": level.summary,
        "text": level.text,
        "targets": list(level.targets),
        "minus": level.minus or None,
        "result": AGG_NAMES[level.aggregation],
        "discards": level.discards,
        "hand": level.hand,
        "medals": dict(zip(("bronze", "silver", "gold"), level.medals)),
        "rulings": [RULINGS[k] for k in level.rulings],
    }


def _specials(level: Level) -> str:
    parts = []
    if level.discards:
        parts.append(f"{level.discards} discards")
    if level.hand:
        parts.append(f"hand of {level.hand}")
    if level.diagonals:
        parts.append("diagonals")
    return ", ".join(parts)


def levels_table(levels):
    from rich.table import Table

    table = Table(title="For One: Number Up - the 20 levels", title_justify="left")
    for col, kw in (("lvl", {"justify": "right"}), ("ch", {"justify": "right"}), ("deck", {}),
                    ("grid", {}), ("line rule", {}), ("targets", {}), ("minus", {}),
                    ("result", {}), ("B/S/G", {}), ("specials", {})):
        table.add_column(col, **kw)
    for lv in levels:
        table.add_row(
            str(lv.number), str(lv.chapter), lv.deck_text, f"{lv.size}x{lv.size}", lv.summary,
            "/".join(map(str, lv.targets)) or ("-" if lv.rule < 11 else "streets"),
            lv.minus or "-", AGG_NAMES[lv.aggregation], "/".join(map(str, lv.medals)),
            _specials(lv) or "-",
        )
    return table


def level_text(number: int) -> str:
    lv = get_level(number)
    ch = CHAPTERS[lv.chapter - 1]
    d = level_dict(lv)
    out = [
        f"Level {lv.number} (chapter {ch.number} {ch.name})",
        f"  deck:     {lv.deck_text}",
        f"  grid:     {d['grid']}, scored lines: {d['lines']}",
        f"  rule:     {lv.text}",
        f"  targets:  {', '.join(map(str, lv.targets)) or 'none (streets: by length)'}",
        f"  minus:    {lv.minus or 'never'}",
        f"  result:   {d['result']}",
        f"  specials: {_specials(lv) or 'none'}",
        f"  medals:   bronze {lv.medals[0]}, silver {lv.medals[1]}, gold {lv.medals[2]}",
        "  rulings:",
    ]
    out += [f"    - {text}" for text in d["rulings"]]
    return "\n".join(out)


def score_text(game, source: str) -> str:
    """Per line its points, markers and value, then total and medal."""
    out = [f"{source}: level {game.level}"]
    for line in game.lines:
        points = "-" if line.points is None else str(line.points)
        out.append(
            f"  {line.kind:<4} {line.index}  points {points:>4}  {line.marker:<15} value {line.value:>4}"
        )
    out.append(f"  total {game.total}  medal {game.medal}")
    return "\n".join(out)


def pct(p: float, lo: float | None = None, hi: float | None = None) -> str:
    """``pct(0.123, 0.11, 0.136) -> '12.3% [11.0-13.6]'``."""
    s = f"{100 * p:.1f}%"
    if lo is not None:
        s += f" [{100 * lo:.1f}-{100 * hi:.1f}]"
    return s


def summary_table(rows: list[dict], title: str = "Simulation"):
    """A rich table of run summaries (see :func:`numberup.stats.summarize`)."""
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for col in ("level", "policy", "games", "mean", "sd", "p5/p25/p50/p75/p95", "P(lost)",
                "P(>=bronze)", "P(>=silver)", "P(gold)", "games/s"):
        table.add_column(col, justify="left" if col == "policy" else "right")
    for r in rows:
        table.add_row(
            str(r["level"]), _policy(r), f"{r['games']:,}", f"{r['mean']:.1f}", f"{r['sd']:.1f}",
            "/".join(f"{r[f'p{q:02d}']:g}" for q in (5, 25, 50, 75, 95)),
            *(pct(r[f"p_{m}"], r[f"p_{m}_lo"], r[f"p_{m}_hi"]) for m in ("lost", "bronze", "silver", "gold")),
            f"{r['games_per_s']:,.0f}",
        )
    return table


def _policy(row: dict) -> str:
    """A row's player: its spec, and what it plays on the level where that differs (best)."""
    plays = row.get("plays")
    return row["policy"] if not plays or plays == row["policy"] else f"{row['policy']} = {plays}"


def compare_table(rows: list[dict], title: str):
    """Players side by side, with the paired difference against the first player."""
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    versus = bool(rows) and "share_of_hindsight" in rows[0]
    for col in ("level", "policy", "games", "mean", "P(>=bronze)", "P(>=silver)", "P(gold)",
                "s/game", "diff vs first [95%]", "W/T/L") + (
            ("share of hindsight", "P(gold | reachable)") if versus else ()):
        table.add_column(col, justify="left" if col == "policy" else "right")
    for r in rows:
        diff = "-" if r.get("diff_mean") is None else (
            f"{r['diff_mean']:+.2f} [{r['diff_lo']:+.2f}, {r['diff_hi']:+.2f}]")
        wtl = "-" if r.get("wins") is None else f"{r['wins']}/{r['ties']}/{r['losses']}"
        table.add_row(
            str(r["level"]), _policy(r), f"{r['games']:,}", f"{r['mean']:.1f}",
            *(pct(r[f"p_{m}"], r[f"p_{m}_lo"], r[f"p_{m}_hi"]) for m in ("bronze", "silver", "gold")),
            f"{r['seconds_per_game']:.2g}", diff, wtl,
            *((f"{r['share_of_hindsight']:.2f} of {r['hindsight_mean']:.1f}",
               pct(r["p_gold_if_reachable"], r["p_gold_if_reachable_lo"], r["p_gold_if_reachable_hi"])
               + f" of {r['gold_reachable']}") if versus else ()),
        )
    return table


def advice_table(advice: dict):
    """``numberup advise``'s table: the actions best first (:func:`numberup.analysis.advise.advice`),
    each candidate with its estimate, its 95% Monte Carlo intervals and how far it falls behind
    the first on the same continuations."""
    from rich.table import Table

    who = advice["player"] if advice["plays"] == advice["player"] else (
        f"{advice['player']} (on level {advice['level']}: {advice['plays']})")
    by = "P(" + advice["objective"] + ")" if advice["objective"] != "mean" else "mean"
    title = f"Level {advice['level']}: actions ranked and estimated by {who}, best first"
    caption = (f"What {advice['plays']} reaches if you play the action, then play on as it would: "
               f"continuations of the game, the cards to come in random orders, the same orders "
               f"for every action (seed {advice['seed']}); ranked by the {by}; ± and [ ]: 95% "
               f"Monte Carlo intervals. 'behind first': the first's result minus this one's on "
               f"the same continuations; close: within noise of the first.")
    table = Table(title=title, title_justify="left", caption=caption, caption_justify="left")
    for col in ("#", "card", "cell (row, col)", "mean", "P(>=bronze)", "P(>=silver)", "P(gold)",
                "games", "behind first [95%]"):
        table.add_column(col, justify="right")
    rest = 0
    unit = "" if advice["objective"] == "mean" else " pts of P"
    for k, a in enumerate(advice["actions"], 1):
        cell = "discard" if a["cell"] is None else f"{a['cell'][0]}, {a['cell'][1]}"
        e = a["estimate"]
        if e is None:
            rest += 1
            continue
        vs = a["vs_first"]
        if vs is None:
            behind = "-"
        else:
            scale = 1 if advice["objective"] == "mean" else 100
            behind = (f"{scale * vs['diff']:+.2f} [{scale * vs['lo']:+.2f}, {scale * vs['hi']:+.2f}]"
                      f"{unit}" + (" close" if vs["close"] else ""))
        table.add_row(str(k), a["card"] + (" *" if a["chosen"] else ""), cell,
                      f"{e['mean']:.1f} ± {e['mean_moe']:.1f}", pct(e["p_bronze"]),
                      pct(e["p_silver"]), pct(e["p_gold"], e["p_gold_lo"], e["p_gold_hi"]),
                      f"{e['n']:,}", behind)
    table.caption += f"\n*: the action {advice['plays']} itself plays (one move deep)."
    if rest:
        from ..analysis.advise import MIN_CONTINUATIONS

        asked, why = advice["asked"], ""
        more = "--candidates all estimates every action; --json lists them all"
        if asked is not None and advice["candidates"] < min(asked, len(advice["actions"])):
            why = (f"; the answer's time pays {MIN_CONTINUATIONS} continuations a round to "
                   f"{advice['candidates']} candidates, not {asked}")
            more = f"--continuations M gives M to each of --candidates; {more}"
        table.caption += (f"\n{rest} more action{'s' if rest > 1 else ''} not estimated: lower by "
                          f"the player's own one-move values{why} ({more}).")
    return table


def players_text(info: list[dict], source: str | None, level: int | None = None):
    """``numberup players``: per player its help, a table of its parameters and one of its
    measured specs (see :func:`numberup.analysis.catalog.catalog`). Yields strings and rich tables."""
    from rich.table import Table

    where = f"level {level}" if level else "mean over the levels run"
    for k, p in enumerate(info):
        yield ("\n" if k else "") + f"{p['spec']}\n  {p['help']}"
        if p["params"]:
            table = Table(title_justify="left", box=None, padding=(0, 2))
            for col in ("parameter", "default", "accepts", "meaning"):
                table.add_column(col, justify="left", overflow="fold")
            for q in p["params"]:
                accepts = "|".join(q["choices"]) if q["choices"] else _accepts(q)
                table.add_row(q["name"], str(q["default"]), accepts, q["help"])
            yield table
        if "plays" in p:
            yield from _plays_text(p["plays"], level)
            continue
        if p["measured"] is None:
            yield "  measured: no summary table (results/summary.csv is not installed; --summary)"
        elif not p["measured"]:
            yield f"  measured: not in {source}" + (f" on level {level}" if level else "")
        else:
            table = Table(title=f"  measured ({source}, {where})", title_justify="left",
                          box=None, padding=(0, 2))
            for col in ("spec", "levels", "games", "s/game", "mean", "P(>=bronze)",
                        "P(>=silver)", "P(gold)"):
                table.add_column(col, justify="left" if col == "spec" else "right")
            for m in p["measured"]:
                table.add_row(m["spec"], _level_list(m["levels"]), f"{m['games']:,}",
                              f"{m['seconds_per_game']:.2g}",
                              "-" if m["mean"] is None else f"{m['mean']:.1f}",
                              *(pct(m[f"p_{x}"]) for x in ("bronze", "silver", "gold")))
            yield table


def _plays_text(plays: list[dict], level: int | None):
    """What ``best`` plays (:func:`numberup.analysis.catalog.plays`)."""
    from rich.table import Table

    if not plays:
        yield "  plays: no best table (results/best.csv is not installed)"
        return
    if level is None:
        title = f"  plays, at the default budget ({plays[0]['budget']:g} s a game), per level"
        first = "level"
    else:
        title = (f"  plays on level {level}: best:budget=S plays the last row whose s/game "
                 "is at most S")
        first = "from budget"
    table = Table(title=title, title_justify="left", box=None, padding=(0, 2))
    for col in (first, "spec", "s/game (1 core)", "games", "mean", "P(>=bronze)",
                "P(>=silver)", "P(gold) [95%]"):
        table.add_column(col, justify="left" if col == "spec" else "right")
    for r in plays:
        table.add_row(str(r["level"]) if level is None else f"{r['budget']:.2g}", r["spec"],
                      f"{r['seconds_per_game']:.2g}", f"{r['games']:,}", f"{r['mean']:.1f}",
                      pct(r["p_bronze"]), pct(r["p_silver"]),
                      pct(r["p_gold"], r["p_gold_lo"], r["p_gold_hi"]))
    yield table
    yield "  (strength: the runs results/best.csv names, on decks of seed 2026; cost: timed on one core)"


def _accepts(q: dict) -> str:
    kind = "whole number" if q["type"] == "integer" else "number"
    lo, hi = q["minimum"], q["maximum"]
    if lo is not None and hi is not None:
        return f"{kind} {lo:g}-{hi:g}"
    if lo is not None:
        return f"{kind} >= {lo:g}"
    return f"{kind} <= {hi:g}" if hi is not None else kind


def _level_list(levels: list[int]) -> str:
    """``[1, 2, 3, 5] -> '1-3,5'``."""
    parts, start = [], None
    for k, x in enumerate(levels):
        if start is None:
            start = x
        if k + 1 == len(levels) or levels[k + 1] != x + 1:
            parts.append(str(start) if start == x else f"{start}-{x}")
            start = None
    return ",".join(parts)
