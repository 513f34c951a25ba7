"""The entry point: the command group with every command on it, and the one place that turns
bad input into one line on stderr and exit status 2.

Start-up stays light: numba, pandas and matplotlib are imported inside the commands that need
them, never at module level, so ``numberup --help`` answers at once.
"""

from __future__ import annotations

import sys

import click

from numberup.errors import InputError

# every command module registers its commands on the group as it is imported
from . import calibrate, campaign, commands, hindsight, play, players, reports, runs, train  # noqa: F401
from .group import cli


def main(argv=None) -> None:
    """Run the CLI; bad input ends with one line on stderr and exit status 2."""
    try:
        cli.main(args=argv, prog_name="numberup", standalone_mode=False)
    except InputError as err:
        _fail(str(err))
    except click.UsageError as err:
        hint = f" (see 'numberup {err.ctx.command_path.split(' ', 1)[1]} --help')" if (
            err.ctx and " " in err.ctx.command_path) else " (see 'numberup --help')"
        _fail(err.format_message() + hint)
    except click.ClickException as err:
        _fail(err.format_message())
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("numberup: interrupted", err=True)
        sys.exit(130)
    except click.exceptions.Exit as err:
        sys.exit(err.exit_code)
    except BrokenPipeError:
        sys.exit(0)
    except OSError as err:
        # A file that could not be written while the work ran (paths are checked before it
        # starts, but a disk can fill up): what and where, and nothing half-written is kept.
        where = f"{err.filename}: " if err.filename else ""
        _fail(f"{where}{err.strerror or err}")


def _fail(message: str) -> None:
    click.echo(f"numberup: error: {' '.join(message.split())}", err=True)
    sys.exit(2)
