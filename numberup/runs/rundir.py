"""Durable runs: a directory that keeps every finished chunk as a Parquet part.

``--out DIR`` is a run directory (layout in ``docs/run-directory.md``)::

    DIR/manifest.json     the run's identity: seed, first game, games, levels, players, build
    DIR/parts/L14-P0-000000000000-000000000249.parquet
                          games 0..249 of level 14 by the manifest's player 0, one per chunk
    DIR/games.parquet     every game in game order, rebuilt from the parts at the end of a run
    DIR/summary.csv       one row per level x player, rebuilt at the same time
    DIR/.lock             held while a process writes into DIR

A part is written to a temporary file and renamed into place, so a part either exists whole or
not at all: a hard kill loses only the chunks in flight, and ``--resume`` plays exactly the
games that no part holds. The parts are the run; ``games.parquet`` and ``summary.csv`` are
views of them. Nothing here knows what a part's columns mean beyond ``game``: any per-game job
(simulate, compare, and later ones) can keep its chunks the same way.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path

from ..errors import InputError
from ..files import written_whole

FORMAT = "numberup-run/1"
MANIFEST = "manifest.json"
PARTS = "parts"
PART_RE = re.compile(r"^L(\d+)-P(\d+)-(\d{12})-(\d{12})\.parquet$")
IDENTITY = ("seed", "first", "games", "levels", "players", "build")  # what --resume must match


@cache
def build_id() -> str:
    """``version+digest``: the package version and a digest of the modules whose code ends up in
    the compiled kernels. Two builds with the same id play the same games for the same seed."""
    from .. import __version__
    from ..jit import SOURCES_DIGEST

    return f"{__version__}+{SOURCES_DIGEST[:12]}"


@dataclass
class Manifest:
    """The identity of a run: games ``first .. first+games-1`` of ``seed``, for every level x
    player; ``moves``: whether the parts keep each game's deck and moves (for ``--log``)."""

    seed: int
    first: int
    games: int
    levels: list[int]
    players: list[str]
    build: str = field(default_factory=build_id)
    moves: bool = False
    format: str = FORMAT

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2) + "\n"

    @classmethod
    def read(cls, path: Path) -> Manifest:
        try:
            data = json.loads(Path(path).read_text())
            if data.get("format") != FORMAT:
                raise ValueError(f"format {data.get('format')!r}, not {FORMAT!r}")
            return cls(**{k: data[k] for k in cls.__dataclass_fields__})
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise InputError(f"{path}: not a run manifest ({err})") from None

    def mismatch(self, other: Manifest) -> str | None:
        """The first field of the identity in which ``other`` differs, as words; None if same."""
        for key in IDENTITY:
            a, b = getattr(self, key), getattr(other, key)
            if a != b:
                return f"{key} {_show(b)} (the run has {_show(a)})"
        return None


def _show(x) -> str:
    return ",".join(map(str, x)) if isinstance(x, list) else str(x)


def part_name(level: int, player: int, lo: int, hi: int) -> str:
    """The part of games ``lo .. hi-1``: ``L14-P0-000000000000-000000000249.parquet``."""
    return f"L{level:02d}-P{player}-{lo:012d}-{hi - 1:012d}.parquet"


