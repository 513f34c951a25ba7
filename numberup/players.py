"""Players: the registry of player specs, and the simple players' kernels.

A player is an integer id and a ``float64`` parameter array, both passed into the one compiled
game loop (:mod:`numberup.play`); a spec such as ``greedy`` or ``rollout:n=200,base=greedy``
is parsed here, in one place, by :func:`parse_player`.

Every player kernel has the same shape: it reads the state (:mod:`numberup.engine`), the
cells on offer ``cand[:n_cand]`` and whether a discard is allowed, and returns
``(slot, cell)`` with ``cell = -1`` for a discard.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .cards import InputError
from .engine import I_HAND, _line_sums, _result, _result_if
from .rng import _below
from .jit import kernel

POLICY_RANDOM = 0
POLICY_GREEDY = 1
POLICY_EXPECTIMAX = 2
POLICY_ROLLOUT = 3

OBJECTIVES = ("mean", "bronze", "silver", "gold")
LATE_CELLS = 6  # on summed levels, a medal objective steers the last this many cards only
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
        if self.minimum is not None and value < self.minimum:
            raise InputError(f"player {player!r}: {name}={text} is below its minimum {self.minimum:g}")
        if self.maximum is not None and value > self.maximum:
            raise InputError(f"player {player!r}: {name}={text} is above its maximum {self.maximum:g}")
        return float(value)


@dataclass(frozen=True)
class PlayerType:
    name: str
    id: int
    help: str
    params: dict[str, Param] = field(default_factory=dict)


@dataclass(frozen=True)
class Player:
    """A parsed player spec: ``spec`` is its canonical text, ``params`` the kernel's array."""

    spec: str
    kind: PlayerType
    params: np.ndarray

    @property
    def id(self) -> int:
        return self.kind.id

    def param(self, name: str) -> float | str:
        """A parameter's value, by name (choices as their names)."""
        k = list(self.kind.params).index(name)
        par = self.kind.params[name]
        value = self.params[k]
        return par.choices[int(value)] if par.choices else (int(value) if par.integer else value)


PLAYERS: dict[str, PlayerType] = {}


def register(kind: PlayerType) -> PlayerType:
    PLAYERS[kind.name] = kind
    return kind


register(PlayerType("random", POLICY_RANDOM, "uniform over the legal actions (discards included)"))
register(PlayerType(
    "greedy", POLICY_GREEDY,
    "the action that maximises the level's score of the grid right after it; ties go to the "
    "larger sum of line values (which separates grids on levels scored by the lowest line or "
    "by checkmarkers), then at random (the player's own stream); a discard is taken only when "
    "every placement scores strictly less than the grid as it stands",
))


register(PlayerType(
    "expectimax", POLICY_EXPECTIMAX,
    "expectimax over the next cards with an evaluation of unfinished grids (each line's "
    "expected final value from random completions with the cards still to come)",
    {
        "depth": Param(1, "cards placed in the search tree, the current one included "
                          "(1: judge each move by the evaluation after it; 2: also average "
                          "over every next card and its best placement)", minimum=1,
                       maximum=2),
        "sample": Param(0, "chance nodes look at a random sample of this many next cards "
                           "(0: all of them)", minimum=0),
        "k": Param(64, "random completions per line in the evaluation", minimum=1),
        "objective": Param("mean", OBJECTIVE_HELP,
                           choices=OBJECTIVES),
    },
))
register(PlayerType(
    "rollout", POLICY_ROLLOUT,
    "Monte Carlo rollouts: every action is played out to the end by the base player on random "
    "orders of the unseen cards; successive halving spreads the budget",
    {
        "n": Param(200, "rollouts per decision (about; spread over the actions)", minimum=1),
        "base": Param("greedy", "the player of the rollouts", choices=("random", "greedy")),
        "objective": Param("mean", OBJECTIVE_HELP,
                           choices=OBJECTIVES),
    },
))


def parse_player(spec: str) -> Player:
    """Parse ``name[:key=value,...]`` into a :class:`Player`; unknown names or keys raise
    :class:`~numberup.cards.InputError` listing what exists."""
    name, _, rest = spec.strip().partition(":")
    kind = PLAYERS.get(name)
    if kind is None:
        raise InputError(f"unknown player {name!r}: choose from {', '.join(PLAYERS)}")
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


# ---------------------------------------------------------------------------------------------
# Kernels of the simple players.


@kernel(inline="always")
def _random_action(S, cand, n_cand, may_discard):
    """Uniform over hand slot x cell, plus one action for a discard when allowed."""
    n_hand = S.ints[I_HAND]
    n_actions = n_hand * n_cand + (1 if may_discard else 0)
    r = _below(S.rng, n_actions)
    if r == n_hand * n_cand:
        return 0, -1
    if n_hand == 1:  # one card: no division
        return 0, cand[r]
    return r // n_cand, cand[r % n_cand]


@kernel
def _greedy_action(p, geo, S, cand, n_cand, may_discard):
    """:func:`_greedy_inline` as a call (for the searchers' rollouts)."""
    return _greedy_inline(p, geo, S, cand, n_cand, may_discard)


@kernel(inline="always")
def _greedy_inline(p, geo, S, cand, n_cand, may_discard):
    """Best immediate score, then the larger sum of line values, then at random; a discard
    only when every placement scores strictly less than the grid as it stands."""
    best, best_sum, ties, best_slot, best_cell = -(1 << 40), -(1 << 40), 0, 0, cand[0]
    base_sum, base_markers = _line_sums(p, S)
    for slot in range(S.ints[I_HAND]):
        card = S.hand[slot]
        for k in range(n_cand):
            v, v_sum = _result_if(p, geo, S, card, cand[k], base_sum, base_markers)
            if v > best or (v == best and v_sum > best_sum):
                best, best_sum, ties, best_slot, best_cell = v, v_sum, 1, slot, cand[k]
            elif v == best and v_sum == best_sum:
                ties += 1
                if _below(S.rng, ties) == 0:
                    best_slot, best_cell = slot, cand[k]
    if may_discard and _result(p, S) > best:
        return 0, -1
    return best_slot, best_cell
