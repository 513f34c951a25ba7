"""Warm start for hindsight: a registered player's own game on the same deal.

The learned player plays game ``i`` of master seed ``S`` exactly as ``simulate`` would (the
same deck, :func:`numberup.game.cards.deal`); its moves are replayed through the engine by the
foresight search (the whole game given as the prefix): a legal game to start the search
from. Not yet used by :func:`numberup.analysis.hindsight.solve` (issue 25's next step: found
= the better of the search and this game, with ``found_by``)."""

from __future__ import annotations

import numpy as np

from ..game.levels import Level, get_level

WARM_PLAYER = "learned"


def player_game(level: int | Level, seed: int, game: int, spec: str = WARM_PLAYER):
    """(score, deck int8, moves int8 (decisions, 2)) of ``spec``'s game ``game`` of ``seed``,
    its score checked by replaying its moves through the engine."""
    from ..players.registry import parse_player
    from ..runs.loop import play_batch
    from .hindsight import search

    lv = get_level(level)
    b = play_batch(lv, parse_player(spec), seed, int(game), 1, 1)
    score, deck, moves = int(b.scores[0]), b.decks[0].copy(), b.moves[0].copy()
    n = int(np.sum(moves[:, 0] >= 0))
    replayed, _ = search(lv, deck, prefix=moves[:n], width=1, pilots=0)
    if replayed != score:
        raise RuntimeError(f"the warm game {game} of level {lv.number} replays to {replayed}, "
                           f"not {score}")
    return score, deck, moves