class RunDir:
    """A run directory: its manifest, its parts and the lock that keeps one writer at a time.

    Open it with :meth:`create` (a new run) or :meth:`resume` (continue one); both check it
    before any game is played and take the lock.
    """

    def __init__(self, path, manifest: Manifest):
        self.path = Path(path)
        self.manifest = manifest
        self.parts = self.path / PARTS
        self._lock = None

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def create(cls, path, manifest: Manifest) -> RunDir:
        """A new run in ``path`` (made if missing). Refuses a directory that holds a run."""
        path = Path(path)
        if (path / MANIFEST).exists() or any((path / PARTS).glob("*.parquet")):
            kept = len(list((path / PARTS).glob("*.parquet")))
            raise InputError(f"--out {path} holds a run already ({kept} parts): add --resume "
                             f"to continue it, or choose another directory")
        path.mkdir(parents=True, exist_ok=True)
        d = cls(path, manifest)
        d.lock()
        d.parts.mkdir(exist_ok=True)
        with written_whole(path / MANIFEST) as tmp:
            tmp.write_text(manifest.to_json())
        return d

    @classmethod
    def resume(cls, path, manifest: Manifest) -> RunDir:
        """The run in ``path``, which must have been started with the same identity."""
        path = Path(path)
        if not (path / MANIFEST).exists():
            raise InputError(f"--resume: {path} holds no run to resume (no {MANIFEST})")
        have = Manifest.read(path / MANIFEST)
        diff = have.mismatch(manifest)
        if diff:
            raise InputError(f"--resume: {path} holds another run: this one asks for {diff}")
        if manifest.moves and not have.moves and any((path / PARTS).glob("*.parquet")):
            raise InputError(f"--resume --log: the games kept in {path} were played without "
                             f"--log, so their moves were not kept; resume without --log")
        d = cls(path, have)
        d.lock()
        if manifest.moves and not have.moves:  # no part yet: from now on keep the moves
            d.manifest.moves = True
            with written_whole(path / MANIFEST) as tmp:
                tmp.write_text(d.manifest.to_json())
        d.parts.mkdir(exist_ok=True)
        for stale in d.parts.glob(".*.tmp"):  # chunks in flight when a writer was killed
            stale.unlink(missing_ok=True)
        return d

    @classmethod
    def read(cls, path) -> RunDir:
        """A run directory to read (merge, plots): no lock taken."""
        path = Path(path)
        return cls(path, Manifest.read(path / MANIFEST))

    def lock(self) -> None:
        try:
            import fcntl
        except ImportError:  # not on a POSIX system: no lock
            return
        f = open(self.path / ".lock", "a")
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            raise InputError(f"--out {self.path} is being written by another numberup process")
        self._lock = f

    def close(self) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    # -- parts -----------------------------------------------------------------------------
    def player_index(self, spec: str) -> int:
        return self.manifest.players.index(spec)

    def part_files(self, level: int | None = None, player: int | None = None) -> list:
        """``[(level, player, lo, hi, path)]`` of the parts, sorted by level, player, lo."""
        out = []
        for p in self.parts.glob("L*.parquet"):
            m = PART_RE.match(p.name)
            if not m:
                continue
            lv, pl, lo, last = map(int, m.groups())
            if (level is None or lv == level) and (player is None or pl == player):
                out.append((lv, pl, lo, last + 1, p))
        return sorted(out, key=lambda t: t[:4])

    def kept(self, level: int, player: int) -> list[tuple[int, int]]:
        """The game ranges ``[lo, hi)`` that parts hold, in order; overlaps are an error."""
        ranges = [(lo, hi) for _, _, lo, hi, _ in self.part_files(level, player)]
        check_disjoint(ranges, f"{self.path}: level {level} player {player}")
        return ranges

    def missing(self, level: int, player: int) -> list[tuple[int, int]]:
        """The game ranges of the run that no part holds yet."""
        m = self.manifest
        return gaps(self.kept(level, player), m.first, m.first + m.games)

    def kept_column(self, level: int, player: int, column: str) -> list:
        """``[(first game, numpy array of column)]`` of each part, in game order."""
        self.kept(level, player)  # refuses overlaps
        return [(lo, read_part(p, [column]).column(0).to_numpy())
                for *_, lo, hi, p in self.part_files(level, player)]

    def write_part(self, level: int, player: int, table, metadata: dict | None = None) -> Path:
        """Keep one finished chunk: ``table`` (pyarrow, a ``game`` column of consecutive games)
        goes to its part file atomically, with ``metadata`` in the file's key-value metadata."""
        import pyarrow.parquet as pq

        games = table.column("game")
        lo, hi = int(games[0].as_py()), int(games[-1].as_py()) + 1
        meta = {**(table.schema.metadata or {}),
                b"numberup": json.dumps({"build": self.manifest.build, "seed": self.manifest.seed,
                                         **(metadata or {})}).encode()}
        table = table.replace_schema_metadata(meta)
        path = self.parts / part_name(level, player, lo, hi)
        with written_whole(path) as tmp:
            pq.write_table(table, tmp)
        return path

    def read_parts(self, level: int, player: int, columns=None):
        """Every kept game of a level x player as one pyarrow table, in game order."""
        import pyarrow as pa

        files = self.part_files(level, player)
        check_disjoint([(lo, hi) for *_, lo, hi, _ in files], f"{self.path}: level {level}")
        tables = [read_part(p, columns) for *_, p in files]
        return pa.concat_tables(tables) if tables else None

    def write_games(self, columns) -> None:
        """``games.parquet``: the parts' ``columns`` of every level x player in the manifest's
        order, one row group per part, written atomically."""
        import pyarrow.parquet as pq

        files = [f for lv in self.manifest.levels for pl in range(len(self.manifest.players))
                 for f in self.part_files(lv, pl)]

        def write(tmp):
            writer = None
            for *_, p in files:
                t = read_part(p, columns)
                writer = writer or pq.ParquetWriter(tmp, t.schema)
                writer.write_table(t)
            if writer is None:
                return
            writer.close()

        if files:
            with written_whole(self.path / "games.parquet") as tmp:
                write(tmp)


