"""Report commands: plots of game results, and the tables every report reads.

Each command parses its options, reads the tables of ``numberup simulate --out DIR`` (``--from``)
or plays the games itself (through :func:`numberup_cli.commands.run_runs`, writing the same
tables: :func:`numberup_cli.sources.tables`), and calls :mod:`numberup.reports.plots`. The campaign's odds, a report on the
same tables, are :mod:`numberup_cli.campaign`. pandas, matplotlib and numba are imported inside
the commands.
"""

from __future__ import annotations

from pathlib import Path

import click
from click.core import ParameterSource

from .common import TextFile, echo_json
from .group import cli
from .sources import RUN_ONLY, canonical, output_path, source_options, tables

def _plot_options(f):
    for opt in reversed([
        click.option("--output", "-O", type=click.Path(dir_okay=False), default=None,
                     help="The plot file (.png or .svg) [default: KIND[-levelN].FORMAT in "
                          "--out, else in the first --from DIR, else here]."),
        click.option("--format", "fmt", type=click.Choice(["png", "svg"]), default=None,
                     help="png or svg [default: from --output's suffix, else png]."),
        click.option("--title", default=None, help="Title instead of the default one."),
        click.option("--json", "as_json", is_flag=True,
                     help="Print the plotted data as JSON (and still write the plot)."),
    ]):
        f = opt(f)
    return f


def _one_level(levels, frame):
    """The level of a one-level plot: --level, or the only level of the tables."""
    if levels:
        return levels[0]
    have = sorted(set(int(x) for x in frame["level"]))
    if len(have) == 1:
        return have[0]
    raise click.UsageError(f"the tables hold levels {', '.join(map(str, have))}: choose one "
                           f"with --level")


def _finish(plot, path, fmt, default_dir, stem, as_json):
    path = path or Path(default_dir) / f"{stem}.{fmt}"
    new = not path.exists()
    try:
        plot.save(path, fmt)
    except OSError as err:
        if new and path.is_file():  # not half a plot (and never a device such as /dev/full)
            path.unlink()
        raise click.ClickException(f"cannot write {path}: {err.strerror or err}") from None
    if as_json:
        echo_json({**plot.to_dict(), "file": str(path), "format": fmt})
    else:
        click.echo(f"wrote {path}")


def _library_call(fn, *args, **kw):
    """A plot function's ValueError (a level or player not in the tables) as a usage error."""
    try:
        return fn(*args, **kw)
    except ValueError as err:
        raise click.UsageError(str(err)) from None


@cli.group()
def plot():
    """Plots of game results: a level's score distribution, medal odds per level, and the
    budget curve of search players.

    \b
    Every kind reads the tables of 'numberup simulate --out DIR' (--from DIR, repeatable),
    or plays the games itself (--level, --policy, --games, --seed; --out DIR keeps the
    tables) and then plots them. Colours are colour-blind safe (Okabe-Ito); --json prints
    the numbers drawn.

    \b
    Examples:
      numberup plot dist --level 14 -p greedy -p random --games 2000 --out runs/l14
      numberup plot medals --from runs/greedy --from runs/random --output medals.svg
      numberup plot budget --from runs/l14-rollout
    """


@plot.command()
@source_options
@click.option("--style", type=click.Choice(["hist", "ecdf"]), default="hist", show_default=True,
              help="hist: share of games per bin; ecdf: P(result <= x).")
@click.option("--bin-width", type=click.IntRange(1, 10_000), default=None,
              help="Histogram bin width in points, 1-10000 (no level's results span more) "
                   "[default: at most 60 bins].")
@_plot_options
def dist(from_dirs, levels, policies, games, seed, jobs, out, resume, progress, dask, style,
         bin_width, output, fmt, title, as_json):
    """Score distribution of one level, one curve per player.

    Vertical lines mark the Bronze, Silver and Gold thresholds; the legend gives each player's
    P(>=bronze), P(>=silver) and P(gold). --json prints the bins (or ECDF steps) drawn.

    \b
    Examples:
      numberup plot dist --level 14 --policy greedy --policy random --games 2000
      numberup plot dist --from runs/greedy --level 3 --style ecdf --output l3.svg
    """
    if levels and len(levels) != 1:
        raise click.BadParameter("a distribution plot shows one level", param_hint="--level")
    path, fmt = output_path(output, fmt)
    runs, chosen, where = tables(from_dirs, levels, policies, games, seed, jobs, out, progress,
                                  need="games", resume=resume, dask=dask)
    from numberup.reports.plots import dist_plot

    level = _one_level(levels, runs.games)
    fig = _library_call(dist_plot, runs.games, level, policies=chosen, style=style,
                        bin_width=bin_width, title=title)
    _finish(fig, path, fmt, where, f"dist-level{level}", as_json)


