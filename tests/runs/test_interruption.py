"""Interrupted runs: a run stopped partway, by any means, keeps its finished chunks as whole
files and nothing half-written, and where it goes on (``--resume``) it plays only the rest,
leaving the kept chunks as they were, and ends with the uninterrupted run's games.

One parametrized test, a case per way to stop a run: the run's own stop callback, Ctrl-C
(SIGINT) while a chunk is kept, a chunk whose part cannot be written, a hard kill (SIGKILL) of
the command, ``--log`` on a full device, the disk filling up mid-run. Each case stops its run
and checks what was left; the test then resumes it where the case can, and checks that no
temporary file remains anywhere. "Equal" tables: the same games.parquet rows in game order,
and summary.csv the same in every column but the three that time the invocation."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from numberup.game.levels import get_level
from numberup.players.registry import parse_player
from numberup.runs.loop import play_batch
from numberup.runs.rundir import Manifest, RunDir
from numberup.runs.simulate import run
from numberup.runs.sinks import GameLog, GameTable, finish_run_dir
from oracles.cli_checks import assert_one_line_error, invoke, run_isolated, run_main
from oracles.replay import replay_log

PARQUET_COLUMNS = ["level", "policy", "game", "seed", "score", "medal", "lines"]
TIMING = ["seconds", "games_per_s", "seconds_per_game"]
PLAY = ["--level", "14", "--games", "10", "--policy", "greedy", "--jobs", "1", "--no-progress"]


def _tmp_files(directory: Path) -> list[str]:
    return sorted(p.name for p in Path(directory).iterdir() if p.name.endswith(".tmp"))


def part_stamps(d):
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in (d / "parts").glob("*.parquet")}


def assert_same_tables(a, b):
    pd.testing.assert_frame_equal(pd.read_parquet(a / "games.parquet"),
                                  pd.read_parquet(b / "games.parquet"))
    pd.testing.assert_frame_equal(pd.read_csv(a / "summary.csv").drop(columns=TIMING),
                                  pd.read_csv(b / "summary.csv").drop(columns=TIMING))


def _counts(line):
    """'resuming D: 1,234 games kept, 56 to play' -> (1234, 56)."""
    words = line.replace(",", "").split()
    return int(words[-6]), int(words[-3])


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """The uninterrupted run that a resumed one must equal, with its log."""
    out = tmp_path_factory.mktemp("whole")
    invoke(["simulate", "--level", "1,14", "--policy", "greedy", "--games", "300", "--seed", "5",
            "--out", str(out / "run"), "--no-progress", "--json", "--log",
            str(out / "log.jsonl"), "--chunk", "64"])
    return out


# --- the ways to stop a run: each stops one, checks what it left, and returns its run
# directory (None: a run without one) and how to resume it (None: it is not resumed)


def by_its_stop_callback(ctx):
    """simulate.run with a stop that fires after the first chunk; the sinks close cleanly."""
    import pyarrow.parquet as pq

    tmp_path = ctx.dir
    table = GameTable(tmp_path / "games.parquet")
    game_log = GameLog(tmp_path / "games.jsonl")
    result = run(13, parse_player("greedy"), 100, 4, jobs=2, chunk=8,
                 sinks=[table, game_log], stop=lambda: True)
    game_log.close()
    table.close()
    assert result.interrupted
    assert result.games == 8
    t = pq.read_table(tmp_path / "games.parquet")
    assert t.column_names == PARQUET_COLUMNS
    assert t.column("game").to_pylist() == list(range(8))
    records = replay_log(tmp_path / "games.jsonl", 13)
    assert t.column("score").to_pylist() == [r["score"] for r in records]
    assert _tmp_files(tmp_path) == []
    return None, None


def by_ctrl_c(ctx):
    """run_runs as simulate calls it; a Ctrl-C (SIGINT) arrives while the first chunk is kept."""
    import pyarrow.parquet as pq
    from numberup_cli.commands import run_runs

    tmp_path = ctx.dir
    write_part = RunDir.write_part

    def interrupting(self, *args, **kw):
        path = write_part(self, *args, **kw)
        signal.raise_signal(signal.SIGINT)  # the first Ctrl-C: stop after this chunk
        return path

    ctx.monkeypatch.setattr(RunDir, "write_part", interrupting)
    out = tmp_path / "run"
    out.mkdir()
    results, interrupted = run_runs([1, 2], [parse_player("random")], 50, 3, 1, 8, 0, out,
                                    tmp_path / "games.jsonl", False)
    assert interrupted
    assert [r.games for r in results] == [8]
    assert sorted(p.name for p in out.iterdir()) == [".lock", "games.parquet", "manifest.json",
                                                     "parts"]
    t = pq.read_table(out / "games.parquet")
    assert t.column("game").to_pylist() == list(range(8))
    assert t.column("level").to_pylist() == [1] * 8
    records = replay_log(tmp_path / "games.jsonl", 1)
    assert t.column("score").to_pylist() == [r["score"] for r in records]
    assert _tmp_files(out) == [] and _tmp_files(out / "parts") == [] and _tmp_files(tmp_path) == []
    return out, None


def by_a_chunk_that_cannot_be_written(ctx):
    """A chunk that cannot be written stops the run: the chunks kept before stay (for
    --resume), no half-written file is left, and no table is built over the failure."""
    from numberup_cli.commands import run_runs

    tmp_path = ctx.dir
    write_part = RunDir.write_part
    writes = []

    def failing(self, *args, **kw):
        writes.append(1)
        if len(writes) == 2:
            raise OSError("disk full (simulated)")
        return write_part(self, *args, **kw)

    ctx.monkeypatch.setattr(RunDir, "write_part", failing)
    out = tmp_path / "run"
    out.mkdir()
    with pytest.raises(OSError, match="simulated"):
        run_runs([5], [parse_player("greedy")], 40, 3, 1, 8, 0, out, tmp_path / "games.jsonl",
                 False)
    assert len(writes) == 2
    assert sorted(p.name for p in (out / "parts").iterdir()) == [
        "L05-P0-000000000000-000000000007.parquet"]
    assert not (out / "games.parquet").exists() and not (tmp_path / "games.jsonl").exists()
    assert _tmp_files(out / "parts") == [] and _tmp_files(tmp_path) == []
    return out, None


def by_its_stop_callback_then_resumed(ctx):
    """Stopped after two chunks of level 1 (as Ctrl-C does), then --resume: the same tables
    and log as the uninterrupted run's, and the kept chunks are not played again."""
    tmp_path = ctx.dir
    out = tmp_path / "run"
    d = RunDir.create(out, Manifest(5, 0, 300, [1, 14], ["greedy"], moves=True))
    chunks = []
    r = run(1, parse_player("greedy"), 300, 5, jobs=1, chunk=50, run_dir=d,
            sinks=[type("S", (), {"write": lambda self, b: chunks.append(b)})()],
            stop=lambda: len(chunks) >= 2)
    finish_run_dir(d)
    d.close()
    assert r.interrupted and r.games == 100
    assert len(part_stamps(out)) == 2

    def resume(ctx, out, kept):
        """``simulate --resume`` in-process."""
        from click.testing import CliRunner

        import numberup_cli.main  # noqa: F401  (every command on the group)
        from numberup_cli.group import cli

        whole = ctx.request.getfixturevalue("whole")
        log = tmp_path / "log.jsonl"
        res = CliRunner().invoke(cli, ["simulate", "--level", "1,14", "--policy", "greedy",
                                       "--games", "300", "--seed", "5", "--out", str(out),
                                       "--resume", "--log", str(log), "--no-progress", "--json"])
        assert res.exit_code == 0, res.output
        line = next(x for x in res.stderr.splitlines() if x.startswith("resuming"))
        assert _counts(line) == (100, 500)
        assert_same_tables(whole / "run", out)
        assert log.read_text() == (whole / "log.jsonl").read_text()

    return out, resume


