"""The whole suite runs with numba's bounds checks: ``NUMBA_BOUNDSCHECK=1`` is set here, before
any test imports numba, and the commands tests run in subprocesses inherit it. So every kernel
any test calls raises IndexError if it reads or writes outside its arrays (see
tests/players/test_bounds_checked_games.py), and each kernel is compiled once for the suite,
not once more for a separate bounds-checked run. Code compiled so is cached apart from the code
``numberup`` runs (:func:`numberup.jit.cache_dirname`). ``NUMBA_BOUNDSCHECK=0`` in the
environment turns the checks off, and tests/test_numba_boundscheck.py then fails."""

import os

import pytest

os.environ.setdefault("NUMBA_BOUNDSCHECK", "1")
# LLVM's optimisation level 1, not numba's default 3: most of the suite's time on an empty
# cache is compiling, which level 1 makes about a quarter shorter, for code about a fifth
# slower (benchmarks/README.md, "Test suite"). The results are the same: no kernel is compiled
# with fastmath, so no level may reorder a float sum. Cached apart (numberup.jit.cache_dirname).
os.environ.setdefault("NUMBA_OPT", "1")


@pytest.fixture(scope="session")
def runs(tmp_path_factory):
    """Two run directories as ``numberup simulate --out`` writes them (greedy and random,
    levels 1, 3 and 14, 50 games each: {player: directory}), shared by the tests of the run
    tables, the plots and the plot command."""
    from oracles.cli_checks import simulate_runs

    return simulate_runs(tmp_path_factory)


@pytest.fixture(scope="session")
def tables(runs):
    """The two runs read back as one (:func:`numberup.runs.tables.read_runs`)."""
    from numberup.runs.tables import read_runs

    return read_runs([runs["greedy"], runs["random"]])


# Tests that compile every kernel they use afresh, in a numba cache of their own (the wheel's
# sources; processes racing on an empty cache): nothing they compile serves another test, so
# they run first, while the others' work can still be shared out around them. Last in the
# order, the wheel's test kept one worker busy for a minute after the other had finished.
OWN_CACHE = ("tests/test_packaging.py", "tests/test_cache.py")


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: not item.nodeid.startswith(OWN_CACHE))  # stable: else as collected
