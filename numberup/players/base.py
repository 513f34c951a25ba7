"""What a player is: its declaration (:class:`PlayerType`), its parameters, and a parsed spec.

A player module declares one :class:`PlayerType`: its name, help, parameters, how it uses the
state (``looks_ahead``, ``tracks``) and its kernel ``action``, with the signature

    action(p, geo, S, X, cand, n_cand, may_discard, params) -> (hand slot, cell or -1)

``S`` is the state (:mod:`numberup.game.state`), ``X`` the player's scratch
(:class:`numberup.players.scratch.Scratch`, sized from the level), ``cand[:n_cand]`` the cells on offer,
``params`` the ``float64`` array of its parameters in declaration order. The game loop
(:mod:`numberup.runs.loop`) is compiled once per player, with that player's kernel inlined.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InputError
from ..evaluation.sampled import LATE_CELLS

OBJECTIVES = ("mean", "bronze", "silver", "gold")
OBJECTIVE_HELP = ("what to maximise: the mean score or P(medal); P(medal) steers throughout "
                  "on levels scored by the lowest line, and in the last "
                  f"{LATE_CELLS} cards of the others (the mean before)")


@dataclass(frozen=True)
class Param:
    default: float | str
    help: str
    choices: tuple[str, ...] = ()  # a named choice is passed to the kernel as its index
    minimum: float | None = None
    maximum: float | None = None
    integer: bool = True

    def parse(self, player: str, name: str, text: str) -> float:
        if self.choices:
            if text not in self.choices:
                raise InputError(
                    f"player {player!r}: {name}={text!r} is not one of {', '.join(self.choices)}"
                )
            return float(self.choices.index(text))
        try:
            value = int(text) if self.integer else float(text)
        except ValueError:
            kind = "a whole number" if self.integer else "a number"
            raise InputError(f"player {player!r}: {name}={text!r} is not {kind}") from None
        if not np.isfinite(value):
            raise InputError(f"player {player!r}: {name}={text!r} is not a finite number")
        if self.minimum is not None and value < self.minimum:
            raise InputError(f"player {player!r}: {name}={text} is below its minimum {self.minimum:g}")
        if self.maximum is not None and value > self.maximum:
            raise InputError(f"player {player!r}: {name}={text} is above its maximum {self.maximum:g}")
        return float(value)


@dataclass(frozen=True)
class PlayerType:
    """A player's declaration (one per player module).

    ``looks_ahead``: the player changes the state while it decides (and restores it), so the
    game loop hands it a copy of the cells on offer. ``tracks``: it reads the exact line
    scores as cards go down (else they are scored once, at the end). ``advises``: it fills
    ``X.values`` with every action's estimate, so ``advise`` can rank the actions.
    ``variant``: for a player whose code depends on its parameters, a function ``params ->
    (name, kernel)`` choosing the kernel (``action`` is then the default parameters' one): a
    variant compiles only its own code, under its own name. ``base``: for a player that plays
    games out with another player (rollouts), a function ``params -> Player`` giving that base
    player, whose own scratch and parameters it carries in ``X.base``
    (:class:`numberup.players.scratch.Base`). ``prior``: for a player that has another rank its
    actions first (a rollout's ``top`` and ``late``), a function ``params -> Player | None``
    giving that player, carried in ``X.prior`` likewise (None: no ranking); the actions it
    leaves out keep a count (``X.values[a, 4]``) of 0, and advice lists them as unjudged, in
    the order of the prior's values at the decision (``X.prior.X.values``), as the player
    ranked them. ``resolve``: for a player that stands for another one per level
    (``best``), a function ``(params, level number) -> spec`` naming it; such a player has no
    kernel (``action`` None) and is played as that spec
    (:func:`numberup.players.registry.at_level`). ``on_level``: for a player whose parameters
    play the same games with less code on some levels, a function ``(params, level number) ->
    params`` giving those parameters (the spec's text is kept): ``learned``'s depth 0 is
    depth 1 where it never looks ahead, whose kernel compiles in half the time.
    """

    name: str
    help: str
    action: Any  # the kernel
    params: dict[str, Param] = field(default_factory=dict)
    looks_ahead: bool = False
    tracks: bool = False
    advises: bool = False
    variant: Any = None
    base: Any = None
    prior: Any = None
    resolve: Any = None
    on_level: Any = None


@dataclass(frozen=True)
class Player:
    """A parsed player spec: ``spec`` is its canonical text, ``params`` the kernel's array."""

    spec: str
    kind: PlayerType
    params: np.ndarray

    @property
    def action(self):
        """The player's kernel for its parameters."""
        return self.kind.variant(self.params)[1] if self.kind.variant else self.kind.action

    @property
    def loop_name(self) -> str:
        """The name its compiled game loop is cached under: the player's, and its variant's."""
        if self.kind.variant is None:
            return self.kind.name
        return f"{self.kind.name}_{self.kind.variant(self.params)[0]}"

    def param(self, name: str) -> float | str:
        """A parameter's value, by name (choices as their names)."""
        k = list(self.kind.params).index(name)
        par = self.kind.params[name]
        value = self.params[k]
        return par.choices[int(value)] if par.choices else (int(value) if par.integer else value)


def parse_spec(kind: PlayerType, rest: str) -> Player:
    """The :class:`Player` of ``kind`` with parameters ``rest`` (``key=value,...``)."""
    name = kind.name
    values = {k: p.parse(name, k, str(p.default)) for k, p in kind.params.items()}
    given = []
    for item in filter(None, (s.strip() for s in rest.split(","))):
        key, eq, text = item.partition("=")
        key = key.strip()
        if key not in kind.params:
            takes = ", ".join(kind.params) or "no parameters"
            raise InputError(f"player {name!r} has no parameter {key!r} (it takes: {takes})")
        if not eq:
            raise InputError(f"player {name!r}: parameter {key!r} needs a value ({key}=...)")
        values[key] = kind.params[key].parse(name, key, text.strip())
        given.append(key)
    canon = name
    shown = [k for k in kind.params if k in given]
    if shown:
        par = kind.params
        canon += ":" + ",".join(
            f"{k}={par[k].choices[int(values[k])] if par[k].choices else _num(values[k])}" for k in shown
        )
    return Player(canon, kind, np.array(list(values.values()) or [0.0], dtype=np.float64))


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"
