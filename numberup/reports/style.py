"""The look every plot shares: the colour-blind-safe palette, medal colours and line styles,
figures on the Agg canvas (never pyplot: no display, no global registry), and :class:`Plot`, a
figure with the exact numbers it draws."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

# Okabe & Ito (2008), "Color Universal Design": distinguishable with every common colour
# vision deficiency. Black is last: it is kept for the medal lines' text.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442",
           "#000000")
MEDAL_COLOURS = {"bronze": "#8C510A", "silver": "#8C8C8C", "gold": "#E69F00"}
MEDAL_STYLES = {"bronze": ":", "silver": "--", "gold": "-"}
HATCHES = ("", "//", "..", "xx", "\\\\", "oo", "++", "--")
FORMATS = ("png", "svg")
MEDAL_LABELS = {"bronze": "P(>=bronze)", "silver": "P(>=silver)", "gold": "P(gold)"}


@dataclass
class Plot:
    """A figure and what it shows.

    Attributes
    ----------
    kind : str
        ``'dist'``, ``'medals'`` or ``'budget'``.
    figure : matplotlib.figure.Figure
    data : pandas.DataFrame
        The numbers drawn, one row per bar / step / point (see each plot function).
    meta : dict
        Plain data about the plot (level, thresholds, the legend's numbers).
    """

    kind: str
    figure: object
    data: object
    meta: dict = field(default_factory=dict)

    def save(self, path, fmt: str | None = None) -> Path:
        """Write the figure as PNG or SVG (``fmt``, default from the suffix, else PNG)."""
        import matplotlib

        path = Path(path)
        fmt = fmt or (path.suffix[1:].lower() if path.suffix[1:].lower() in FORMATS else "png")
        if fmt not in FORMATS:
            raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
        # A fixed hash salt and no date: the same data give the same SVG bytes.
        with matplotlib.rc_context({"svg.hashsalt": "numberup"}):
            self.figure.savefig(path, format=fmt, dpi=150, bbox_inches="tight",
                                metadata={"Date": None} if fmt == "svg" else None)
        return path

    def to_dict(self) -> dict:
        """``meta`` and ``data`` (as records) as JSON-ready data; NaN and inf become None."""
        return json_ready({"kind": self.kind, **self.meta, "data": self.data.to_dict("records")})


def json_ready(x):
    """Python scalars for numpy ones, None for NaN/inf (JSON has neither)."""
    if isinstance(x, dict):
        return {str(k): json_ready(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [json_ready(v) for v in x]
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def figure(width: float, height: float, rows: int = 1, cols: int = 1, **kw):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(rows, cols, squeeze=False, **kw)
    return fig, axes


def colour_of(policies) -> dict[str, str]:
    return {p: PALETTE[i % len(PALETTE)] for i, p in enumerate(policies)}


def percent_axis(axis) -> None:
    from matplotlib.ticker import PercentFormatter

    axis.set_major_formatter(PercentFormatter(1.0))


def policies_of(frame, policies=None) -> list[str]:
    """The players in ``frame`` in order of first appearance, or ``policies`` (which must all
    be there)."""
    present = list(dict.fromkeys(frame["policy"].tolist()))
    if not policies:
        return present
    missing = [p for p in policies if p not in present]
    if missing:
        raise ValueError(f"no games of player {', '.join(map(repr, missing))} "
                         f"(the tables hold {', '.join(present) or 'none'})")
    return list(dict.fromkeys(policies))


def one_level(frame, level: int, what: str):
    rows = frame[frame["level"] == level]
    if rows.empty:
        have = sorted(set(int(x) for x in frame["level"]))
        raise ValueError(f"no {what} of level {level} (the tables hold levels "
                         f"{', '.join(map(str, have)) or 'none'})")
    return rows
