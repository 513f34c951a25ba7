"""What the commands share: parameter types, options, output helpers and the run driver.

No game logic lives here either: runs are played by :func:`numberup.runs.simulate.run`.
"""

from __future__ import annotations

import json
import os
import sys

import click

LEVEL_RANGE = click.IntRange(1, 20)
# best at its quick budget, the default of the work that plays it hundreds of times an answer
# (advise, the hints, calibrate, hindsight's pilot and warm start): numberup.players.best.QUICK,
# written out so that --help need not import the players (tests/players/test_best.py holds the
# commands' defaults equal to it)
QUICK_BEST = "best:budget=0.032"


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
        from numberup.runs.simulate import max_jobs

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


MAX_FILE_BYTES = 64 << 20  # a grid takes about 100 bytes: this is over 500,000 grids


class TextFile(click.ParamType):
    """A text file such as grids ('-': stdin). Parsing checks that it opens; the command
    reads it with ``.read()``, which returns its text or raises
    :class:`~numberup.errors.InputError` naming the file: unreadable, binary, not UTF-8, a
    huge line or a huge file."""

    name = "FILE"

    def convert(self, value, param, ctx):
        if isinstance(value, TextInput):
            return value
        if value != "-":
            try:
                open(value, "rb").close()
            except OSError as err:
                self.fail(f"{value}: {err.strerror or err}", param, ctx)
        return TextInput(str(value))


class TextInput:
    """A file named on the command line, read whole when the command asks (see TextFile)."""

    def __init__(self, path: str):
        self.path = path
        self.name = "<stdin>" if path == "-" else path

    def read(self) -> str:
        from numberup.errors import InputError
        from numberup.game.cards import read_text

        try:
            if self.path == "-":
                data = _read_capped(sys.stdin.buffer)
            else:
                with open(self.path, "rb") as f:
                    data = _read_capped(f)
        except OSError as err:
            raise InputError(f"{self.name}: {err.strerror or err}") from None
        if data is None:
            raise InputError(f"{self.name} is larger than {MAX_FILE_BYTES >> 20} MiB")
        return read_text(data, self.name)


def _read_capped(f) -> bytes | None:
    """At most MAX_FILE_BYTES of ``f`` (None if there is more), read in blocks so that an
    endless input such as /dev/zero stops early."""
    blocks, size = [], 0
    while True:
        block = f.read(1 << 20)
        if not block:
            return b"".join(blocks)
        if b"\0" in block:  # binary: no need to read on (read_text names the byte)
            return b"".join(blocks) + block
        size += len(block)
        if size > MAX_FILE_BYTES:
            return None
        blocks.append(block)


def _fail(option, message):
    raise click.BadParameter(message, param_hint=option)


def _not_empty(path, option):
    if not str(path).strip():
        _fail(option, "an empty path")


def check_out_dir(out, option="--out"):
    """Create the directory ``out`` (and its parents) and prove it takes a file, before any
    game is played; on failure remove what was created and raise a usage error naming the
    option. Returns the path, or None."""
    import tempfile
    from pathlib import Path

    if out is None:
        return None
    _not_empty(out, option)
    out = Path(out)
    if out.exists() and not out.is_dir():
        _fail(option, f"{out} exists and is not a directory")
    made = [p for p in [out, *out.parents] if not p.exists()]
    try:
        out.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=out).close()
    except OSError as err:
        _remove_empty(made)
        _fail(option, f"cannot write in {out}: {err.strerror or err}")
    ctx = click.get_current_context(silent=True)
    if ctx is not None and made:  # a run that fails leaves no empty directory behind
        ctx.call_on_close(lambda: _remove_empty(made))
    return out


def _remove_empty(dirs):
    """Remove the directories of ``dirs`` (deepest first) that are empty."""
    for p in dirs:
        try:
            p.rmdir()
        except OSError:
            pass


def check_out_file(path, option):
    """Check that the file ``path`` can be written, before any work: it is not a directory
    and opens for writing (a new file is created and removed again, an existing one is
    opened without truncating it). Returns the path, or None."""
    from pathlib import Path

    if path is None:
        return None
    _not_empty(path, option)
    path = Path(path)
    if path.is_dir():
        _fail(option, f"{path} is a directory, not a file")
    try:
        if path.exists():
            open(path, "ab").close()
        else:
            open(path, "xb").close()
            path.unlink()
    except OSError as err:
        _fail(option, f"cannot write {path}: {err.strerror or err}")
    return path


def check_out_paths(out, log):
    """Create --out and check both paths before any game is played (nothing half-written)."""
    check_out_file(log, "--log")
    return check_out_dir(out)


class _Named:
    """A sink whose write errors name its file (a full disk says only 'No space left')."""

    def __init__(self, sink, path):
        self.sink, self.path = sink, str(path)

    def write(self, batch) -> None:
        try:
            self.sink.write(batch)
        except OSError as err:
            raise OSError(err.errno, err.strerror or str(err), self.path) from None


