"""The suite runs with numba's bounds checks (tests/conftest.py sets ``NUMBA_BOUNDSCHECK=1``
before numba loads), and code compiled so is cached apart from the code ``numberup`` runs
(:func:`numberup.jit.cache_dirname`). tests/players/test_bounds_checked_games.py has every
player play under them."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core import config

from numberup.jit import SourcesDigestLocator, cache_dirname


def test_the_suite_runs_with_bounds_checks():
    assert config.BOUNDSCHECK == 1, \
        "numba's bounds checks are off (NUMBA_BOUNDSCHECK=0?): tests/conftest.py turns them on"

    @njit
    def at(a, i):
        return a[i]

    with pytest.raises(IndexError):
        at(np.zeros(3), 3)


def test_bounds_checked_code_is_cached_apart(monkeypatch):
    from numberup.game.scoring import _byte  # any kernel of the package

    py = _byte.py_func
    checked = SourcesDigestLocator.from_function(py, py.__code__.co_filename)
    assert checked.get_cache_path().endswith(cache_dirname()) and "-boundscheck" in cache_dirname()
    monkeypatch.setattr(config, "BOUNDSCHECK", None)
    plain = SourcesDigestLocator.from_function(py, py.__code__.co_filename)
    assert plain.get_cache_path() != checked.get_cache_path()
    assert "-boundscheck" not in plain.get_cache_path()


def test_code_of_another_optimisation_level_is_cached_apart(monkeypatch):
    """The suite compiles at LLVM's level 1 (tests/conftest.py), numberup at numba's default 3:
    neither may load the other's code."""
    monkeypatch.setattr(config, "BOUNDSCHECK", None)
    monkeypatch.setattr(config, "OPT", 3)
    default = cache_dirname()
    monkeypatch.setattr(config, "OPT", 1)
    assert default.startswith("numba-") and "-opt" not in default
    assert cache_dirname() == default + "-opt1"
