"""The player registry's parameter maxima: a spec above one fails with a one-line error instead
of running for hours."""

from __future__ import annotations

import pytest

from numberup.errors import InputError
from numberup.players.registry import parse_player
from oracles.cli_checks import assert_one_line_error, run_main


@pytest.mark.parametrize("spec, name", [
    ("expectimax:k=4097", "k"), ("expectimax:k=99999999999", "k"),
    ("expectimax:sample=49", "sample"), ("rollout:n=100001", "n"),
])
def test_parameter_maxima(spec, name, capsys):
    with pytest.raises(InputError, match=f"{name}=.* is above its maximum"):
        parse_player(spec)
    code, out, err = run_main(["simulate", "--level", "14", "--games", "10", "--policy", spec],
                              capsys)
    assert_one_line_error(code, out, err, must_name=[f"{name}="])
