"""Help texts and start-up: every command and option has help, ``--help`` and ``-h`` answer,
and neither importing the command line nor ``numberup --help`` loads the heavy libraries."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from numberup_cli.group import cli
from numberup_cli.main import main  # (importing it puts every command on the group)


def _walk(command, path=()):
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from _walk(sub, path + (name,))


COMMANDS = list(_walk(cli))


@pytest.mark.parametrize("path, command", COMMANDS,
                         ids=[" ".join(p) or "numberup" for p, _ in COMMANDS])
def test_help(path, command):
    assert (command.help or "").strip(), f"'numberup {' '.join(path)}' has no help text"
    for param in command.params:
        if isinstance(param, click.Option) and param.name not in ("help", "version"):
            assert (param.help or "").strip(), (
                f"'numberup {' '.join(path)}' option {param.opts[0]} has no help text"
            )
    for flag in ("--help", "-h"):
        result = CliRunner().invoke(cli, [*path, flag])
        assert result.exit_code == 0, result.output
        assert result.output.startswith("Usage: "), result.output
        first_help_line = command.help.strip().splitlines()[0].strip()
        assert first_help_line.split()[0] in result.output


def test_commands_exist():
    assert {"levels", "score", "simulate"} <= set(cli.commands)


def test_main_help_succeeds(capsys):
    try:
        main(["--help"])
    except SystemExit as exc:
        assert exc.code in (0, None)
    out, err = capsys.readouterr()
    assert out.startswith("Usage: ") and err == ""


def test_import_is_light():
    code = (
        "import sys, numberup_cli.main\n"
        "heavy = [m for m in ('numba', 'pandas', 'matplotlib') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "", f"importing numberup_cli.main loads {proc.stdout.strip()}"


def test_help_is_light():
    """``numberup --help`` (which registers every command) loads none of the heavy modules,
    numpy included: it answers in well under 0.3 s (measured in benchmarks/README.md)."""
    code = (
        "import sys, contextlib, io\n"
        "from numberup_cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        "        main(['--help'])\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = [m for m in ('numpy', 'numba', 'pandas', 'matplotlib', 'pyarrow', 'rich')\n"
        "         if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "", f"'numberup --help' loads {proc.stdout.strip()}"
