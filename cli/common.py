"""What the commands share: parameter types, options, output helpers and the run driver.

No game logic lives here either: runs are played by :func:`numberup.simulate.run`.
"""

from __future__ import annotations

import json
import os
import sys

import click

LEVEL_RANGE = click.IntRange(1, 20)


def echo_json(data) -> None:
    click.echo(json.dumps(data, indent=2))


def print_rich(renderable) -> None:
    from rich.console import Console

    Console(soft_wrap=False, width=200 if not sys.stdout.isatty() else None).print(renderable)


class LevelsParam(click.ParamType):
    """A level number, a comma list or range of them ('1,3,5-7'), or 'all'."""

    name = "N|all"

    def convert(self, value, param, ctx):
        if isinstance(value, list):
            return value
        text = str(value).strip().lower()
        if text == "all":
            return list(range(1, 21))
        out = []
        for part in text.split(","):
            lo, dash, hi = part.partition("-")
            try:
                a, b = int(lo), int(hi) if dash else int(lo)
            except ValueError:
                self.fail(f"{value!r} is not a level number, a list like 1,3,5-7, or 'all'", param, ctx)
            if not 1 <= a <= b <= 20:
                self.fail(f"{part!r}: levels are numbered 1 to 20", param, ctx)
            out.extend(range(a, b + 1))
        return sorted(set(out))


class JobsParam(click.ParamType):
    name = "N|auto"

    def convert(self, value, param, ctx):
        if value in (None, "auto") or isinstance(value, int):
            return value
        try:
            n = int(value)
        except ValueError:
            self.fail(f"{value!r} is not a whole number or 'auto'", param, ctx)
        if n < 1:
            self.fail(f"{n} is not a positive number of jobs", param, ctx)
        from numberup.simulate import max_jobs

        limit = max_jobs()
        if n > limit:
            self.fail(f"{n} jobs, but this machine runs at most {limit} threads", param, ctx)
        return n


def progress_bar(enabled: bool):
    """A rich progress bar on stderr (games, games/s, ETA), or a do-nothing stand-in."""
    from contextlib import nullcontext

    if not enabled:
        return nullcontext(None)
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeRemainingColumn)

    class Rate(TextColumn):
        def render(self, task):
            speed = task.finished_speed or task.speed
            return super().render(task) if speed is None else f"{speed:,.0f} games/s"

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    Rate(""), TimeRemainingColumn(), console=Console(stderr=True), transient=True)


def check_out_paths(out, log):
    """Create --out and check both paths before any game is played (nothing half-written)."""
    from pathlib import Path

    if out is not None:
        out = Path(out)
        if out.exists() and not out.is_dir():
            raise click.BadParameter(f"{out} exists and is not a directory", param_hint="--out")
        out.mkdir(parents=True, exist_ok=True)
        if not os.access(out, os.W_OK):
            raise click.BadParameter(f"{out} is not writable", param_hint="--out")
    if log is not None:
        parent = Path(log).resolve().parent
        if not parent.is_dir():
            raise click.BadParameter(f"directory {parent} does not exist", param_hint="--log")
    return out


def run_runs(levels, players, games, seed, jobs, chunk, first, out, log, progress):
    """Play every level x player on the same decks, streaming to --out and --log; returns the
    results and whether the run was interrupted. Shared by simulate and compare."""
    from numberup.play import warm_up
    from numberup.simulate import GameLog, GameTable, run, stop_on_interrupt

    warm_up(levels, players, sys.stderr)  # on a cold cache, says that it compiles, and how long
    sinks = []
    table = GameTable(out / "games.parquet") if out is not None else None
    if table:
        sinks.append(table)
    game_log = GameLog(log) if log else None
    if game_log:
        sinks.append(game_log)
    results = []
    ok = False
    try:
        with stop_on_interrupt() as flag, progress_bar(progress) as bar:
            for level in levels:
                for player in players:
                    task = bar.add_task(f"level {level} {player.spec}", total=games) if bar else None
                    r = run(level, player, games, seed, first=first, jobs=jobs, chunk=chunk,
                            sinks=sinks, stop=lambda: flag["stop"],
                            progress=(lambda n, t=task: bar.advance(t, n)) if bar else None)
                    results.append(r)
                    if flag["stop"]:
                        break
                if flag["stop"]:
                    break
            interrupted = flag["stop"]
        ok = True
    finally:
        if game_log:
            game_log.close()
        if table:
            table.close() if ok else table.discard()
    return results, interrupted


def write_summary(out, frame):
    if out is None:
        return
    from numberup.simulate import atomic_write

    with atomic_write(out / "summary.csv") as f:
        frame.to_csv(f, index=False)


SUMMARY_KEYS = ("level", "policy", "games", "seed", "mean", "sd", "se", "p05", "p25", "p50", "p75",
                "p95", "p_lost", "p_lost_lo", "p_lost_hi", "p_bronze", "p_bronze_lo",
                "p_bronze_hi", "p_silver", "p_silver_lo", "p_silver_hi", "p_gold", "p_gold_lo",
                "p_gold_hi", "seconds", "games_per_s", "seconds_per_game")


def games_option(help_text):
    return click.option("--games", "-n", type=click.IntRange(1), default=2500, show_default=True,
                        help=help_text)


def seed_option(help_text):
    return click.option("--seed", "-s", type=click.IntRange(0), default=1, show_default=True,
                        help=help_text)


def jobs_option(help_text):
    return click.option("--jobs", "-j", type=JobsParam(), default="auto", show_default=True,
                        help=help_text)
