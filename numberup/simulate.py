"""Monte Carlo runs: seeded games of a level by a player, in chunks, with sinks for the results.

A run plays games ``0 .. games-1`` of a master seed; game ``i`` depends on ``(seed, i)`` only,
so a run can be split across chunks, threads, processes or machines (``first``) and give the
same per-game results. Chunks are driven from Python so that progress can be shown, Ctrl-C
stops cleanly after the current chunk (numba defers signals until a jitted call returns), and
results stream to sinks (:class:`GameLog`, :class:`GameTable`) instead of piling up in memory.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import levels as L
from .cards import format_card
from .grid import KIND_NAMES, geometry
from .levels import Level, get_level
from .players import Player
from .stats import summarize

CARD_TEXT = [format_card(c) for c in range(48)]


@dataclass
class Batch:
    """The outputs of one chunk: games ``first .. first + len(scores) - 1``."""

    level: Level
    player: Player
    first: int
    seeds: np.ndarray  # uint64 (n,)
    scores: np.ndarray  # int64 (n,)
    lines: np.ndarray  # int16 (n, n_lines): each line's value
    decks: np.ndarray  # int8 (n, deck size): draw order
    moves: np.ndarray  # int8 (n, max moves, 2): (card, cell or -1), -1 padded


@dataclass
class RunResult:
    """One level x player: every game's score, in game order, and the wall time of the games."""

    level: Level
    player: Player
    seed: int
    requested: int
    scores: list[np.ndarray] = field(default_factory=list)
    seconds: float = 0.0
    interrupted: bool = False

    @property
    def all_scores(self) -> np.ndarray:
        return np.concatenate(self.scores) if self.scores else np.zeros(0, np.int64)

    @property
    def games(self) -> int:
        return sum(len(s) for s in self.scores)

    def summary(self) -> dict:
        out = {"level": self.level.number, "policy": self.player.spec, "seed": self.seed}
        out.update(summarize(self.all_scores, self.level.medals))
        out["seconds"] = self.seconds
        out["games_per_s"] = self.games / self.seconds if self.seconds > 0 else float("nan")
        out["seconds_per_game"] = self.seconds / self.games if self.games else float("nan")
        return out


def set_jobs(jobs: int | str | None) -> int:
    """The number of threads for ``jobs`` (``None``/``'auto'``: every core this process may use)."""
    limit = max_jobs()
    n = limit if jobs in (None, "auto", 0) else int(jobs)
    if not 1 <= n <= limit:
        raise ValueError(f"jobs must be from 1 to {limit} on this machine, not {n}")
    return n


