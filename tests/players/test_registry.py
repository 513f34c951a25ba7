"""The player registry's parameter maxima: a spec above one is refused (an InputError: one line
from the command) instead of running for hours."""

from __future__ import annotations

import pytest

from numberup.errors import InputError
from numberup.players.registry import parse_player


@pytest.mark.parametrize("spec, name", [
    ("expectimax:k=4097", "k"), ("expectimax:k=99999999999", "k"),
    ("expectimax:sample=49", "sample"), ("rollout:n=100001", "n"),
])
def test_parameter_maxima(spec, name):
    """(The command's one-line error for each: tests/cli/test_bad_input.py.)"""
    with pytest.raises(InputError, match=f"{name}=.* is above its maximum"):
        parse_player(spec)
