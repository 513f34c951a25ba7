"""The command group: every command module adds its commands to :data:`cli`.

It imports only click and the version string, so ``numberup --help`` answers at once.
"""

from __future__ import annotations

import click

from numberup import __version__

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(context_settings=CONTEXT)
@click.version_option(__version__, prog_name="numberup")
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
