"""Drawing a :class:`numberup.interactive.session.Session` for a terminal (rich), apart from the game.

The screen: the grid with its coordinates (columns a-f from the left, rows 1-6 from the top),
each row's points and marker at its right, each column's below it (and the diagonals on level
3), the card or hand, the discards left, and the cards still to come by colour and value.
``plain`` draws the same with ASCII symbols and no colour (for output that is not a terminal,
or ``--no-color``).
"""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

from ..game.cards import COLOUR_LETTERS, COLOUR_NAMES, format_card
from ..game.levels import AGG_NAMES
from ..game.cells import COLUMN_LETTERS, cell_name
from .session import Session

# rich colours for the card colours r o y g b n p m
CARD_STYLES = ("bold red", "bold dark_orange", "bold yellow", "bold green", "bold dodger_blue1",
               "bold navy_blue on grey70", "bold purple", "bold magenta")
W = 5  # width of a grid cell


def card_text(card: int, plain: bool = False) -> Text:
    """A card as styled text: ``3g`` in green (plain: just ``3g``)."""
    s = format_card(card)
    return Text(s) if plain or card < 0 else Text(s, style=CARD_STYLES[card % 8])


def marker_text(markers: int, plain: bool) -> str:
    """Checkmarkers as ticks (plain: ``+``), a minus marker as ``-``, a chip as nothing."""
    if markers > 0:
        return ("*" if plain else "\u2713") * markers
    return "-" if markers < 0 else ""


def _points(line) -> str:
    return "." if line.points is None else str(line.points)


def render(s: Session, plain: bool = False, message: str = "") -> Group:
    """The whole screen for the position of ``s``; ``message`` is shown under it."""
    lv = s.level
    n = lv.size
    sc = s.score()
    rows, cols = sc.lines[:n], sc.lines[n:2 * n]
    parts = []
    head = f"Level {lv.number}: {lv.summary}; "
    if AGG_NAMES[lv.aggregation] not in lv.summary:
        head += f"result = {AGG_NAMES[lv.aggregation]}; "
    head += f"medals {lv.medals[0]}/{lv.medals[1]}/{lv.medals[2]}"
    if s.mode == "play":
        head += f"  (game {s.game} of seed {s.seed})"
    parts.append(Text(head, style="" if plain else "bold"))

    legal = set(s.legal_cells()) if not s.needs_card else set()
    t = Text("     " + "".join(f"{COLUMN_LETTERS[c]:>{W}}" for c in range(n)) + "    points")
    lines = [t]
    for r in range(n):
        t = Text(f"  {r + 1:>2} ")
        for c in range(n):
            card = int(s.grid[r * n + c])
            if card >= 0:
                t.append(" " * (W - 2))
                t.append(card_text(card, plain))
            elif r * n + c in legal:
                t.append(f"{'+' if plain else chr(0xB7):>{W}}", style="" if plain else "dim")
            else:
                t.append(f"{' ':>{W}}")
        line = rows[r]
        t.append(f"   {_points(line):>4} {marker_text(line.markers, plain)}")
        lines.append(t)
    lines.append(Text("  pts" + "".join(f"{_points(col):>{W}}" for col in cols)))
    lines.append(Text("     " + "".join(f"{marker_text(col.markers, plain):>{W}}" for col in cols)))
    for d in sc.lines[2 * n:]:
        way = "top-left to bottom-right" if d.index == 0 else "top-right to bottom-left"
        lines.append(Text(f"  diagonal {way}: {_points(d)} {marker_text(d.markers, plain)}"))
    parts.extend(lines)
    parts.append(Text(f"Result now: {sc.total}   ({'*' if plain else chr(0x2713)} checkmarker, - minus "
                      f"marker, . no points yet; {'+' if plain else chr(0xB7)} a cell you may use)"))

    if s.done:
        parts.append(Text(f"Finished: {sc.total} ({sc.medal})", style="" if plain else "bold"))
    elif s.needs_card:
        want = s.capacity - len(s.hand)
        parts.append(Text(f"Type the card{'s' if want > 1 else ''} drawn "
                          f"({want} more{'; several at once, e.g. 1r 2g' if want > 1 else ''}), "
                          "e.g. 3g"))
    else:
        t = Text("Hand: " if len(s.hand) > 1 else "Card: ")
        for k, card in enumerate(s.hand):
            if k:
                t.append(" ")
            t.append(card_text(card, plain))
        if s.in_setup:
            t.append(f"   setup: on {' or '.join(cell_name(c, n) for c in s.legal_cells())}")
        parts.append(t)
    if lv.discards:
        parts.append(Text(f"Discards left: {s.discards_left} of {lv.discards}"))
    parts.append(to_come(s, plain))
    if message:
        parts.append(Text(message))
    return Group(*parts)


def to_come(s: Session, plain: bool = False) -> Text:
    """The cards still to come as a colour x value table (``.`` where a card is gone)."""
    lv = s.level
    left = set(s.unseen())
    t = Text(f"Still to come ({len(left)} cards, {lv.cells - s.filled} cells free):\n")
    for colour in range(lv.colours):
        t.append(f"  {COLOUR_NAMES[colour]:>8} ", style="" if plain else CARD_STYLES[colour])
        for v in range(1, lv.values + 1):
            card = (v - 1) * 8 + colour
            t.append(f" {v if card in left else '.'}")
        if colour < lv.colours - 1:
            t.append("\n")
    return t


def actions_text(rows: list[dict], s: Session, top: int = 3, plain: bool = False) -> Text:
    """The best ``top`` actions of :meth:`Session.advice` with mean and medal chances."""
    n = s.level.size
    t = Text()
    for k, r in enumerate(rows[:top], 1):
        where = "discard" if r["cell"] < 0 else cell_name(r["cell"], n)
        t.append(f"  {k}. ")
        if len(s.hand) > 1:
            t.append(card_text(r["card"], plain))
            t.append(" ")
        t.append(f"{where:<8} mean {r['mean']:6.1f}   P(bronze) {r['p_bronze']:4.0%}  "
                 f"P(silver) {r['p_silver']:4.0%}  P(gold) {r['p_gold']:4.0%}"
                 + ("  close" if r.get("close") else ""))
        if k < min(top, len(rows)):
            t.append("\n")
    return t


COLOUR_HELP = ", ".join(f"{COLOUR_LETTERS[k]} {COLOUR_NAMES[k]}" for k in range(8))
