"""A disk that fills up during a run: one line naming the file, exit status 2, the finished
chunks kept and nothing left half-written (files that cannot be read and paths that cannot be
written: tests/cli/test_bad_input.py)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from oracles.cli_checks import assert_one_line_error, run_isolated, run_main

PLAY = ["--level", "14", "--games", "10", "--policy", "greedy", "--jobs", "1", "--no-progress"]


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "garbage").write_bytes(b"\xff\xfe\x00garbage")
    (tmp_path / "latin1.txt").write_bytes("1r 2r 3r 4r 5\xe9\n".encode("latin-1"))
    (tmp_path / "huge.txt").write_text("1r " * 100_000 + "\n")
    (tmp_path / "adir").mkdir()
    return tmp_path


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("command", [["simulate"], ["compare", "-p", "random"]])
def test_full_disk_log(command, files, capsys):
    """--log on a full device: the run stops with one line naming the file; the finished games
    stay in --out's run directory, and --resume with a log that can be written finishes the
    run without playing them again. The device itself is written in place, never replaced."""
    code, out, err = run_main([*command, *PLAY, "--log", "/dev/full", "--out", "run/a"], capsys)
    assert_one_line_error(code, out, err, ["/dev/full", "No space left"])
    assert Path("/dev/full").is_char_device()
    assert (files / "run" / "a" / "manifest.json").is_file()
    code, out, err = run_isolated([*command, *PLAY, "--log", "games.jsonl", "--out", "run/a",
                                   "--resume"])
    assert code == 0, err
    assert "0 to play" in err
    players = 2 if command[0] == "compare" else 1
    assert len((files / "games.jsonl").read_text().splitlines()) == 10 * players


def test_disk_full_mid_run_keeps_what_is_finished(files, capsys, monkeypatch):
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

    monkeypatch.setattr(pq, "write_table", fail_second)
    code, out, err = run_main(["simulate", *PLAY, "--games", "40", "--chunk", "10", "--out", "run",
                               "--log", "games.jsonl"], capsys)
    assert_one_line_error(code, out, err, [str(Path("run") / "parts"), "No space left"])
    assert len(calls) == 2
    assert len(list((files / "run" / "parts").glob("*.parquet"))) == 1
    assert not list((files / "run").rglob("*.tmp"))
    assert not (files / "run" / "games.parquet").exists()
    assert not (files / "games.jsonl").exists()
