"""A player's working arrays: :class:`Scratch`, sized from the level by :func:`new_scratch`.

Every player gets one :class:`Scratch` for a game at a time, and the kernels of the players
and searchers (:mod:`numberup.evaluation.sampled`, :mod:`numberup.players`) index its arrays by name. A
rollout's base player has a scratch of its own (:class:`Base`). Allocation is plain Python.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..evaluation.endgame import Endgame, new_endgame
from ..evaluation.exact import new_exact
from ..evaluation.streets import new_streets
from ..evaluation.layout import DIST_HI, DIST_LO, EVAL_WIDTH, MAX_DEPTH, N_VALUE
from ..game.state import MAX_LINE_CELLS, MAX_LINES, N_IDS, State, new_state
from ..learned.features import MAX_FEATURES
from ..learned.modelfile import empty_table, model_for, read_only


class Scratch(NamedTuple):
    """A player's working arrays for one game at a time, sized from the level
    (:func:`new_scratch`); kernels index them by name, never by a shared row convention.

    cand : int64 (MAX_DEPTH, cells)   the cells on offer at each decision depth of a search
                                      (0: the game's own decision; 1: the decision below it,
                                      expectimax's after the next card or a rollout's moves)
    draws : int64 (48,)               the cards a chance node draws from (expectimax), or
                                      the next cards the learned player's look tries
    pool : int64 (48,)                the cards still to come, for completions
    order : int64 (actions,)          rollouts' surviving actions, best first
    values : float64 (actions, 5)     each action's estimate (mean, P(bronze), P(silver),
                                      P(gold), and a searcher's own fifth entry)
    line_eval : float64 (14, EVAL_WIDTH)  each line's estimated final contribution: mean,
                                      variance, P(value >= bronze/silver/gold line target),
                                      and on levels scored by the lowest line P(value >= t)
                                      for t = DIST_LO + 1 .. DIST_HI
    saved : float64 (MAX_DEPTH, 4, EVAL_WIDTH)  the estimates of the lines through a cell
                                      tried at each decision depth, to restore them
    best, child : float64 (MAX_DEPTH, 5)  node values at each decision depth: the best action
                                      so far, and the action being judged
    chance_sum, drawn : float64 (5,)  a chance node's running sum, and the value after one card
    deck : int8 (deck,)               a rollout's order of the cards to come
    T : State                         a rollout's copy of the state
    learned : float64 (weights,)      the learned evaluation's weights
                                      (:mod:`numberup.learned.value`); empty: none
    values_left, colours_left : int64 (8,)  the learned evaluation's count of the cards
                                      still to come, by value and by colour
    masks_left : int64 (8,)           per colour, the bit mask of its values still to come
    features : int64 (MAX_FEATURES,)  the learned evaluation's weight indices of one line
    predicted : float64 (14,)         the learned evaluation's prediction of each line
    rows : int64 (14,)                on levels scored by the lowest line, each line's row of
                                      the learned cut table (-1: full)
    shift : float64 (14,)             ... and each open line's learned logit shift
    at_least : float64 (14, DIST_HI - DIST_LO)  on levels scored by the lowest line, each
                                      line's learned P(final value >= DIST_LO + 1 + i)
    kept : float64 (4, DIST_HI - DIST_LO + 2)  the learned state of the lines through the cell
                                      a move tries (prediction, shift, P(>= t)...), to put back
                                      after it
    kept_rows : int64 (4,)            ... and their cut table rows
    ahead : float64 (2, 14, 8)        the learned player's look at the next card
                                      (:mod:`numberup.learned.lookahead`): each line's prediction
                                      before and after one more card of each value
    ahead_cell : float64 (2, 4, 8)    ... and the same of the lines through the cell tried
    kept_ahead : float64 (2, 4, 8)    ... and ``ahead``'s rows of those lines, to put back
    ahead_keys : int64 (32,)          ... the value histograms of lines already looked at
    ahead_memo : float64 (2, 32, 8)   ... and their predictions before and after the card
    ahead_n : int64 (1,)              ... and how many there are
    plus : float64 (8,)               ... a line's random-completion mean after one more card
                                      of each value
    ahead_sum : float64 (8,)          ... and every line's prediction summed, before a next
                                      card of each value
    strata : int64 (6, 48)            each empty cell's order of the pool, for stratified
                                      completions (:mod:`numberup.evaluation.exact`)
    strata_cells : int64 (6,)         ... and the empty cells
    odometer : int64 (6,)             ... every completion of a line: each empty cell's place
                                      in the pool
    strata_rng : uint64 (1,)          ... and their random stream
    endgame : Endgame                 the exact endgame's tree (:mod:`numberup.evaluation.endgame`)
    exact : Exact                     the exact line estimates' tables (:mod:`numberup.evaluation.exact`)
    streets : Streets                 the street chain's arrays (:mod:`numberup.evaluation.streets`)
    base : Base, or float64 (0,)      a rollout's base player: its own scratch and parameters
                                      (``PlayerType.base``); none: an empty array
    prior : Base, or float64 (0,)     the player that ranks a rollout's actions before any
                                      rollout (``PlayerType.prior``); none: an empty array

    ``actions`` is the most actions a decision of the level can have: hand x cells, and a
    discard.
    """

    cand: np.ndarray
    draws: np.ndarray
    pool: np.ndarray
    order: np.ndarray
    values: np.ndarray
    line_eval: np.ndarray
    saved: np.ndarray
    best: np.ndarray
    child: np.ndarray
    chance_sum: np.ndarray
    drawn: np.ndarray
    deck: np.ndarray
    T: State
    learned: np.ndarray
    values_left: np.ndarray
    colours_left: np.ndarray
    masks_left: np.ndarray
    features: np.ndarray
    predicted: np.ndarray
    rows: np.ndarray
    shift: np.ndarray
    at_least: np.ndarray
    kept: np.ndarray
    kept_rows: np.ndarray
    ahead: np.ndarray
    ahead_cell: np.ndarray
    kept_ahead: np.ndarray
    ahead_keys: np.ndarray
    ahead_memo: np.ndarray
    ahead_n: np.ndarray
    plus: np.ndarray
    ahead_sum: np.ndarray
    strata: np.ndarray
    strata_cells: np.ndarray
    odometer: np.ndarray
    strata_rng: np.ndarray
    endgame: Endgame
    exact: object
    streets: object
    base: object
    prior: object


class Base(NamedTuple):
    """A player a search calls (a rollout's base, which plays its games out, or its prior,
    which ranks its actions), with arrays of its own: it never touches the searcher's (a
    rollout keeps ``values``, ``order``, ``deck``, ``cand[1]`` and ``T`` in use while its base
    plays).

    X : Scratch           the player's scratch (:func:`new_scratch` of the player)
    params : float64 (n,)  the player's parameters
    """

    X: Scratch
    params: np.ndarray


def max_actions(level) -> int:
    """The most actions a decision of ``level`` can have: every hand slot x cell, a discard."""
    return max(level.hand, 1) * level.cells + 1


def _called(level, player) -> Base | np.ndarray:
    """The :class:`Base` of a player another one calls (its own scratch and parameters), or
    an empty array for none."""
    if player is None:
        return np.zeros(0, np.float64)
    return Base(new_scratch(level, player), player.params)


def new_scratch(level, player=None, weights=None) -> Scratch:
    """Allocate a :class:`Scratch` for games of ``level`` (a :class:`~numberup.game.levels.Level`)
    by ``player`` (its learned model, if it asks for one: :func:`numberup.learned.modelfile.model_for`;
    its base player's and its prior's own scratches, if it has them). ``weights``: the learned
    weights it carries instead (training's, a test's), as a read-only view
    (:func:`~numberup.learned.modelfile.read_only`: kernels are compiled for those only)."""
    kind = player.kind if player is not None else None
    base = _called(level, kind.base(player.params) if kind and kind.base else None)
    prior = _called(level, kind.prior(player.params) if kind and kind.prior else None)
    actions = max_actions(level)
    return Scratch(
        np.zeros((MAX_DEPTH, level.cells), np.int64),
        np.zeros(N_IDS, np.int64),
        np.zeros(N_IDS, np.int64),
        np.zeros(actions, np.int64),
        np.zeros((actions, N_VALUE), np.float64),
        np.zeros((MAX_LINES, EVAL_WIDTH), np.float64),
        np.zeros((MAX_DEPTH, 4, EVAL_WIDTH), np.float64),
        np.zeros((MAX_DEPTH, N_VALUE), np.float64),
        np.zeros((MAX_DEPTH, N_VALUE), np.float64),
        np.zeros(N_VALUE, np.float64),
        np.zeros(N_VALUE, np.float64),
        np.zeros(level.deck_size, np.int8),
        new_state(level.cells),
        (read_only(weights) if weights is not None
         else empty_table() if player is None else model_for(level, player)),
        np.zeros(8, np.int64),
        np.zeros(8, np.int64),
        np.zeros(8, np.int64),
        np.zeros(MAX_FEATURES, np.int64),
        np.zeros(MAX_LINES, np.float64),
        np.zeros(MAX_LINES, np.int64),
        np.zeros(MAX_LINES, np.float64),
        np.zeros((MAX_LINES, DIST_HI - DIST_LO), np.float64),
        np.zeros((4, DIST_HI - DIST_LO + 2), np.float64),
        np.zeros(4, np.int64),
        np.zeros((2, MAX_LINES, 8), np.float64),
        np.zeros((2, 4, 8), np.float64),
        np.zeros((2, 4, 8), np.float64),
        np.zeros(32, np.int64),
        np.zeros((2, 32, 8), np.float64),
        np.zeros(1, np.int64),
        np.zeros(8, np.float64),
        np.zeros(8, np.float64),
        np.zeros((MAX_LINE_CELLS, N_IDS), np.int64),
        np.zeros(MAX_LINE_CELLS, np.int64),
        np.zeros(MAX_LINE_CELLS, np.int64),
        np.zeros(1, np.uint64),
        new_endgame(level),
        new_exact(level),
        new_streets(level),
        base,
        prior,
    )
