"""Checks shared by the CLI tests: run a command, run the real entry point, judge a one-line
error, and make the run directories several tests read."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from numberup_cli.group import cli

from numberup_cli.main import main


def _register_commands() -> None:
    """Register every command on the group, as ``numberup`` does: main() imports the modules
    that define them, so a module added there is seen here too."""
    with CliRunner().isolation():
        try:
            main(["--help"])
        except SystemExit:
            pass


_register_commands()


def invoke(args, input=None) -> str:
    """Run ``numberup args`` in-process (``input``: its stdin) and return its stdout; it must
    succeed."""
    result = CliRunner().invoke(cli, args, input=input)
    assert result.exit_code == 0, (
        f"numberup {' '.join(args)} exited {result.exit_code}:\n{result.output}\n{result.exception!r}"
    )
    return result.stdout


def run_main(argv, capsys) -> tuple[int, str, str]:
    """Run ``numberup argv`` as the console script does: (exit status, stdout, stderr)."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def run_command(argv, capsys) -> tuple[int, str, str]:
    """:func:`run_main` for a command that may also end by returning (status 0), as ``train``
    does when it succeeds."""
    try:
        main(argv)
    except SystemExit as exc:
        out, err = capsys.readouterr()
        return exc.code, out, err
    out, err = capsys.readouterr()
    return 0, out, err


NOTICE = re.compile(r"numberup: compiling the game kernels for .+ \(first run only\)\.\.\.\n"
                    r"numberup: compiled in \d+ s")


def assert_one_line_error(code, out, err, must_name=()):
    """Exit status 2, one ``numberup: error:`` line on stderr naming each of ``must_name``,
    no traceback and nothing on stdout. An error found after the kernels were compiled may
    follow the two lines of the compile notice (numberup.jit.compile_notice), which a cold
    cache prints whichever test comes first: they are not part of the error."""
    assert code == 2, f"exit status {code}, stderr:\n{err}"
    assert "Traceback" not in err, err
    lines = err.splitlines()
    if len(lines) == 3 and NOTICE.fullmatch("\n".join(lines[:2])):
        lines = lines[2:]
    assert len(lines) == 1, f"stderr is {len(lines)} lines, not one:\n{err}"
    assert lines[0].startswith("numberup: error: "), err
    for thing in must_name:
        assert thing in lines[0], f"the message does not name {thing!r}: {lines[0]}"
    assert out == "", f"something was printed on stdout before the error:\n{out}"


def run_isolated(argv, stdin: bytes = b"") -> tuple[int, str, str]:
    """Run ``numberup argv`` as the console script does, with ``stdin`` as its standard input
    and no pytest fixture (so it can run inside a hypothesis test): (exit status, stdout,
    stderr). An exception that escapes :func:`main` (a traceback) propagates."""
    with CliRunner().isolation(input=stdin) as (stdout, stderr, _):
        try:
            main(list(argv))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        return (code, stdout.getvalue().decode("utf-8", "replace"),
                stderr.getvalue().decode("utf-8", "replace"))


def simulate_runs(tmp_path_factory) -> dict:
    """Two directories as ``numberup simulate --out`` writes them: greedy and random players,
    levels 1, 3 and 14, 50 games each ({player: directory}; for a module-scoped fixture)."""
    dirs = {}
    for policy in ("greedy", "random"):
        out = tmp_path_factory.mktemp(policy)
        invoke(["simulate", "--level", "1,3,14", "--games", "50", "--policy", policy,
                "--out", str(out), "--no-progress", "--json"])
        dirs[policy] = out
    return dirs
