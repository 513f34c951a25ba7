"""The learned player (numberup.players.learned): it plays with the package's model times the
model's scale, or the scale its spec names; expectimax:eval=learned and rollouts of base
learned carry the same model, and expectimax:eval=learned plays the learned player's games one
move deep (the games replay legally: tests/players/test_replay.py)."""

from __future__ import annotations

import numpy as np
import pytest

from numberup.game.levels import get_level
from numberup.learned import modelfile as MF


def test_the_player_plays_with_the_scaled_model():
    """The learned player's scratch carries the package's model times the model's own scale,
    or times the scale its spec names; expectimax:eval=learned and rollout bases the model's."""
    from numberup.players.registry import parse_player
    from numberup.players.scratch import new_scratch

    lv = get_level(17)
    weights, facts = MF.load_model(17)
    assert 0.0 <= facts["scale"] <= 1.0
    for spec, scale in (("learned", facts["scale"]), ("learned:scale=0.25", 0.25),
                        ("learned:scale=0", 0.0), ("expectimax:eval=learned", facts["scale"])):
        assert np.array_equal(new_scratch(lv, parse_player(spec)).learned, weights * scale), spec
    base = new_scratch(lv, parse_player("rollout:base=learned")).base.X.learned
    assert np.array_equal(base, weights * facts["scale"])


@pytest.mark.parametrize("level", range(1, 21), ids=[f"level-{n}" for n in range(1, 21)])
def test_eval_learned_plays_the_learned_player_one_move_deep(level):
    """expectimax:eval=learned plays the kernel one move deep, as learned:depth=1 does (the
    learned player's default looks at the next card where that is cheap: value-count rules)."""
    from numberup.evaluation.exact import VALUES, family
    from numberup.players.registry import parse_player
    from numberup.runs.simulate import run

    spec = "learned" if family(level) != VALUES else "learned:depth=1"
    one_move = run(get_level(level), parse_player(spec), 2, seed=11, jobs=1)
    same = run(get_level(level), parse_player("expectimax:eval=learned"), 2, seed=11, jobs=1)
    assert same.all_scores.tolist() == one_move.all_scores.tolist()