def run_runs(levels, players, games, seed, jobs, chunk, first, out, log, progress, dask=None,
             resume=False):
    """Play every level x player on the same decks, keeping every chunk in the run directory
    --out (numberup.runs.rundir) and writing --log; returns the results and whether the run was
    interrupted. --dask runs the chunks on a Dask cluster. Shared by simulate, compare, plot
    and campaign (and any command that plays games)."""
    from contextlib import ExitStack

    from numberup.runs.sinks import GameLog, finish_run_dir
    from numberup.runs.simulate import run, stop_on_interrupt

    if resume and out is None:
        raise click.UsageError("--resume continues the run in --out DIR: give --out")
    results, run_dir, game_log = [], None, None
    with ExitStack() as stack:
        backend = None
        if dask is not None:  # connect (and check the workers) before anything is written
            from numberup.runs.cluster import dask_backend

            backend = stack.enter_context(dask_backend(dask))
        if out is not None:
            run_dir = _open_run_dir(out, levels, players, games, seed, first, log, resume)
            stack.callback(run_dir.close)
        elif log:
            game_log = GameLog(log)
            stack.push(lambda kind, err, tb: _close_log(game_log, log, failed=kind is not None))
        if backend is None:  # on a cold cache, say that it compiles, and how long it took
            from numberup.runs.loop import warm_up

            warm_up(levels, players, sys.stderr)
        flag = stack.enter_context(stop_on_interrupt())
        bar = stack.enter_context(progress_bar(progress))
        for level in levels:
            for player in players:
                task = bar.add_task(f"level {level} {player.spec}", total=games) if bar else None
                r = run(level, player, games, seed, first=first, jobs=jobs, chunk=chunk,
                        sinks=[_Named(game_log, log)] if game_log else [], stop=lambda: flag["stop"],
                        backend=backend, run_dir=run_dir,
                        progress=(lambda n, t=task: bar.advance(t, n)) if bar else None)
                results.append(r)
                if flag["stop"]:
                    break
            if flag["stop"]:
                break
        interrupted = flag["stop"] and (any(r.interrupted for r in results)
                                        or len(results) < len(levels) * len(players))
        if run_dir is not None:  # finished or stopped by Ctrl-C; after an error the parts stay
            finish_run_dir(run_dir, log)
    return results, interrupted


def _open_run_dir(out, levels, players, games, seed, first, log, resume):
    """The run directory --out: a new run, or (--resume) the interrupted one, checked."""
    from numberup.runs.rundir import Manifest, RunDir

    manifest = Manifest(seed, first, games, list(levels), [p.spec for p in players],
                        moves=log is not None)
    run_dir = (RunDir.resume if resume else RunDir.create)(out, manifest)
    if resume:
        total = games * len(levels) * len(players)
        left = sum(hi - lo for lv in levels for k in range(len(players))
                   for lo, hi in run_dir.missing(lv, k))
        click.echo(f"resuming {out}: {total - left:,} games kept, {left:,} to play", err=True)
    return run_dir


def _close_log(game_log, log, failed):
    """Close a streamed --log; when the run ``failed``, or closing fails (a full disk), remove a
    regular file rather than leave it half-written (a device such as /dev/stdout stays)."""
    try:
        game_log.close()
    except OSError as err:
        failed = True
        raise OSError(err.errno, err.strerror or str(err), str(log)) from None
    finally:
        if failed and os.path.isfile(log):
            os.unlink(log)


def write_summary(out, frame):
    if out is None:
        return
    from numberup.files import atomic_write

    with atomic_write(out / "summary.csv") as f:
        frame.to_csv(f, index=False)


SUMMARY_KEYS = ("level", "policy", "plays", "games", "seed", "mean", "sd", "se", "p05", "p25", "p50", "p75",
                "p95", "p_lost", "p_lost_lo", "p_lost_hi", "p_bronze", "p_bronze_lo",
                "p_bronze_hi", "p_silver", "p_silver_lo", "p_silver_hi", "p_gold", "p_gold_lo",
                "p_gold_hi", "seconds", "games_per_s", "seconds_per_game")


MAX_GAMES = 10**9  # a run keeps every score in memory; split bigger runs with --first
MAX_SEED = 2**64 - 1  # the generator's seed is 64 bits: a larger one would alias a smaller one
MAX_FIRST = 2**62  # game indices stay well inside int64, whatever --games adds


def games_option(help_text):
    return click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), default=2500,
                        show_default=True, help=help_text)


def seed_option(help_text):
    return click.option("--seed", "-s", type=click.IntRange(0, MAX_SEED), default=1,
                        show_default=True, help=help_text)


def jobs_option(help_text):
    return click.option("--jobs", "-j", type=JobsParam(), default="auto", show_default=True,
                        help=help_text)


def dask_option():
    return click.option(
        "--dask", metavar="ADDRESS|local[:N]", default=None,
        help="Run the chunks as tasks on a Dask cluster: the scheduler's address "
             "(tcp://host:8786), or local[:N] for N worker processes on this machine "
             "[default N: the cores]; --jobs is then unused. Same games as without it. "
             "Needs numberup[dask].")


def resume_option():
    return click.option(
        "--resume", is_flag=True,
        help="Continue the interrupted run in --out DIR: play only the games it does not hold "
             "(same --level, --policy, --games, --seed and --first as the run).")
