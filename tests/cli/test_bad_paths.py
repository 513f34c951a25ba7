"""Files that cannot be read and paths that cannot be written: one line naming the file and
the option, exit status 2, and nothing left half-written (the cases of issue 13 first; the
property test in test_bad_input.py covers the rest)."""

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


CASES = {
    # argv, what the message names
    "score-binary": (["score", "--level", "1", "garbage"], ["garbage", "binary"]),
    "score-not-utf8": (["score", "--level", "1", "latin1.txt"], ["latin1.txt", "line 1", "UTF-8"]),
    "score-huge-line": (["score", "--level", "1", "huge.txt"], ["huge.txt", "line 1", "300,000"]),
    "score-endless-binary": (["score", "--level", "1", "/dev/zero"], ["/dev/zero", "binary"]),
    "score-directory": (["score", "--level", "1", "adir"], ["adir", "directory"]),
    "advise-binary": (["advise", "--level", "14", "--card", "3g", "garbage"], ["garbage"]),
    "simulate-out-proc": (["simulate", *PLAY, "--out", "/proc/forbidden"],
                          ["--out", "/proc/forbidden"]),
    "simulate-out-under-device": (["simulate", *PLAY, "--out", "/dev/null/x"],
                                  ["--out", "/dev/null/x", "Not a directory"]),
    "simulate-out-is-file": (["simulate", *PLAY, "--out", "garbage"], ["--out", "garbage"]),
    "simulate-out-empty": (["simulate", *PLAY, "--out", ""], ["--out", "empty"]),
    "simulate-log-proc": (["simulate", *PLAY, "--log", "/proc/x"], ["--log", "/proc/x"]),
    "simulate-log-is-directory": (["simulate", *PLAY, "--log", "adir"], ["--log", "adir"]),
    "plot-out-proc": (["plot", "dist", *PLAY, "--out", "/proc/x"], ["--out", "/proc/x"]),
    "plot-output-proc": (["plot", "dist", *PLAY, "--output", "/proc/x.png"],
                         ["--output", "/proc/x.png"]),
    "plot-output-empty": (["plot", "dist", *PLAY, "--output", ""], ["--output", "empty"]),
    "campaign-out-device": (["campaign", "--games", "2", "--policy", "greedy", "--out",
                             "/dev/null"], ["--out", "/dev/null"]),
    "players-summary-binary": (["players", "--summary", "garbage"], ["garbage"]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_file_or_path(case, files, capsys):
    argv, must_name = CASES[case]
    if any(a.startswith(("/proc/", "/dev/")) for a in argv) and not Path("/proc/self").exists():
        pytest.skip("needs Linux's /proc and /dev")
    before = sorted(p.name for p in files.iterdir())
    code, out, err = run_main(argv, capsys)
    assert_one_line_error(code, out, err, must_name)
    assert sorted(p.name for p in files.iterdir()) == before, "a file was left behind"


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