def by_kill_9(ctx):
    """A hard kill of ``simulate --out`` keeps every finished chunk; --resume plays only the
    rest, and the table is the uninterrupted run's games."""
    out = ctx.dir / "run"
    games = 40_000
    argv = [sys.executable, "-m", "numberup", "simulate", "--level", "1", "--policy", "greedy",
            "--games", str(games), "--seed", "9", "--chunk", "40", "--jobs", "1", "--out",
            str(out), "--no-progress"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while len(list(out.glob("parts/*.parquet"))) < 5:
        assert proc.poll() is None, "the run ended before it could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.005)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not (out / "games.parquet").exists()
    assert 5 <= len(part_stamps(out)) < games // 40

    def resume(ctx, out, kept):
        done = sum(int(n.split("-")[3].split(".")[0]) - int(n.split("-")[2]) + 1 for n in kept)
        res = subprocess.run(argv + ["--resume"], capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stderr
        assert _counts(next(x for x in res.stderr.splitlines() if x.startswith("resuming"))) == (
            done, games - done)
        assert not list((out / "parts").glob(".*.tmp"))
        table = pd.read_parquet(out / "games.parquet")
        b = play_batch(get_level(1), parse_player("greedy"), 9, 0, games, 1)
        assert table["game"].tolist() == list(range(games))
        assert table["score"].tolist() == b.scores.tolist()
        assert table["seed"].tolist() == b.seeds.tolist()

    return out, resume


def by_a_full_device_for_the_log(command):
    """--log on a full device: the run stops with one line naming the file; the finished games
    stay in --out's run directory, and --resume with a log that can be written finishes the
    run without playing them again. The device itself is written in place, never replaced."""

    def stop(ctx):
        code, out, err = run_main([*command, *PLAY, "--log", "/dev/full", "--out", "run/a"],
                                  ctx.capsys)
        assert_one_line_error(code, out, err, ["/dev/full", "No space left"])
        assert Path("/dev/full").is_char_device()
        assert (ctx.dir / "run" / "a" / "manifest.json").is_file()
        return ctx.dir / "run" / "a", resume

    def resume(ctx, out, kept):
        code, _, err = run_isolated([*command, *PLAY, "--log", "games.jsonl", "--out", "run/a",
                                     "--resume"])
        assert code == 0, err
        assert "0 to play" in err
        players = 2 if command[0] == "compare" else 1
        assert len((ctx.dir / "games.jsonl").read_text().splitlines()) == 10 * players

    return stop


def by_a_disk_that_fills_up(ctx):
    """The second chunk's part fails to write (as on a full disk): one line naming the part,
    the first chunk stays for --resume, and no temporary file, table or --log file remains."""
    import pyarrow.parquet as pq

    write = pq.write_table
    calls = []

    def fail_second(table, where, *args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        return write(table, where, *args, **kwargs)

    ctx.monkeypatch.setattr(pq, "write_table", fail_second)
    code, out, err = run_main(["simulate", *PLAY, "--games", "40", "--chunk", "10", "--out", "run",
                               "--log", "games.jsonl"], ctx.capsys)
    assert_one_line_error(code, out, err, [str(Path("run") / "parts"), "No space left"])
    assert len(calls) == 2
    assert len(list((ctx.dir / "run" / "parts").glob("*.parquet"))) == 1
    assert not list((ctx.dir / "run").rglob("*.tmp"))
    assert not (ctx.dir / "run" / "games.parquet").exists()
    assert not (ctx.dir / "games.jsonl").exists()
    return ctx.dir / "run", None


CASES = {
    "stop-callback": by_its_stop_callback,
    "ctrl-c": by_ctrl_c,
    "chunk-cannot-be-written": by_a_chunk_that_cannot_be_written,
    "stop-callback-then-resume": by_its_stop_callback_then_resumed,
    "kill-9-then-resume": by_kill_9,
    "full-device-log-simulate-then-resume": by_a_full_device_for_the_log(["simulate"]),
    "full-device-log-compare-then-resume": by_a_full_device_for_the_log(
        ["compare", "-p", "random"]),
    "disk-fills-up": by_a_disk_that_fills_up,
}


@pytest.mark.parametrize("case", list(CASES))
def test_an_interrupted_run_keeps_its_finished_chunks(case, tmp_path, monkeypatch, capsys,
                                                      request):
    if "full-device" in case and not os.path.exists("/dev/full"):
        pytest.skip("needs /dev/full")
    monkeypatch.chdir(tmp_path)
    ctx = SimpleNamespace(dir=tmp_path, monkeypatch=monkeypatch, capsys=capsys, request=request)
    out, resume = CASES[case](ctx)  # the run stopped partway, and what it left checked
    if resume is not None:
        kept = part_stamps(out)
        assert kept, "no chunk was kept to resume from"
        resume(ctx, out, kept)  # it plays only the rest
        after = part_stamps(out)
        assert all(after[name] == stamp for name, stamp in kept.items()), \
            "a kept chunk was written again"
    assert not list(tmp_path.rglob("*.tmp")), "a temporary file was left"
