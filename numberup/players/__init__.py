"""Players: the registry of player specs.

Each player is one module of this package declaring ``PLAYER`` (a
:class:`~numberup.players.base.PlayerType`: name, help, parameters, flags and its kernel), and
one entry in :data:`MODULES`. A spec such as ``greedy`` or ``rollout:n=200,base=greedy`` is
parsed here, in one place, by :func:`parse_player`; the game loop is compiled per player
(:func:`numberup.play.game_loop`), so a command compiles only the player it runs.
"""

from __future__ import annotations

import importlib

from ..cards import InputError
from .base import LATE_CELLS, OBJECTIVE_HELP, OBJECTIVES, Param, Player, PlayerType, parse_spec

__all__ = ["LATE_CELLS", "MODULES", "OBJECTIVE_HELP", "OBJECTIVES", "PLAYERS", "Param", "Player",
           "PlayerType", "parse_player", "register"]

# The player modules, in the order of their ids (a new player: its module, and a line here).
MODULES = ("random", "greedy", "expectimax", "rollout", "learned")

PLAYERS: dict[str, PlayerType] = {}


def register(kind: PlayerType) -> PlayerType:
    """Add ``kind`` to :data:`PLAYERS`, with its place in the registry as its id."""
    from dataclasses import replace

    kind = replace(kind, id=len(PLAYERS))
    PLAYERS[kind.name] = kind
    return kind


for _name in MODULES:
    register(importlib.import_module(f"{__name__}.{_name}").PLAYER)


def parse_player(spec: str) -> Player:
    """Parse ``name[:key=value,...]`` into a :class:`Player`; unknown names or keys raise
    :class:`~numberup.cards.InputError` listing what exists."""
    name, _, rest = spec.strip().partition(":")
    kind = PLAYERS.get(name)
    if kind is None:
        raise InputError(f"unknown player {name!r}: choose from {', '.join(PLAYERS)}")
    return parse_spec(kind, rest)
