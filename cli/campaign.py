"""The campaign command: the odds of the whole Challenge Booklet, from simulated games.

It reads the tables of ``numberup simulate --out DIR`` (``--from``) or plays the games itself,
as the plot commands do (:func:`numberup_cli.sources.tables`), and calls
:mod:`numberup.analysis.campaign`. The library is imported inside the command, so that
``numberup --help`` loads neither numpy nor numba.
"""

from __future__ import annotations

import click

from .common import (dask_option, echo_json, games_option, jobs_option, print_rich,
                     resume_option, seed_option)
from .group import cli
from .sources import from_option, tables


@cli.command()
@click.option("--policy", "-p", default=None, metavar="SPEC",
              help="Player spec [default: best]; with --from, which player of the tables "
                   "(needed when they hold several).")
@games_option("Games per level, when playing.")
@click.option("--attempts", "-k", type=click.IntRange(1), default=3, show_default=True,
              help="Attempts at every level; its best result counts for the chapter.")
@seed_option("Master seed, when playing: game i is dealt from (seed, i) alone.")
@jobs_option("Threads, when playing; results do not depend on it.")
@click.option("--out", "-o", type=click.Path(file_okay=False), default=None,
              help="When playing: the run directory (games.parquet, summary.csv, the chunks).")
@resume_option()
@dask_option()
@from_option("Read the games from games.parquet written by 'numberup simulate --out DIR' "
              "(repeatable) instead of playing them.")
@click.option("--json", "as_json", is_flag=True, help="Print the odds as JSON.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr when playing [default: when stderr is a terminal].")
def campaign(policy, games, attempts, seed, jobs, out, resume, dask, from_dirs, as_json,
             progress):
    """Odds of the whole Challenge Booklet: every level, chapter and the booklet.

    Per level: the medal odds of one game and the expected games until the first Gold
    (1/P(gold); 'never' when no sampled game reached Gold). Per chapter: the odds that its
    result - the sum of each of its 5 levels' best result of K attempts - reaches the
    chapter's Bronze, Silver and Gold. Exact on the sampled games: the best of K has
    P(best <= x) = F(x)^K (F the empirical CDF), the chapter total is the convolution of its
    levels. Lost games (result <= 0) are not entered: a level lost K times adds 0. Booklet:
    every chapter at or above the medal (the product over the 4 chapters).

    \b
    JSON: {"policy", "seed", "games", "attempts", "levels": [{"level", "games", "p_bronze",
    "p_silver", "p_gold", "expected_attempts_gold" (null: never), "p_gold_in_attempts",
    "mean_best"}], "chapters": [{"chapter", "name", "levels", "thresholds", "p_bronze",
    "p_silver", "p_gold", "mean_total"}], "booklet": {"p_bronze", "p_silver", "p_gold"}}.

    \b
    Examples:
      numberup campaign --games 2000 --attempts 3
      numberup campaign --from runs/greedy --attempts 1 --json
    """
    from numberup.analysis.campaign import campaign as campaign_odds
    from numberup.analysis.campaign import level_samples
    from numberup.reports.campaign import campaign_tables
    from numberup.reports.style import json_ready

    if from_dirs:
        runs, chosen, _ = tables(from_dirs, None, [policy] if policy else [], games, seed, jobs,
                                  out, progress, need="games", resume=resume, dask=dask)
        present = list(dict.fromkeys(runs.games["policy"]))
        if chosen:
            name = chosen[0]
            if name not in present:
                raise click.BadParameter(f"no games of {name!r} in the tables (they hold "
                                         f"{', '.join(present)})", param_hint="--policy")
        elif len(present) == 1:
            name = present[0]
        else:
            raise click.UsageError(f"the tables hold players {', '.join(present)}: choose one "
                                   f"with --policy")
        samples = level_samples(runs.games, name)
        seeds = set()
        if runs.summary is not None:
            seeds = set(runs.summary.loc[runs.summary["policy"] == name, "seed"].astype(int))
        seed = seeds.pop() if len(seeds) == 1 else None
    else:
        runs, chosen, _ = tables((), list(range(1, 21)), [policy or "best"], games, seed, jobs,
                                  out, progress, need="games", resume=resume, dask=dask)
        name = chosen[0]
        samples = level_samples(runs.games, name)
    result = campaign_odds(samples, attempts)
    if as_json:
        echo_json(json_ready({"policy": name, "seed": seed, **result}))
    else:
        for part in campaign_tables(result, name, seed):
            print_rich(part) if not isinstance(part, str) else click.echo(part)
