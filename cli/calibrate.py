"""``numberup calibrate``: are advise's estimates calibrated? (numberup.analysis.calibrate)"""

from __future__ import annotations

import sys

import click

from .common import (QUICK_BEST, LevelsParam, TextFile, check_out_file, echo_json, games_option,
                     jobs_option, print_rich, progress_bar, seed_option)
from .group import cli


@cli.command()
@click.option("--level", "-l", "levels", type=LevelsParam(), default=None,
              help="Level(s): 14, a list 3,14,17 or 'all' (with --from: the levels to keep).")
@click.option("--for", "for_player", default=QUICK_BEST, show_default=True, metavar="SPEC",
              help="The player that plays the games and whose continuations give the "
                   "estimates (as advise's --policy).")
@games_option("Games per level (one decision drawn from each by default).")
@seed_option("Master seed: game i is dealt from (seed, i) alone, as in simulate.")
@click.option("--continuations", "-m", type=click.IntRange(1, 100_000), default=200,
              show_default=True, help="Continuations per prediction (as advise's).")
@click.option("--decisions", "-d", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Decisions drawn from each game (after the setup); more than 1 makes the "
                   "predictions of a game share its outcome, so the intervals read narrow.")
@click.option("--bins", type=click.IntRange(2, 50), default=10, show_default=True,
              help="Bins of predicted P(gold).")
@jobs_option("Threads; the results do not depend on it.")
@click.option("--out", "-o", type=click.Path(dir_okay=False), default=None, metavar="CSV",
              help="Write the table (per level and bin) here.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None,
              metavar="PNG|SVG", help="Write the reliability plot here.")
@click.option("--predictions", "pred_path", type=click.Path(dir_okay=False), default=None,
              metavar="CSV", help="Write every prediction here (one row per decision drawn).")
@click.option("--from", "from_files", multiple=True, type=TextFile(), metavar="CSV",
              help="Bin and plot the predictions written by --predictions (repeatable) "
                   "instead of playing games.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr [default: when stderr is a terminal].")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
def calibrate(levels, for_player, games, seed, continuations, decisions, bins, jobs, out,
              plot_path, pred_path, from_files, progress, as_json):
    """Are advise's estimates calibrated? Predicted P(gold) against what then happened.

    The player of --for plays --games seeded games per level (the deals of 'numberup
    simulate' with the same seed). In each game --decisions decisions after the setup are
    drawn at random (seeded); at each, the move the player made is estimated as advise
    estimates an action: --continuations games played on from there by the same player, the
    cards to come in random orders. The rest of the real game is played by that player too,
    so a calibrated estimate predicts it: of the moves predicted at 70%, about 70% should end
    in Gold.

    The table gives per level and bin of predicted P(gold) the number of predictions, their
    mean, the observed rate of Gold with its 95% Wilson interval and observed - predicted with
    its 95% interval (from each decision's gold - prediction); the row 'all' is calibration in
    the large. --plot draws the reliability plot; --from bins predictions saved before.

    \b
    Example:
      numberup calibrate --level 3,14,17 --games 1000 --seed 2026 \\
          --out calibration.csv --plot reliability.png
    """
    from numberup.players.registry import parse_player
    from numberup.runs.simulate import set_jobs

    if not levels and not from_files:
        raise click.UsageError("give --level (the levels to play) or --from (predictions)")
    player = parse_player(for_player)
    out = check_out_file(out, "--out")
    pred_path = check_out_file(pred_path, "--predictions")
    if plot_path is not None:
        from .sources import output_path

        plot_path, fmt = output_path(plot_path, None)
    threads = set_jobs(jobs)
    if from_files:
        pred = _read_predictions(from_files, levels)
    else:
        pred = _play(levels, player, games, seed, continuations, decisions, threads, progress)
    from numberup.analysis.calibrate import reliability

    table = reliability(pred, bins)
    if pred_path is not None:
        pred.to_csv(pred_path, index=False, float_format="%.6g")
    if out is not None:
        table.to_csv(out, index=False, float_format="%.6g")
    if plot_path is not None:
        from numberup.reports.calibration import reliability_plot

        reliability_plot(table).save(plot_path, fmt)
    if as_json:
        echo_json(table.to_dict("records"))
        return
    from numberup.reports.text import pct
    from rich.table import Table

    runs = ", ".join(dict.fromkeys(f"{r.policy}, seed {r.seed}, {r.continuations} "
                                   f"continuations per prediction" for r in table.itertuples()))
    t = Table(title=f"numberup calibrate: predicted P(gold) of the move played against Gold "
                    f"({runs})", title_justify="left")
    for col in ("level", "bin", "predictions", "mean predicted", "observed [95%]",
                "observed - predicted [95%]"):
        t.add_column(col, justify="right")
    for r in table.itertuples():
        where = "all" if r.bin == "all" else f"{100 * r.bin_lo:.0f}-{100 * r.bin_hi:.0f}%"
        t.add_row(str(r.level), where, f"{r.predictions:,}", pct(r.mean_predicted),
                  pct(r.observed, r.observed_lo, r.observed_hi),
                  f"{100 * r.difference:+.1f} [{100 * r.difference_lo:+.1f}, "
                  f"{100 * r.difference_hi:+.1f}]")
    print_rich(t)


def _play(levels, player, games, seed, continuations, decisions, threads, progress):
    """The predictions of games played now, level after level, with a progress bar."""
    import pandas as pd

    from numberup.analysis.calibrate import predictions
    from numberup.learned.modelfile import model_for
    from numberup.game.levels import get_level

    for level in levels:  # a missing model fails before any game is played
        model_for(get_level(level), player)
    if progress is None:
        progress = sys.stderr.isatty()
    parts = []
    with progress_bar(progress) as bar:
        for level in levels:
            task = bar.add_task(f"level {level}", total=games) if bar else None
            step = (lambda n, t=task: bar.advance(t, n)) if bar else None
            parts.append(predictions(level, player, games, seed, continuations=continuations,
                                     decisions=decisions, jobs=threads, progress=step))
    return pd.concat(parts, ignore_index=True)


def _read_predictions(files, levels):
    """The predictions of --from files (--predictions' format), of ``levels`` (None: all)."""
    import io

    import pandas as pd

    from numberup.analysis.calibrate import PREDICTION_COLUMNS
    from numberup.errors import InputError

    parts = []
    for f in files:
        try:
            frame = pd.read_csv(io.StringIO(f.read()))
        except (ValueError, pd.errors.ParserError) as err:
            raise InputError(f"{f.name}: not a table of predictions ({err})") from None
        missing = [c for c in PREDICTION_COLUMNS if c not in frame.columns]
        if missing:
            raise InputError(f"{f.name}: not a table of predictions (no column "
                             f"{', '.join(missing)}; calibrate --predictions writes one)")
        parts.append(frame)
    pred = pd.concat(parts, ignore_index=True)
    if levels:
        pred = pred[pred["level"].isin(levels)].reset_index(drop=True)
        if pred.empty:
            raise InputError(f"no predictions of level {', '.join(map(str, levels))} in "
                             f"{', '.join(f.name for f in files)}")
    return pred
