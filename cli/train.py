"""The train command: a learned evaluation of lines per level, by self-play
(:mod:`numberup.train`, :mod:`numberup.learned`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .common import MAX_SEED, LevelsParam, echo_json, jobs_option, progress_bar
from .main import cli

MAX_TRAIN_GAMES = 10**7  # every game's decisions are kept in memory while a round is fitted


@cli.command()
@click.option("--level", "-l", "levels", type=LevelsParam(), required=True,
              help="Level number, list (1,3,5-7) or 'all'.")
@click.option("--games", "-n", type=click.IntRange(1, MAX_TRAIN_GAMES), default=None,
              help="Self-play games per round [default: 4,000].")
@click.option("--rounds", type=click.IntRange(1, 10), default=None,
              help="Rounds: the first plays with random completions, each next one with the "
                   "model of the round before [default: 1].")
@click.option("--seed", "-s", type=click.IntRange(0, MAX_SEED), default=None,
              help="Master seed of the training games [default: 7]; judge a model on decks of "
                   "another seed.")
@jobs_option("Threads; the model does not depend on it.")
@click.option("--out", "-o", type=click.Path(dir_okay=False), default=None,
              help="Model file (one level only) [default: the package's "
                   "numberup/models/level-NN.npz, which expectimax:eval=learned reads].")
@click.option("--json", "as_json", is_flag=True, help="Print what was trained as JSON.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr [default: when stderr is a terminal].")
def train(levels, games, rounds, seed, jobs, out, as_json, progress):
    """Learn what a line finally adds, from games of the game's own play.

    Expectimax plays seeded games and logs, after every move, each unfinished line's random
    completions (what its evaluation judges the line by today) and, at the end, what the line
    finally made; the model is the average final value (and its distribution) per kind of
    line: the quarter of the grid filled, the line's empty cells, its random-completion mean.
    'expectimax:eval=learned' then plays with it. The same seed gives the same model bytes
    whatever --jobs.

    \b
    Examples:
      numberup train --level 14
      numberup train --level all --games 4000 --seed 7
    """
    from numberup import train as T
    from numberup.learned import model_path, save_model
    from numberup.players.expectimax import PLAYER

    from numberup.simulate import set_jobs

    jobs = set_jobs(jobs)
    games = games or T.DEFAULT_GAMES
    rounds = rounds or T.DEFAULT_ROUNDS
    seed = T.DEFAULT_SEED if seed is None else seed
    if out is not None and len(levels) != 1:
        raise click.UsageError("--out names one model file: give one --level")
    if progress is None:
        progress = sys.stderr.isatty()
    k = int(PLAYER.params["k"].default)
    done = []
    with progress_bar(progress) as bar:
        for level in levels:
            task = bar.add_task(f"level {level}", total=games * rounds) if bar else None
            table, facts = T.train_level(level, games, seed, jobs, rounds,
                                         (lambda n, t=task: bar.advance(t, n)) if bar else None)
            path = Path(out) if out else model_path(level)
            save_model(path, table, level, seed, games, k, rounds)
            facts["out"] = str(path)
            done.append(facts)
            if not as_json:
                err = ", ".join(f"{a:.1f} -> {b:.1f}" for a, b in facts["errors"])
                click.echo(f"level {level}: {games:,} games x {rounds} round{'s' if rounds > 1 else ''} in "
                           f"{facts['seconds']:.0f} s; squared error of the line means per "
                           f"round (before -> after its fit): {err}; wrote {path}")
    if as_json:
        echo_json(done)