@plot.command()
@source_options
@click.option("--style", type=click.Choice(["panels", "stacked"]), default="panels",
              show_default=True,
              help="panels: a panel per medal, bars per player with 95% intervals; stacked: "
                   "one bar per level and player, gold, silver, bronze stacked.")
@_plot_options
def medals(from_dirs, levels, policies, games, seed, jobs, out, resume, progress, dask, style,
           output, fmt, title, as_json):
    """Medal odds of every level present, per player: P(>=bronze), P(>=silver), P(gold).

    The bars are the summary table's p_bronze, p_silver and p_gold (with their 95% Wilson
    intervals in the panels style); --json prints them.

    \b
    Examples:
      numberup plot medals --level all --policy greedy --policy random --games 1000
      numberup plot medals --from runs/greedy --from runs/random --style stacked
    """
    path, fmt = output_path(output, fmt)
    runs, chosen, where = tables(from_dirs, levels, policies, games, seed, jobs, out, progress,
                                  need="summary", resume=resume, dask=dask)
    from numberup.reports.plots import medals_plot

    fig = _library_call(medals_plot, runs.summary, policies=chosen, levels=levels, style=style,
                        title=title)
    _finish(fig, path, fmt, where, "medals", as_json)


@plot.command()
@source_options
@click.option("--summary", "summary_file", type=TextFile(), default=None, metavar="CSV",
              help="Read a summary table instead (e.g. results/summary.csv, or the "
                   "summary.csv of 'numberup simulate --out DIR').")
@_plot_options
def budget(from_dirs, levels, policies, games, seed, jobs, out, resume, progress, dask,
           summary_file, output, fmt, title, as_json):
    """Mean result and P(gold) against seconds per game (log axis), every player of one level.

    Every player is a point of its own, named in the legend by its spec (a colour per family,
    a marker per member); players that differ only in numeric parameters (a budget: e.g.
    rollout:n=50, rollout:n=200, rollout:n=800) are joined in order of cost. Seconds per game
    are wall time with the run's threads: compare runs made with the same --jobs on one
    machine.

    \b
    Examples:
      numberup plot budget --summary results/summary.csv --level 17 --output budget-17.png
      numberup plot budget --level 14 -p greedy -p rollout:n=50 -p rollout:n=200 --games 500
      numberup plot budget --from runs/l14-budget --output budget.svg
    """
    if levels and len(levels) != 1:
        raise click.BadParameter("a budget plot shows one level", param_hint="--level")
    path, fmt = output_path(output, fmt)
    if summary_file is not None:
        summary, chosen, where = _summary_table(summary_file, from_dirs, policies)
    else:
        runs, chosen, where = tables(from_dirs, levels, policies, games, seed, jobs, out,
                                      progress, need="summary", resume=resume, dask=dask)
        summary = runs.summary
    from numberup.reports.budget import budget_plot

    level = _one_level(levels, summary)
    fig = _library_call(budget_plot, summary, level, policies=chosen, title=title)
    _finish(fig, path, fmt, where, f"budget-level{level}", as_json)


def _summary_table(summary_file, from_dirs, policies):
    """--summary CSV: the table (checked for the columns a plot needs), the players to show
    (None: all) and the directory for a default output file."""
    import io

    import pandas as pd

    from numberup.errors import InputError
    from numberup.analysis.catalog import read_summary

    ctx = click.get_current_context()
    for name in RUN_ONLY + ("from_dirs",):
        if ctx.get_parameter_source(name) not in (ParameterSource.DEFAULT, None):
            flag = "--from" if name == "from_dirs" else f"--{name}"
            raise click.UsageError(f"{flag} cannot be combined with --summary (the figures "
                                   f"are read from the table)")
    text = summary_file.read()
    read_summary(text, summary_file.name)  # the needed columns and numbers, or one line
    try:
        table = pd.read_csv(io.StringIO(text))
    except (ValueError, pd.errors.ParserError) as err:
        raise InputError(f"{summary_file.name}: not a readable table ({err})") from None
    chosen = list(dict.fromkeys(canonical(p) for p in policies)) or None
    where = Path(summary_file.name).parent if summary_file.name != "-" else Path(".")
    return table, chosen, where
