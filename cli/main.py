"""Entry point and command group.

Start-up stays light: numba, pandas and matplotlib are imported inside the commands that need
them, never at module level, so ``numberup --help`` answers at once.
"""

from __future__ import annotations

import sys

import click

from numberup.errors import InputError

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(context_settings=CONTEXT)
@click.version_option(package_name="numberup")
def cli():
    """numberup: solver and Monte Carlo analyzer for Reiner Knizia's solo card game
    For One: Number Up.

    \b
    Cards are written value then colour letter (3g = green 3; colours r o y g b n p m),
    an empty cell is '.', and a grid is one row per text line.

    \b
    Examples:
      numberup levels                      the 20 levels at a glance
      numberup levels --level 14           one level's full rule, medals and rulings
      numberup score --level 1 grid.txt    score finished grids
    """


def main(argv=None) -> None:
    """Run the CLI; bad input ends with one line on stderr and exit status 2."""
    from . import commands  # noqa: F401  (registers the commands on the group)
    from . import reports  # noqa: F401  (registers plot)
    from . import campaign  # noqa: F401  (registers campaign)
    from . import play  # noqa: F401  (registers play and assist)
    from . import players  # noqa: F401  (registers players)
    from . import hindsight  # noqa: F401  (registers hindsight)
    from . import runs  # noqa: F401  (registers merge)
    from . import train  # noqa: F401  (registers train)
    from . import calibrate  # noqa: F401  (registers calibrate)

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
