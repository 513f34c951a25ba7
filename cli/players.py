"""``numberup players``: the player specs, their parameters, and what each costs and reaches."""

from __future__ import annotations

import click

from .common import LEVEL_RANGE, TextFile, echo_json, print_rich
from .group import cli


@cli.command()
@click.argument("name", required=False)
@click.option("--level", "-l", type=LEVEL_RANGE, default=None,
              help="Show the measured figures of this level only [default: over all levels].")
@click.option("--summary", "summary", type=TextFile(), default=None, metavar="CSV",
              help="A summary.csv written by 'numberup simulate/compare --out DIR' [default: "
                   "the committed results/summary.csv].")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def players(name, level, summary, as_json):
    """The players: each spec, its parameters (default, range, meaning), and what it costs
    and reaches.

    A player is given as NAME or NAME:key=value,... (e.g. expectimax:depth=2,k=32 or
    rollout:n=800,base=random) to --policy of simulate, compare, advise, plot and campaign.
    The measured figures come from a summary table: seconds per game (the median over the
    levels run; wall time of the machine and --jobs that made the table), and P(>=bronze),
    P(>=silver) and P(gold) averaged over those levels; with --level, that level's figures
    and its mean result.

    \b
    JSON: [{"name", "help", "spec", "params": [{"name", "default", "type", "minimum",
    "maximum", "choices", "help"}], "measured": [{"spec", "levels", "games",
    "seconds_per_game", "mean", "p_bronze", "p_silver", "p_gold"}] (null: no table)}].

    \b
    Examples:
      numberup players
      numberup players rollout --level 14
      numberup players --summary runs/l14/summary.csv --json
    """
    from numberup.analysis.catalog import SUMMARY_NAME, catalog, measured_rows, read_summary

    if summary is not None:
        source = summary.name
        rows = read_summary(summary.read(), source)
    else:  # the package's copy of results/summary.csv (None: a copy without it)
        rows = measured_rows()
        source = SUMMARY_NAME if rows is not None else None
    info = catalog(rows, name, level)
    if as_json:
        echo_json(info)
        return
    from numberup.reports.text import players_text

    for part in players_text(info, source, level):
        print_rich(part) if not isinstance(part, str) else click.echo(part)
