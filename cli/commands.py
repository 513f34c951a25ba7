"""The commands. Each parses its options and calls the library; no game logic lives here."""

from __future__ import annotations

import json
import sys

import click

from .main import cli

LEVEL_RANGE = click.IntRange(1, 20)


def _echo_json(data) -> None:
    click.echo(json.dumps(data, indent=2))


def _print_rich(renderable) -> None:
    from rich.console import Console

    Console(soft_wrap=False, width=200 if not sys.stdout.isatty() else None).print(renderable)


@cli.command()
@click.option("--level", "-l", type=LEVEL_RANGE, help="Show one level in full (1-20).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def levels(level, as_json):
    """The 20 levels: deck, grid, line rule, targets, medals and rulings.

    Without --level, one table row per level; with --level N, the full rule of level N with
    the rulings this project applies where the rulebook is silent.
    """
    from numberup.levels import LEVELS, get_level
    from numberup.report import level_dict, level_text, levels_table

    chosen = [get_level(level)] if level else list(LEVELS)
    if as_json:
        _echo_json([level_dict(lv) for lv in chosen] if not level else level_dict(chosen[0]))
    elif level:
        click.echo(level_text(level))
    else:
        _print_rich(levels_table(chosen))


@cli.command()
@click.option("--level", "-l", type=LEVEL_RANGE, required=True, help="The level (1-20).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list, one object per grid.")
@click.argument("files", nargs=-1, required=True, type=click.File("r"))
def score(level, as_json, files):
    """Score finished grids of a level.

    Each FILE ('-' for stdin) holds one or more grids separated by blank lines: one grid row
    per text line, cards like 3g, '.' for an empty cell, '#' starts a comment. Prints each
    line's points, markers (checkmarkers, chip or minus marker) and value, then the total and
    the medal. All input is read and checked before anything is printed.

    \b
    --json prints [{"level", "total", "medal", "lines": [{"kind": "row"|"col"|"diag",
    "index", "points" (null: no street / no triplet), "markers" (-1 minus, 0 chip,
    N checkmarkers), "value"}]}, ...] in input order.
    """
    from numberup.cards import InputError, parse_grid, split_grids
    from numberup.scoring import score as score_grid

    grids = []
    for f in files:
        name = "<stdin>" if f.name == "<stdin>" else f.name
        text = f.read()
        blocks = list(split_grids(text))
        if not blocks:
            raise InputError(f"{name}: no grid found")
        for lineno, block in blocks:
            grids.append((f"{name}, line {lineno}", parse_grid(block, level, source=name, first_line=lineno)))
    results = [(src, score_grid(level, g)) for src, g in grids]
    if as_json:
        _echo_json([r.to_dict() for _, r in results])
    else:
        from numberup.report import score_text

        click.echo("\n\n".join(score_text(r, src) for src, r in results))
