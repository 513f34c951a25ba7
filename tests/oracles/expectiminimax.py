"""An exact, plain-Python expectiminimax over the rules of RULES.md: the searchers' reference.

Written in the spirit of OpenSpiel's ``python/algorithms/minimax.py`` (``expectiminimax``):
a game state with ``is_terminal``, ``is_chance_node``, ``chance_outcomes``, ``legal_actions``
and ``child``, and one short recursion over it, by full enumeration to the end of the game.
It knows the rules from RULES.md alone and never imports ``numberup``; final grids are scored
by ``ref_game`` of :mod:`oracles.reference`. It is meant for tiny endgames (a few empty cells):
the tree grows as (actions x unseen cards) per card still to place.

A position is what the player knows (RULES.md "Information"): the grid, the cards in hand
(the card just drawn, or the hand of five on levels 18-20), the unseen cards, every one of
them equally likely to come next, and the discards left. Turn flow:

- chance node: the player holds fewer cards than the turn's capacity (1 in setup and on levels
  without a hand, 5 on levels 18-20 after setup) and unseen cards remain: the next card is
  drawn, uniformly over the unseen cards. So a hand level draws one card after each play
  while the deck (the unseen cards) is not empty, and five after setup.
- decision: a card of the hand goes on a cell on offer: during setup a free centre cell,
  afterwards an empty cell orthogonally next to a card; or, on levels 3 and 13 after setup
  while discards remain, the card just drawn is discarded.
- terminal: the grid is full; its value is the final result (objective ``"mean"``) or
  1.0 / 0.0 for result >= the medal's threshold (objectives ``"bronze"``, ``"silver"``,
  ``"gold"``), so a node's value is the expected result, or P(medal), under best play.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from .reference import LEVELS, card_text, deck as ref_deck, grid_text, ref_game

HAND = {18: 5, 19: 5, 20: 5}  # levels played from a hand of five
DISCARDS = {3: 2, 13: 2}  # levels whose player may discard a drawn card, and how often
OBJECTIVES = ("mean", "bronze", "silver", "gold")


def centre_cells(size: int) -> list:
    """The setup cells: [(2, 2)] on 5x5, the four centre cells on 6x6."""
    return [(2, 2)] if size == 5 else [(2, 2), (2, 3), (3, 2), (3, 3)]


@dataclass(frozen=True)
class Position:
    """What the player knows. ``grid``: rows of ``(value, colour)`` or ``None``; ``hand``: the
    cards held now; ``unseen``: the cards that may come next, each equally likely."""

    level: int
    grid: tuple
    hand: tuple
    unseen: tuple
    discards_left: int = 0

    @property
    def size(self) -> int:
        return LEVELS[self.level].size

    def filled(self) -> int:
        return sum(cell is not None for row in self.grid for cell in row)

    def in_setup(self) -> bool:
        return self.filled() < len(centre_cells(self.size))

    def capacity(self) -> int:
        """Cards held in this turn: 1 in setup and without a hand, else the hand size."""
        return 1 if self.in_setup() or self.level not in HAND else HAND[self.level]

    # -- the game-state interface of OpenSpiel's expectiminimax

    def is_terminal(self) -> bool:
        return self.filled() == self.size * self.size

    def is_chance_node(self) -> bool:
        return len(self.hand) < self.capacity() and len(self.unseen) > 0

    def chance_outcomes(self) -> list:
        """[(card, probability)]: the next card, uniform over the unseen cards."""
        return [(card, 1.0 / len(self.unseen)) for card in self.unseen]

    def legal_actions(self) -> list:
        """[(card, (row, col))] placements, and (card, None) for a discard."""
        n = self.size
        if self.in_setup():
            cells = [rc for rc in centre_cells(n) if self.grid[rc[0]][rc[1]] is None]
        else:
            cells = [
                (r, c) for r in range(n) for c in range(n) if self.grid[r][c] is None and any(
                    0 <= rr < n and 0 <= cc < n and self.grid[rr][cc] is not None
                    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))
            ]
        actions = [(card, cell) for card in self.hand for cell in cells]
        if self.level in DISCARDS and self.discards_left > 0 and not self.in_setup():
            actions.append((self.hand[0], None))
        return actions

    def child(self, action_or_card) -> "Position":
        """The position after a chance outcome (a card) or an action (card, cell or None)."""
        if self.is_chance_node():
            card = action_or_card
            unseen = tuple(c for c in self.unseen if c != card)
            return replace(self, hand=self.hand + (card,), unseen=unseen)
        card, cell = action_or_card
        hand = tuple(c for c in self.hand if c != card)
        if cell is None:
            return replace(self, hand=hand, discards_left=self.discards_left - 1)
        grid = [list(row) for row in self.grid]
        grid[cell[0]][cell[1]] = card
        return replace(self, grid=tuple(map(tuple, grid)), hand=hand)

    def returns(self, objective: str = "mean") -> float:
        result = ref_game(self.level, self.grid)
        if objective == "mean":
            return float(result)
        threshold = LEVELS[self.level].medals[OBJECTIVES.index(objective) - 1]
        return 1.0 if result >= threshold else 0.0


def expectiminimax(state: Position, objective: str = "mean") -> float:
    """The exact value of ``state``: chance nodes average, decisions maximise."""
    if state.is_terminal():
        return state.returns(objective)
    if state.is_chance_node():
        return sum(p * expectiminimax(state.child(card), objective)
                   for card, p in state.chance_outcomes())
    actions = state.legal_actions()
    assert actions, f"no legal action in a non-terminal position: {state}"
    return max(expectiminimax(state.child(a), objective) for a in actions)


def action_values(state: Position, objective: str = "mean") -> dict:
    """{action: exact value} for every legal action of a decision node."""
    assert not state.is_terminal() and not state.is_chance_node()
    return {a: expectiminimax(state.child(a), objective) for a in state.legal_actions()}


def outcomes(state: Position, objective: str = "mean") -> list:
    """[(probability, final result)] when the player maximises ``objective`` from here on
    (ties: the first action): the distribution behind :func:`expectiminimax`'s mean."""
    if state.is_terminal():
        return [(1.0, ref_game(state.level, state.grid))]
    if state.is_chance_node():
        return [(p * q, r) for card, p in state.chance_outcomes()
                for q, r in outcomes(state.child(card), objective)]
    values = action_values(state, objective)
    best = max(values, key=values.get)
    return outcomes(state.child(best), objective)


