"""The train command: the learned evaluation of afterstates per level, by self-play
(:mod:`numberup.training.train`, :mod:`numberup.learned.value`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .common import MAX_SEED, LevelsParam, check_out_file, echo_json, jobs_option, progress_bar
from .group import cli

MAX_TRAIN_GAMES = 10**8


@cli.command()
@click.option("--level", "-l", "levels", type=LevelsParam(), required=True,
              help="Level number, list (1,3,5-7) or 'all'.")
@click.option("--games", "-n", type=click.IntRange(1, MAX_TRAIN_GAMES), default=None,
              help="Self-play games per level [default: 30,000].")
@click.option("--seed", "-s", type=click.IntRange(0, MAX_SEED), default=None,
              help="Master seed of the training games [default: 7]; judge a model on decks of "
                   "another seed.")
@click.option("--tune-games", "tune", type=click.IntRange(1, MAX_TRAIN_GAMES), default=None,
              help="Games per scale when the model's scale is chosen, on the decks after the "
                   "training games [default: 300].")
@click.option("--distil-games", "distil", type=click.IntRange(0, MAX_TRAIN_GAMES), default=None,
              help="Games of distillation from the look at the next card after the training "
                   "[default: 8,000 on level 2, 0 elsewhere; 0: none].")
@jobs_option("Levels trained at once (each on one thread); the models do not depend on it.")
@click.option("--out", "-o", type=click.Path(dir_okay=False), default=None,
              help="Model file (one level only) [default: the package's "
                   "numberup/learned/models/level-NN.npz, which the learned player reads].")
@click.option("--json", "as_json", is_flag=True, help="Print what was trained as JSON.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr [default: when stderr is a terminal].")
def train(levels, games, seed, tune, distil, jobs, out, as_json, progress):
    """Learn the value of afterstates by self-play, for the learned player.

    The learned player plays seeded games with its weights as they stand; after each game
    every line's prediction at every move is moved toward what the line finally added (its
    features: the line's values, colours and order, the phase, the cards still to come; on
    levels scored by the lowest line, the chance that the line reaches each value). Then the
    player plays the next --tune-games decks of the seed with the learned correction scaled by 0,
    0.1, ..., 1, and the model keeps the scale with the best mean (the whole correction
    overshoots). On level 2 the player's look at the next card is then distilled into the
    weights (--distil-games): where the one-move choice differs from the look's, the weights
    step toward the look's afterstate. The same seed gives the same model bytes whatever
    --jobs (it trains several levels at once).

    \b
    Examples:
      numberup train --level 14
      numberup train --level all --games 30000 --seed 7 --jobs 2
    """
    from concurrent.futures import ThreadPoolExecutor

    from numberup.training import train as T
    from numberup.training.distil import games_for
    from numberup.learned.modelfile import model_path, save_model
    from numberup.runs.simulate import set_jobs

    jobs = set_jobs(jobs)
    games = games or T.DEFAULT_GAMES
    tune = tune or T.TUNE_GAMES
    seed = T.DEFAULT_SEED if seed is None else seed
    if out is not None and len(levels) != 1:
        raise click.UsageError("--out names one model file: give one --level")
    paths = {level: Path(out) if out else model_path(level) for level in levels}
    check_out_file(out, "--out")  # before any game is played
    if progress is None:
        progress = sys.stderr.isatty()
    with progress_bar(progress) as bar:
        distils = {level: games_for(level) if distil is None else distil for level in levels}
        tasks = {level: bar.add_task(f"level {level}",
                                     total=T.games_played(games, tune, distils[level]))
                 if bar else None for level in levels}

        def one(level):
            task = tasks[level]
            weights, facts = T.train_level(level, games, seed,
                                           (lambda n: bar.advance(task, n)) if bar else None,
                                           tune=tune, distil_games=distils[level])
            save_model(paths[level], weights, level, seed, games, facts["scale"])
            facts["out"] = _shown(paths[level])
            return facts

        with ThreadPoolExecutor(min(jobs, len(levels))) as pool:
            # the costliest levels first (6x6, a hand of five), so that no thread waits long
            # for the last one; the lines are printed in level order
            futures = {level: pool.submit(one, level) for level in sorted(levels, key=T.cost,
                                                                         reverse=True)}
            done = []
            for level in levels:
                facts = futures[level].result()
                done.append(facts)
                if not as_json:
                    click.echo(f"level {facts['level']}: {games:,} games in {facts['seconds']:.0f} s; "
                               f"squared error of the line predictions, first -> last tenth of "
                               f"the games: {facts['error_first']:.1f} -> {facts['error_last']:.1f}; "
                               f"scale {facts['tuned_scale']:.1f} (mean {_means(facts['tuning'])} "
                               f"on the {tune:,} games after them){_distilled(facts)}; "
                               f"wrote {facts['out']}")
    if as_json:
        echo_json(done)


def _distilled(facts: dict) -> str:
    """The distillation's part of a level's line: games, and how often the look chose
    otherwise than one move deep, in the first and the last chunk of games."""
    if "distil" not in facts:
        return ""
    d = facts["distil"]
    share = [100.0 * differ / max(decisions, 1) for decisions, differ in (d["chunks"][0],
                                                                          d["chunks"][-1])]
    return (f"; then distilled the look on {d['games']:,} games (it chose otherwise at "
            f"{share[0]:.1f}% -> {share[1]:.1f}% of the decisions), scale 1")


def _means(tuning: dict) -> str:
    """Each scale's mean in the tuning games, in one short run of text."""
    return ", ".join(f"{scale:g}: {mean:.1f}" for scale, mean in tuning.items())


def _shown(path: Path) -> str:
    """``path`` as the output names it: relative to the working directory when inside it (the
    package's own models read ``numberup/learned/models/level-NN.npz`` from the repository's root)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
