"""Where a report's games come from: the tables of ``numberup simulate --out DIR`` (``--from``),
or games played now with the same options as ``simulate`` (the plot commands, ``campaign`` and
``calibrate`` share these), and where a plot file goes."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from click.core import ParameterSource

from .common import (LevelsParam, check_out_file, check_out_paths, dask_option, games_option,
                     jobs_option, resume_option, run_runs, seed_option, write_summary)

RUN_ONLY = ("games", "seed", "jobs", "out", "resume", "dask")  # options that only make sense when playing games


def from_option(help_text):
    return click.option("--from", "from_dirs", multiple=True, type=click.Path(file_okay=False),
                        metavar="DIR", help=help_text)


def source_options(f):
    """Where the games come from: --from DIR, or --policy/--level/--games/--seed to play them."""
    for opt in reversed([
        from_option("Read games.parquet and summary.csv written by 'numberup simulate --out "
                     "DIR' (repeatable). Without it, the games are played."),
        click.option("--level", "-l", "levels", type=LevelsParam(), default=None,
                     help="Level (list 1,3,5-7 or 'all' for medals): the games to play, or "
                          "with --from the level(s) to plot."),
        click.option("--policy", "-p", "policies", multiple=True, metavar="SPEC",
                     help="Player spec, repeatable (e.g. -p greedy -p random): the players to "
                          "play, or with --from the players to plot (default: all)."),
        games_option("Games per level and player, when playing."),
        seed_option("Master seed, when playing: game i is dealt from (seed, i) alone."),
        jobs_option("Threads, when playing; results do not depend on it."),
        click.option("--out", "-o", type=click.Path(file_okay=False), default=None,
                     help="When playing: write games.parquet and summary.csv here (and the "
                          "plot, unless --output)."),
        resume_option(),
        click.option("--progress/--no-progress", default=None,
                     help="Progress bar on stderr when playing [default: when stderr is a "
                          "terminal]."),
        dask_option(),
    ]):
        f = opt(f)
    return f


def canonical(spec: str) -> str:
    """A player spec in its canonical form when this build knows the player, else as given
    (tables may come from players this build does not have)."""
    from numberup.errors import InputError
    from numberup.players.registry import parse_player

    try:
        return parse_player(spec).spec
    except InputError:
        return spec.strip()


def output_path(output, fmt):
    """Check --output and --format before any game is played; returns (path or None, format)."""
    if output is None:
        return None, fmt or "png"
    if not output.strip():
        raise click.BadParameter("an empty path", param_hint="--output")
    path = Path(output)
    suffix = path.suffix[1:].lower()
    if suffix in ("png", "svg"):
        if fmt and fmt != suffix:
            raise click.BadParameter(f"{output} is not a .{fmt} file (--format {fmt})",
                                     param_hint="--output")
        fmt = suffix
    elif suffix:
        raise click.BadParameter(f"{output}: plots are .png or .svg files", param_hint="--output")
    else:
        fmt = fmt or "png"
        path = path.with_name(f"{path.name}.{fmt}")
    return check_out_file(path, "--output"), fmt


def tables(from_dirs, levels, policies, games, seed, jobs, out, progress, *, need: str,
            resume=False, dask=None):
    """The tables to report on: read from --from, or played now. Returns (Runs, players to
    show or None for all, the directory for a default output file)."""
    ctx = click.get_current_context()
    if from_dirs:
        for name in RUN_ONLY:
            if ctx.get_parameter_source(name) not in (ParameterSource.DEFAULT, None):
                raise click.UsageError(f"--{name} is for playing games; it cannot be combined "
                                       f"with --from (the games are read from the tables)")
        from numberup.runs.tables import read_runs

        try:
            runs = read_runs(from_dirs)
        except ValueError as err:
            raise click.BadParameter(str(err), param_hint="--from") from None
        if getattr(runs, need) is None:
            file = "games.parquet" if need == "games" else "summary.csv"
            raise click.BadParameter(f"no {file} in {', '.join(from_dirs)} (this report needs "
                                     f"it: numberup simulate --out DIR writes it)",
                                     param_hint="--from")
        chosen = list(dict.fromkeys(canonical(p) for p in policies)) or None
        return runs, chosen, Path(from_dirs[0])
    if not policies:
        raise click.UsageError("give --from DIR (the tables of 'numberup simulate --out DIR') "
                               "or --policy SPEC (and --level) to play the games")
    if not levels:
        raise click.UsageError("--level is needed to play games")
    from numberup.players.registry import parse_player
    from numberup.runs.tables import runs_from_results

    players = list({p.spec: p for p in map(parse_player, policies)}.values())
    out = check_out_paths(out, None)
    if progress is None:
        progress = sys.stderr.isatty()
    results, interrupted = run_runs(levels, players, games, seed, jobs, None, 0, out, None,
                                    progress, dask, resume)
    runs = runs_from_results(results)
    write_summary(out, runs.summary)
    if interrupted:
        click.echo(f"interrupted: kept {sum(r.games for r in results):,} finished games", err=True)
    return runs, [p.spec for p in players], out if out is not None else Path(".")
