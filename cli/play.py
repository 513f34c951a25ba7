"""play and assist: a person plays a level in the terminal, or gets help at the table.

Both parse their options and hand a :class:`numberup.interactive.session.Session` to
:class:`numberup.interactive.terminal.Table`, which reads typed lines and draws the screen.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .common import LEVEL_RANGE, QUICK_BEST
from .group import cli


def _writable(path, option):
    parent = Path(path).resolve().parent
    if not parent.is_dir():
        raise click.BadParameter(f"directory {parent} does not exist", param_hint=option)
    if Path(path).is_dir():
        raise click.BadParameter(f"{path} is a directory", param_hint=option)
    return path


def _session(mode, level, resume, **deal):
    """A new session, or the saved one (whose level must agree with --level if given)."""
    from numberup.errors import InputError
    from numberup.interactive.session import Session

    if resume is None:
        if level is None:
            raise click.UsageError("give --level N (or --resume FILE)")
        return Session(level, mode, **deal)
    s = Session.load(resume)
    if s.mode != mode:
        raise InputError(f"{resume}: a saved '{s.mode}' game: continue it with numberup {s.mode} "
                         "--resume")
    if level is not None and level != s.level.number:
        raise InputError(f"{resume}: a game of level {s.level.number}, not of --level {level}")
    return s


def _check_save(save, resume):
    """A new game never overwrites a game in progress, nor a file that is not a saved game."""
    from numberup.errors import InputError
    from numberup.interactive.session import Session

    if resume is not None and Path(save).resolve() == Path(resume).resolve():
        return
    if not Path(save).exists():
        return
    try:
        old = Session.load(save)
    except InputError:
        raise InputError(f"{save} exists and is not a saved game: choose another --save") from None
    if not old.done:
        raise InputError(f"{save} holds a game in progress: continue it with --resume {save}, "
                         "or choose another --save")


def _run(s, save, log, no_color, advisor, compare):
    from numberup.interactive.terminal import Table, make_console

    note = ""
    if advisor is not None and advisor.split(":")[0] == "best":
        from numberup.players.registry import at_level, parse_player

        plays = at_level(parse_player(advisor), s.level.number).spec
        note = (f"Hints by {advisor}: {plays} on this level ('numberup players best --level "
                f"{s.level.number}').")
    console, plain = make_console(no_color=no_color)
    table = Table(s, sys.stdin, console, plain, save, advisor=advisor, log_path=log,
                  compare=compare, note=note)
    sys.exit(table.run())


_common = [
    click.option("--save", type=click.Path(dir_okay=False), default=None,
                 help="Where the game is saved after every step [default: the --resume file, "
                      "else {play,assist}-levelN.json here]."),
    click.option("--resume", type=click.Path(dir_okay=False), default=None,
                 help="Continue a game saved by quit (or by any step)."),
    click.option("--log", type=click.Path(dir_okay=False), default=None,
                 help="Append the finished game to FILE as one line of simulate --log's JSON Lines."),
    click.option("--no-color", is_flag=True, help="No colours (plain text is also drawn when "
                                                  "the output is not a terminal)."),
]


def common_options(f):
    for opt in reversed(_common):
        f = opt(f)
    return f


def _advisor(spec):
    from numberup.interactive.terminal import check_player

    key = spec.strip().lower()
    if key in ("none", "off"):
        return None
    return check_player(QUICK_BEST if key == "auto" else spec)


@cli.command()
@click.option("--level", "-l", type=LEVEL_RANGE, default=None, help="The level (1-20).")
@click.option("--seed", "-s", type=click.IntRange(0), default=1, show_default=True,
              help="Master seed of the deal (as simulate's).")
@click.option("--game", "-g", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="Which game of the seed: the same deck simulate deals to game I.")
@click.option("--hints", default=QUICK_BEST, show_default=True, metavar="SPEC",
              help="The player behind 'hint' (any player spec, or 'none'): it ranks the best "
                   f"actions by what it reaches if it plays on from each ('{QUICK_BEST}': "
                   "the level's strongest measured setting within 32 ms a game, so that a hint "
                   "takes under a second).")
@click.option("--compare/--no-compare", default=True, show_default=True,
              help="At the end, play the solver on the same deal and place your score in its "
                   "distribution.")
@common_options
def play(level, seed, game, hints, compare, save, resume, log, no_color):
    """Play a level in the terminal, dealt from a seed, and compare with the solver.

    Game I of seed S is the deck 'numberup simulate --seed S' deals to its game I, so your
    result can be set beside the solver's on the very same cards. The screen shows the grid
    (columns a-f from the left, rows 1-6 from the top), each row's and column's points and
    markers, the card (or hand of five on levels 18-20), the discards left and the cards still
    to come. Type a cell (b3: column b, row 3; or 3 2: row 3, column 2), 'discard', 'hint',
    'undo', 'help' or 'quit'. The game is saved after every move; end of input or quit stops,
    and --resume FILE continues.

    \b
    Example:
      numberup play --level 14 --seed 7 --log mygames.jsonl
    """
    advisor = _advisor(hints)
    s = _session("play", level, resume, seed=seed, game=game)
    save = _writable(save or resume or f"play-level{s.level.number}.json", "--save")
    _check_save(save, resume)
    if log:
        _writable(log, "--log")
    _run(s, save, log, no_color, advisor, compare)


@cli.command()
@click.option("--level", "-l", type=LEVEL_RANGE, default=None, help="The level (1-20).")
@click.option("--policy", "-p", default=QUICK_BEST, show_default=True, metavar="SPEC",
              help="The player that proposes each move (any player spec, or 'none'), as "
                   "play's --hints.")
@click.option("--compare/--no-compare", default=True, show_default=True,
              help="At the end, place your score in the solver's distribution for the level.")
@common_options
def assist(level, policy, compare, save, resume, log, no_color):
    """Help with the physical game: type each card as you draw it, get a proposal.

    numberup keeps the position: type the card drawn (3g; on levels 18-20 the hand of five,
    e.g. 1r 2g 3b 4y 5o, and then each card drawn to refill it), and it proposes where it goes
    with what the player reaches after it. Press Enter to accept, or type another cell (b3 or 3 2),
    'discard', 'undo', 'hint', 'help' or 'quit'. A card already drawn, a card not in the level's
    deck or a cell that touches no card is explained and the game goes on. The position is
    saved after every step; --resume FILE continues.

    \b
    Example:
      numberup assist --level 13 --save table.json
    """
    advisor = _advisor(policy)
    s = _session("assist", level, resume)
    save = _writable(save or resume or f"assist-level{s.level.number}.json", "--save")
    _check_save(save, resume)
    if log:
        _writable(log, "--log")
    _run(s, save, log, no_color, advisor, compare)
