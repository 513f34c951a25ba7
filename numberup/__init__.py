"""numberup: solver and Monte Carlo analyzer for *For One: Number Up*.

The package is layered, each layer importing only from itself and the layers below it
(``tests/test_layers.py`` checks it): :mod:`numberup.game` (the rules as arrays) <-
:mod:`numberup.evaluation` <- :mod:`numberup.learned` <- :mod:`numberup.players` <-
:mod:`numberup.runs` <- :mod:`numberup.training`, :mod:`numberup.analysis` <-
:mod:`numberup.reports`, :mod:`numberup.interactive`; the leaves :mod:`numberup.jit`,
:mod:`numberup.errors`, :mod:`numberup.stats` and :mod:`numberup.files` serve them all. A name is
imported from the module that defines it, e.g. ``from numberup.game.scorecard import score``.
``import numberup`` loads nothing else (the command line's ``--help`` must not load numba).
"""

from __future__ import annotations

__version__ = "0.2.0"
