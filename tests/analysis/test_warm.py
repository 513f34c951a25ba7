"""The warm start: a player's own game on a deal, replayed legally through the engine."""

import numpy as np
import pytest

from numberup.analysis.hindsight import Foresight
from numberup.analysis.warm import player_game
from numberup.game.cards import deal
from numberup.game.rng import game_seed
from oracles.replay import replay


@pytest.mark.parametrize("level", [4, 19])
def test_warm_game_is_the_players_game_on_the_same_deck_and_replays_legally(level):
    for game in range(2):
        score, deck, moves = player_game(level, 2026, game)
        assert np.array_equal(deck, deal(level, 2026, game))
        found = Foresight(level, game, game_seed(2026, game), score, None, False, deck, moves)
        replay(found.record(), level)  # legal, and its score is the one recorded
