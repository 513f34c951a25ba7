"""numberup: solver and Monte Carlo analyzer for *For One: Number Up*.

The public API is imported lazily so that ``import numberup`` stays cheap (the CLI's ``--help``
must not load numba).
"""

from __future__ import annotations

__version__ = "0.1.0"

_LAZY = {
    "score": "numberup.scorecard",
    "score_line": "numberup.scorecard",
    "score_grids": "numberup.scorecard",
    "GameScore": "numberup.scorecard",
    "LineScore": "numberup.scorecard",
    "LEVELS": "numberup.levels",
    "CHAPTERS": "numberup.levels",
    "get_level": "numberup.levels",
    "parse_grid": "numberup.cards",
    "format_grid": "numberup.cards",
    "InputError": "numberup.cards",
}

__all__ = sorted(_LAZY)


def __getattr__(name):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'numberup' has no attribute {name!r}")
