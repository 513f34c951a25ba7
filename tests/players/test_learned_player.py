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
    """expectimax:eval=learned plays the kernel one move deep, as learned:depth=1 does; the
    learned player's default (depth 0) looks at the next card only where that is cheap
    (value-count rules without a hand) and elsewhere plays depth 1's games: with its own
    look-ahead kernel, and with the one-move kernel that at_level gives it there."""
    from dataclasses import replace

    from numberup.evaluation.exact import VALUES, family
    from numberup.game.levels import P_HAND, PARAMS
    from numberup.players.registry import at_level, parse_player
    from numberup.runs.simulate import run

    looks = family(level) == VALUES and PARAMS[level][P_HAND] == 0
    default = parse_player("learned")
    assert at_level(default, level).loop_name == ("learned_plain_depth2" if looks else "learned_plain")
    assert at_level(default, level).spec == "learned"
    one_move = run(get_level(level), parse_player("learned:depth=1"), 2, seed=11, jobs=1)
    same = run(get_level(level), parse_player("expectimax:eval=learned"), 2, seed=11, jobs=1)
    assert same.all_scores.tolist() == one_move.all_scores.tolist()
    if not looks:  # depth 0 with the look-ahead kernel, not the one at_level chooses
        raw = replace(default, kind=replace(default.kind, on_level=None))
        assert raw.loop_name == "learned_plain_depth2"
        zero = run(get_level(level), raw, 2, seed=11, jobs=1)
        assert zero.all_scores.tolist() == one_move.all_scores.tolist()
