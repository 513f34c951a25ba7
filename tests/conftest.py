"""The whole suite runs with numba's bounds checks: ``NUMBA_BOUNDSCHECK=1`` is set here, before
any test imports numba, and the commands tests run in subprocesses inherit it. So every kernel
any test calls raises IndexError if it reads or writes outside its arrays (see
tests/players/test_bounds_checked_games.py), and each kernel is compiled once for the suite,
not once more for a separate bounds-checked run. Code compiled so is cached apart from the code
``numberup`` runs (:func:`numberup.jit.cache_dirname`). ``NUMBA_BOUNDSCHECK=0`` in the
environment turns the checks off, and tests/test_numba_boundscheck.py then fails."""

import os

os.environ.setdefault("NUMBA_BOUNDSCHECK", "1")
