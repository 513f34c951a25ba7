"""Commands on run directories (``--out DIR``): merge the pieces of a split run."""

from __future__ import annotations

import click

from .common import SUMMARY_KEYS, echo_json, print_rich, write_summary
from .group import cli


@cli.command()
@click.argument("runs", nargs=-1, required=True, type=click.Path(file_okay=False), metavar="DIR...")
@click.option("--out", "-o", type=click.Path(file_okay=False), required=True,
              help="The merged run directory (new, or without a run in it).")
@click.option("--log", type=click.Path(dir_okay=False), default=None,
              help="Also write every game (deck and moves) as JSON Lines to this file (the "
                   "runs must have been played with --log).")
@click.option("--json", "as_json", is_flag=True, help="Print the merged summary as JSON.")
def merge(runs, out, log, as_json):
    """Combine runs split by --first, or played on several machines, into one run directory.

    Each DIR was written by 'numberup simulate|compare --out DIR' with the same --seed,
    --level and --policy, by the same numberup build; together they must not hold any game
    twice. The merged directory holds every game's part, games.parquet in game order and
    summary.csv (seconds: the sum of the runs'), as if one run had played them; 'numberup
    simulate --resume --out MERGED' with the merged --first and --games fills any gap.

    \b
    Example (two machines, then one table):
      numberup simulate --level 14 --games 5000 --out a                 # machine 1
      numberup simulate --level 14 --games 5000 --first 5000 --out b    # machine 2
      numberup merge a b --out all
    """
    import shutil
    from pathlib import Path

    import pandas as pd

    from numberup.runs.rundir import MANIFEST, Manifest, merge_dirs, summed_seconds
    from numberup.runs.simulate import compare_rows, results_from_run_dir, summary_frame
    from numberup.runs.sinks import finish_run_dir

    for src in runs:
        if not Path(src).is_dir():
            raise click.BadParameter(f"{src} is not a directory", param_hint="DIR")
    if Path(out).exists() and not Path(out).is_dir():
        raise click.BadParameter(f"{out} exists and is not a directory", param_hint="--out")
    if log is not None:
        if not Path(log).resolve().parent.is_dir():
            raise click.BadParameter(f"directory {Path(log).resolve().parent} does not exist",
                                     param_hint="--log")
        for src in runs:
            if (Path(src) / MANIFEST).exists() and not Manifest.read(Path(src) / MANIFEST).moves:
                raise click.BadParameter(f"{src} was played without --log: the moves of its "
                                         f"games were not kept", param_hint="--log")
    seconds = summed_seconds(runs)
    existed = Path(out).exists()
    merged = merge_dirs(runs, out)
    try:
        finish_run_dir(merged, log)
    except BaseException:  # nothing half-written: the merged directory goes
        merged.close()
        if existed:
            shutil.rmtree(merged.parts, ignore_errors=True)
            for name in (MANIFEST, ".lock"):
                (Path(out) / name).unlink(missing_ok=True)
        else:
            shutil.rmtree(out, ignore_errors=True)
        raise
    merged.close()
    results = results_from_run_dir(merged, seconds)
    if len(merged.manifest.players) == 1:  # as simulate writes it
        frame = summary_frame(results)
    else:  # as compare writes it
        frame = pd.DataFrame(compare_rows(results))
    write_summary(Path(out), frame)
    rows = frame.to_dict("records")
    if as_json:
        echo_json([{k: row.get(k) for k in SUMMARY_KEYS} for row in rows])
    else:
        from numberup.reports.text import summary_table

        click.echo(f"merged {len(runs)} runs: {sum(r.games for r in results):,} games into {out}")
        print_rich(summary_table(rows, title=f"numberup merge (seed {merged.manifest.seed})"))