def read_part(path, columns=None):
    """One part as a pyarrow table (without its metadata); an unreadable part is an error that
    says how to recover."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.read_table(path, columns=columns).replace_schema_metadata(None)
    except (OSError, pa.ArrowException) as err:
        raise InputError(f"{path}: unreadable part ({' '.join(str(err).split())[:120]}): delete "
                         f"it and --resume plays its games again") from None


def check_disjoint(ranges, where: str) -> None:
    """Refuse overlapping game ranges (``[lo, hi)``, sorted by lo)."""
    for (a_lo, a_hi), (b_lo, b_hi) in zip(ranges, ranges[1:]):
        if b_lo < a_hi:
            raise InputError(f"{where}: games {b_lo}-{min(a_hi, b_hi) - 1} are held twice "
                             f"(parts {a_lo}-{a_hi - 1} and {b_lo}-{b_hi - 1})")


def gaps(ranges, lo: int, hi: int) -> list[tuple[int, int]]:
    """``[lo, hi)`` less the sorted disjoint ``ranges``: ``[(0, 5), (8, 9)], 0, 12 ->
    [(5, 8), (9, 12)]``."""
    out, at = [], lo
    for a, b in ranges:
        if a > at:
            out.append((at, min(a, hi)))
        at = max(at, b)
    if at < hi:
        out.append((at, hi))
    return [(a, b) for a, b in out if a < b]


def summed_seconds(sources) -> dict:
    """(level, policy) -> the seconds the runs' ``summary.csv`` files record, summed (a run
    without one adds nothing); a summary that is not a table numberup wrote is an InputError."""
    import pandas as pd

    seconds = {}
    for src in sources:
        path = Path(src) / "summary.csv"
        if not path.exists():
            continue
        try:
            rows = list(pd.read_csv(path).itertuples())
            for row in rows:
                key = (int(row.level), row.policy)
                seconds[key] = seconds.get(key, 0.0) + float(row.seconds)
        except (ValueError, AttributeError, UnicodeDecodeError, pd.errors.ParserError) as err:
            raise InputError(f"{path}: not a summary table of numberup "
                             f"({type(err).__name__})") from None
    return seconds


def merge_dirs(sources, out) -> RunDir:
    """Combine run directories that hold different games of the same run (split by ``--first``
    or played on several machines) into a new run directory ``out``: their parts are linked (or
    copied) there. Refuses sources that differ in seed, levels, players or build, and games
    held by two sources. ``games.parquet`` and ``summary.csv`` are the caller's to write."""
    import shutil

    dirs, seen = [], {}
    for src in map(Path, sources):
        key = src.resolve()
        if key in seen:
            raise InputError(f"merge: {src} is given twice")
        seen[key] = src
        if not (src / MANIFEST).exists():
            raise InputError(f"merge: {src} is not a run directory (no {MANIFEST}: "
                             f"'numberup simulate --out DIR' makes one)")
        dirs.append(RunDir.read(src))
    if Path(out).resolve() in seen:
        raise InputError(f"merge: --out {out} is one of the runs to merge: choose a new directory")
    head = dirs[0]
    for d in dirs[1:]:
        for key in ("seed", "levels", "players", "build"):
            a, b = getattr(head.manifest, key), getattr(d.manifest, key)
            if a != b:
                raise InputError(f"merge: {d.path} has {key} {_show(b)} but {head.path} has "
                                 f"{key} {_show(a)}: not games of the same run")
    m = head.manifest
    files = {}  # (level, player) -> [(lo, hi, path, source)]
    for d in dirs:
        for lv, pl, lo, hi, p in d.part_files():
            files.setdefault((lv, pl), []).append((lo, hi, p, d.path))
    for (lv, pl), parts in files.items():
        parts.sort()
        for (a_lo, a_hi, _, a_src), (b_lo, b_hi, _, b_src) in zip(parts, parts[1:]):
            if b_lo < a_hi:
                raise InputError(f"merge: level {lv} {m.players[pl]}: games {b_lo}-"
                                 f"{min(a_hi, b_hi) - 1} are in both {a_src} and {b_src}")
    lo = min(d.manifest.first for d in dirs)
    hi = max(d.manifest.first + d.manifest.games for d in dirs)
    merged = RunDir.create(out, Manifest(m.seed, lo, hi - lo, list(m.levels), list(m.players),
                                         m.build, all(d.manifest.moves for d in dirs)))
    for parts in files.values():
        for *_, p, _ in parts:
            try:
                os.link(p, merged.parts / p.name)
            except OSError:
                shutil.copy2(p, merged.parts / p.name)
    return merged
