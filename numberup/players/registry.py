"""Players: the registry of player specs.

Each player is one module of :mod:`numberup.players` declaring ``PLAYER`` (a
:class:`~numberup.players.base.PlayerType`: name, help, parameters, flags and its kernel), and
one entry in :data:`MODULES`. A spec such as ``greedy`` or ``rollout:n=200,base=greedy`` is
parsed here, in one place, by :func:`parse_player`; the game loop is compiled per player
(:func:`numberup.runs.loop.game_loop`), so a command compiles only the player it runs.
"""

from __future__ import annotations

from dataclasses import replace

from ..errors import InputError
from . import best, expectimax, greedy, learned, random, rollout
from .base import Player, PlayerType, parse_spec

# The player modules, in the order commands list them (a new player: its module, and a line
# here).
MODULES = (random, greedy, expectimax, rollout, learned, best)

# every player's declaration, by name
PLAYERS: dict[str, PlayerType] = {m.PLAYER.name: m.PLAYER for m in MODULES}


def parse_player(spec: str) -> Player:
    """Parse ``name[:key=value,...]`` into a :class:`Player`; unknown names or keys raise
    :class:`~numberup.errors.InputError` listing what exists."""
    name, _, rest = spec.strip().partition(":")
    kind = PLAYERS.get(name)
    if kind is None:
        raise InputError(f"unknown player {name!r}: choose from {', '.join(PLAYERS)}")
    return parse_spec(kind, rest)


def at_level(player: Player, level: int) -> Player:
    """The player that plays for ``player`` on level ``level`` (a number): itself, or for a
    player that stands for another per level (``best``), the spec it names there; with the
    parameters that play its games there with the least code (``PlayerType.on_level``)."""
    if player.kind.resolve is not None:
        player = parse_player(player.kind.resolve(player.params, level))
    if player.kind.on_level is not None:
        player = replace(player, params=player.kind.on_level(player.params, level))
    return player
