"""Checks shared by the CLI tests: run a command, run the real entry point, and judge a
one-line error."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import numberup_cli.commands  # noqa: F401  (registers the commands on the group)
import numberup_cli.reports  # noqa: F401  (registers plot and campaign)
import numberup_cli.runs  # noqa: F401  (registers merge)
from numberup_cli.main import cli, main


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


def assert_one_line_error(code, out, err, must_name=()):
    """Exit status 2, one ``numberup: error:`` line on stderr naming each of ``must_name``,
    no traceback and nothing on stdout."""
    assert code == 2, f"exit status {code}, stderr:\n{err}"
    assert "Traceback" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1, f"stderr is {len(lines)} lines, not one:\n{err}"
    assert lines[0].startswith("numberup: error: "), err
    for thing in must_name:
        assert thing in lines[0], f"the message does not name {thing!r}: {lines[0]}"
    assert out == "", f"something was printed on stdout before the error:\n{out}"