def max_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def play_batch(level: Level, player: Player, seed: int, first: int, n: int, blocks: int,
               pool=None) -> Batch:
    """Play games ``first .. first+n-1`` of master ``seed``, split into ``blocks`` blocks run on
    ``pool`` (a :class:`concurrent.futures.Executor`; ``None``: one after another here)."""
    from .engine import new_state
    from .play import game_loop, max_moves
    from .search import new_scratch

    p = L.PARAMS[level.number]
    nl = int(p[L.P_NLINES])
    b = Batch(
        level, player, first,
        np.zeros(n, np.uint64), np.zeros(n, np.int64), np.zeros((n, nl), np.int16),
        np.zeros((n, level.deck_size), np.int8), np.zeros((n, max_moves(level), 2), np.int8),
    )
    geo = geometry(level.size)
    blocks = max(1, min(blocks, n))
    bounds = [(n * k // blocks, n * (k + 1) // blocks) for k in range(blocks)]

    play = game_loop(player.kind)

    def block(lo_hi):
        S, X, deck = new_state(level.cells), new_scratch(level, player), np.zeros(level.deck_size, np.int8)
        play(p, geo, S, X, deck, player.params, np.uint64(seed % 2**64), first,
             lo_hi[0], lo_hi[1], b.seeds, b.scores, b.lines, b.decks, b.moves)

    if pool is None:
        for lo_hi in bounds:
            block(lo_hi)
    else:
        list(pool.map(block, bounds))
    return b


@contextmanager
def stop_on_interrupt():
    """Within the block, the first Ctrl-C only sets ``flag['stop']`` (the run ends after the
    current chunk); a second one interrupts at once."""
    flag = {"stop": False}
    if not _main_thread():
        yield flag
        return

    def handler(signum, frame):
        if flag["stop"]:
            raise KeyboardInterrupt
        flag["stop"] = True

    old = signal.signal(signal.SIGINT, handler)
    try:
        yield flag
    finally:
        signal.signal(signal.SIGINT, old)


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def run(
    level: int | Level,
    player: Player,
    games: int,
    seed: int,
    *,
    first: int = 0,
    jobs: int | None = None,
    chunk: int | None = None,
    sinks: Iterable = (),
    progress: Callable[[int], None] | None = None,
    stop: Callable[[], bool] = lambda: False,
    chunk_seconds: float = 0.5,
) -> RunResult:
    """Play ``games`` seeded games of ``level`` with ``player``.

    Parameters
    ----------
    first : int
        Index of the first game (to split one run across machines).
    jobs : int, optional
        Threads (default: all). Results do not depend on it.
    chunk : int, optional
        Games per chunk; default adaptive, about ``chunk_seconds`` of work each. Results do not
        depend on it.
    sinks : iterable
        Objects with ``write(batch)``, called after each chunk.
    progress : callable, optional
        Called with the number of games finished in each chunk.
    stop : callable
        Checked after each chunk; when true, the run ends there (``interrupted``).
    """
    from concurrent.futures import ThreadPoolExecutor

    lv = get_level(level)
    threads = set_jobs(jobs)
    blocks = 4 * threads
    sinks = list(sinks)
    result = RunResult(lv, player, seed, games)
    play_batch(lv, player, seed, first, 1, 1)  # compile (or load from cache) before timing
    size = chunk or max(8, 4 * threads)
    done = 0
    with ThreadPoolExecutor(threads) as pool:
        while done < games:
            n = min(size, games - done)
            t0 = time.perf_counter()
            batch = play_batch(lv, player, seed, first + done, n, blocks, pool)
            dt = time.perf_counter() - t0
            result.seconds += dt
            result.scores.append(batch.scores.copy())
            for sink in sinks:
                sink.write(batch)
            done += n
            if progress:
                progress(n)
            if stop():
                result.interrupted = done < games
                break
            if not chunk:  # aim at chunk_seconds per chunk: responsive progress and Ctrl-C
                size = int(min(max(8, n * chunk_seconds / max(dt, 1e-6)), 4 * n, 1_000_000))
    return result


# ---------------------------------------------------------------------------------------------
# Sinks


@contextmanager
def atomic_write(path: Path, mode: str = "w"):
    """Write to a temporary file beside ``path``, renamed over it only when the block ends
    without an exception: readers never see a half-written file."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, mode) as f:
            yield f
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def move_dicts(level: Level, moves: np.ndarray) -> list[dict]:
    """The ``moves`` rows of one game as the log's objects."""
    out = []
    for card, cell in moves:
        if card < 0:
            break
        if cell < 0:
            out.append({"card": CARD_TEXT[card], "discard": True})
        else:
            out.append({"card": CARD_TEXT[card], "cell": [int(cell) // level.size, int(cell) % level.size]})
    return out


def game_records(batch: Batch) -> Iterable[dict]:
    """One log object per game of the batch."""
    lv = batch.level
    for k in range(len(batch.scores)):
        yield {
            "level": lv.number,
            "game": batch.first + k,
            "seed": int(batch.seeds[k]),
            "policy": batch.player.spec,
            "score": int(batch.scores[k]),
            "deck": [CARD_TEXT[c] for c in batch.decks[k]],
            "moves": move_dicts(lv, batch.moves[k]),
        }


class GameLog:
    """JSON Lines, one object per game, streamed: each chunk is written whole and flushed."""

    def __init__(self, path):
        self.f = open(path, "w")

    def write(self, batch: Batch) -> None:
        self.f.write("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in game_records(batch)))
        self.f.flush()

    def close(self) -> None:
        self.f.close()


def line_names(level: Level) -> list[str]:
    """``['row0', ..., 'col4', 'diag0', 'diag1']`` for the level's scored lines."""
    geo = geometry(level.size)
    n = int(L.PARAMS[level.number][L.P_NLINES])
    return [f"{KIND_NAMES[geo.line_kind[i]]}{geo.line_index[i]}" for i in range(n)]


class GameTable:
    """The per-game table as Parquet, one row group per chunk, into a temporary file that
    :meth:`close` renames into place (``discard`` removes it): never a half-written table.

    Columns: level, policy, game, seed, score, medal, lines (list of each line's value, in the
    order rows, columns, diagonals).
    """

    def __init__(self, path):
        import pyarrow as pa

        self.path = Path(path)
        self.tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        self.schema = pa.schema([
            ("level", pa.int8()), ("policy", pa.string()), ("game", pa.int64()),
            ("seed", pa.uint64()), ("score", pa.int32()), ("medal", pa.string()),
            ("lines", pa.list_(pa.int16())),
        ])
        self.writer = None

    def write(self, batch: Batch) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if self.writer is None:
            self.writer = pq.ParquetWriter(self.tmp, self.schema)
        lv = batch.level
        n = len(batch.scores)
        medal = [lv.medal(int(s)) for s in batch.scores]
        table = pa.table({
            "level": pa.array(np.full(n, lv.number, np.int8)),
            "policy": pa.array([batch.player.spec] * n),
            "game": pa.array(np.arange(batch.first, batch.first + n, dtype=np.int64)),
            "seed": pa.array(batch.seeds),
            "score": pa.array(batch.scores.astype(np.int32)),
            "medal": pa.array(medal),
            "lines": pa.array(list(batch.lines), type=pa.list_(pa.int16())),
        }, schema=self.schema)
        self.writer.write_table(table)

    def close(self) -> None:
        if self.writer is None:
            import pyarrow.parquet as pq

            pq.write_table(self.schema.empty_table(), self.tmp)
        else:
            self.writer.close()
        os.replace(self.tmp, self.path)

    def discard(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.tmp.unlink(missing_ok=True)


def summary_frame(results: list[RunResult]):
    """One row per level x player (pandas DataFrame)."""
    import pandas as pd

    return pd.DataFrame([r.summary() for r in results])
