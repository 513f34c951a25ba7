"""Where a run's games go: the per-game table (Parquet), the JSON Lines log, and the
conversion of a chunk (:class:`numberup.runs.loop.Batch`) to table rows and log objects.

A run directory (:mod:`numberup.runs.rundir`) keeps each chunk as :func:`batch_table`; at the end of
a run :func:`finish_run_dir` rebuilds ``games.parquet`` (and the log) from its parts.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..game import levels as L
from ..game.cards import format_card
from ..game.grid import KIND_NAMES, geometry
from ..files import atomic_write, temporary_beside
from ..game.levels import Level, get_level

if TYPE_CHECKING:
    from .loop import Batch

CARD_TEXT = [format_card(c) for c in range(48)]


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


GAME_COLUMNS = ["level", "policy", "game", "seed", "score", "medal", "lines"]


def _game_schema():
    import pyarrow as pa

    return [("level", pa.int8()), ("policy", pa.string()), ("game", pa.int64()),
            ("seed", pa.uint64()), ("score", pa.int32()), ("medal", pa.string()),
            ("lines", pa.list_(pa.int16()))]


def batch_table(batch: Batch, moves: bool = False):
    """A chunk as a pyarrow table: the columns of ``games.parquet`` (:class:`GameTable`), and
    with ``moves`` two more, ``deck`` and ``moves``: each game's int8 rows as bytes (what
    :func:`table_records` turns back into the log's objects)."""
    import pyarrow as pa

    lv = batch.level
    n = len(batch.scores)
    cols = {
        "level": pa.array(np.full(n, lv.number, np.int8)),
        "policy": pa.array([batch.player.spec] * n),
        "game": pa.array(np.arange(batch.first, batch.first + n, dtype=np.int64)),
        "seed": pa.array(batch.seeds),
        "score": pa.array(batch.scores.astype(np.int32)),
        "medal": pa.array([lv.medal(int(s)) for s in batch.scores]),
        "lines": pa.array(list(batch.lines), type=pa.list_(pa.int16())),
    }
    if moves:
        for name, rows in (("deck", batch.decks), ("moves", batch.moves.reshape(n, -1))):
            rows = np.ascontiguousarray(rows, np.int8)
            cols[name] = pa.FixedSizeBinaryArray.from_buffers(
                pa.binary(rows.shape[1]), n, [None, pa.py_buffer(rows.tobytes())])
    return pa.table(cols)


def table_records(level: Level, table) -> Iterable[dict]:
    """The log's objects (:func:`game_records`) of a part table that kept the moves."""
    cols = {k: table.column(k).to_pylist() for k in ("game", "seed", "policy", "score", "deck",
                                                       "moves")}
    for k in range(table.num_rows):
        deck = np.frombuffer(cols["deck"][k], np.int8)
        moves = np.frombuffer(cols["moves"][k], np.int8).reshape(-1, 2)
        yield {"level": level.number, "game": cols["game"][k], "seed": cols["seed"][k],
               "policy": cols["policy"][k], "score": cols["score"][k],
               "deck": [CARD_TEXT[c] for c in deck], "moves": move_dicts(level, moves)}


class GameTable:
    """The per-game table as Parquet, one row group per chunk, into a temporary file that
    :meth:`close` renames into place (``discard`` removes it): never a half-written table.

    Columns: level, policy, game, seed, score, medal, lines (list of each line's value, in the
    order rows, columns, diagonals).
    """

    def __init__(self, path):
        import pyarrow as pa

        self.path = Path(path)
        self.tmp = temporary_beside(self.path)
        self.schema = pa.schema(_game_schema())
        self.writer = None

    def write(self, batch: Batch) -> None:
        import pyarrow.parquet as pq

        if self.writer is None:
            self.writer = pq.ParquetWriter(self.tmp, self.schema)
        self.writer.write_table(batch_table(batch))

    def close(self) -> None:
        if self.writer is None:
            import pyarrow.parquet as pq

            pq.write_table(self.schema.empty_table(), self.tmp)
        else:
            self.writer.close()
        os.replace(self.tmp, self.path)

    def discard(self) -> None:
        try:
            if self.writer is not None:
                self.writer.close()
        except OSError:  # e.g. a full disk: the table is dropped all the same
            pass
        self.tmp.unlink(missing_ok=True)


def finish_run_dir(run_dir, log=None) -> None:
    """Rebuild ``games.parquet`` of a run directory from its parts, and write the JSON Lines
    ``log`` (a path; None: none) from the moves the parts kept, in the manifest's order."""
    from .rundir import read_part

    run_dir.write_games(GAME_COLUMNS)
    if log is None:
        return
    m = run_dir.manifest

    def write(f):
        for lv in m.levels:
            for p in range(len(m.players)):
                for *_, path in run_dir.part_files(lv, p):
                    t = read_part(path)
                    f.write("".join(json.dumps(r, separators=(",", ":")) + "\n"
                                    for r in table_records(get_level(lv), t)))

    try:
        with atomic_write(Path(log)) as f:
            write(f)
    except OSError as err:  # a full disk says only 'No space left': name the file
        raise OSError(err.errno, err.strerror or str(err), str(log)) from None