# ---------------------------------------------------------------------------------------------
# Random positions, and their text for numberup


def random_position(level: int, empty: int, rng: random.Random, discards_used: int = 0,
                    discards_left: int | None = None, greedy: bool = False) -> tuple:
    """(position, discarded cards): a random deal played by the rules until ``empty`` cells
    remain, with ``discards_used`` cards discarded on the way, then the card(s) for the next
    turn in hand. Each card goes on a random legal cell, or with ``greedy`` on one that
    maximises ``ref_game`` of the grid so far (grids near the medals). ``discards_left``
    defaults to the level's discards less those used."""
    lv = LEVELS[level]
    n = lv.size
    cards = ref_deck(level)
    rng.shuffle(cards)
    gone, cards = cards[:discards_used], cards[discards_used:]
    grid = [[None] * n for _ in range(n)]
    for k, (r, c) in enumerate(rng.sample(centre_cells(n), len(centre_cells(n)))):
        grid[r][c] = cards.pop()
    while sum(cell is None for row in grid for cell in row) > empty:
        pos = Position(level, tuple(map(tuple, grid)), (cards[-1],), ())
        cells = [cell for _, cell in pos.legal_actions()]
        if greedy:
            score = {cell: ref_game(level, pos.child((cards[-1], cell)).grid) for cell in cells}
            cells = [cell for cell in cells if score[cell] == max(score.values())]
        r, c = rng.choice(cells)
        grid[r][c] = cards.pop()
    held = min(HAND.get(level, 1), len(cards))
    hand, unseen = tuple(cards[len(cards) - held:]), tuple(cards[:len(cards) - held])
    if discards_left is None:
        discards_left = DISCARDS.get(level, 0) - discards_used
    return Position(level, tuple(map(tuple, grid)), hand, unseen, discards_left), gone


def position_texts(state: Position, gone=()) -> tuple:
    """(grid text, hand text, discarded text) as ``numberup advise`` reads them."""
    return (grid_text(state.grid), " ".join(card_text(c) for c in state.hand),
            " ".join(card_text(c) for c in gone))
