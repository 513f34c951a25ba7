"""Cards and grids as small integers, and their text form.

A card is one ``int8`` id: ``(value - 1) * 8 + colour``, so ``value = id // 8 + 1`` and
``colour = id % 8`` whatever the level. A grid is an ``int8`` array of ``size * size`` card ids
in row-major order, ``-1`` for an empty cell.

Text form: a card is its value and colour letter (``3g``), an empty cell ``.``; one grid row per
text line, cells separated by spaces. Colour letters, in index order: ``r`` red, ``o`` orange,
``y`` yellow, ``g`` green, ``b`` blue, ``n`` navy, ``p`` purple, ``m`` magenta.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from ..errors import InputError
from .levels import Level, get_level

COLOUR_LETTERS = "roygbnpm"
COLOUR_NAMES = ("red", "orange", "yellow", "green", "blue", "navy", "purple", "magenta")
EMPTY = -1
N_CARD_IDS = 48  # values 1..6 x colours 0..7

_TOKEN = re.compile(r"^([1-9])([a-z])$")
MAX_LINE = 1000  # characters in one line of a grid file (a 6x6 row takes about 20)


def shown(token: str, limit: int = 20) -> str:
    """A token as error messages quote it: its ``repr``, cut to ``limit`` characters
    (``'aaaaaaaa...'``) so that a huge token cannot flood the one-line message."""
    return repr(token) if len(token) <= limit else repr(token[:limit]) + "..."


def read_text(data: bytes, source: str) -> str:
    """The text of a grid file's bytes, or :class:`InputError` saying where it is not text:
    a NUL byte (a binary file), bytes that are not UTF-8, or a line longer than
    :data:`MAX_LINE` characters. A UTF-8 byte-order mark is dropped."""
    nul = data.find(b"\0")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise InputError(f"{source}, line {line}: a NUL byte at byte {nul}: this is a binary "
                         f"file, not text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise InputError(f"{source}, line {line}: byte 0x{data[err.start]:02x} at byte "
                         f"{err.start} is not UTF-8 text") from None
    for lineno, ln in enumerate(text.splitlines(), 1):
        if len(ln) > MAX_LINE:
            raise InputError(f"{source}, line {lineno}: {len(ln):,} characters long; lines of "
                             f"grids and tables have at most {MAX_LINE}")
    return text


def card_id(value: int, colour: int) -> int:
    """``card_id(3, 3) -> 27`` (the green 3)."""
    return (value - 1) * 8 + colour


def card_value(card: int) -> int:
    return card // 8 + 1


def card_colour(card: int) -> int:
    return card % 8


def format_card(card: int) -> str:
    """``27 -> '3g'``, ``-1 -> '.'``."""
    if card < 0:
        return "."
    return f"{card_value(card)}{COLOUR_LETTERS[card_colour(card)]}"


def deck(level: int | Level) -> np.ndarray:
    """The level's deck as card ids, sorted: every (value, colour) pair once."""
    lv = get_level(level)
    return np.array(
        [card_id(v, c) for v in range(1, lv.values + 1) for c in range(lv.colours)], dtype=np.int8
    )


def deal(level: int | Level, seed: int, game: int) -> np.ndarray:
    """The deck of game ``game`` of master seed ``seed`` in draw order (int8 card ids): the
    level's cards in sorted order, shuffled by the game's own stream, exactly as the game loop
    deals it (:func:`numberup.game.engine._deal`)."""
    from .rng import _shuffle, game_seed

    cards = deck(level)
    _shuffle(np.array([game_seed(seed, game), 0], np.uint64), cards, len(cards))
    return cards


def parse_card(token: str, level: int | Level, where: str = "") -> int:
    """The id of a card token such as ``3g`` in this level's deck, or :class:`InputError`."""
    lv = get_level(level)
    at = f"{where}: " if where else ""
    m = _TOKEN.match(token.strip().lower())
    if not m or m.group(2) not in COLOUR_LETTERS:
        raise InputError(
            f"{at}unknown token {shown(token)}: a card is a value and a colour letter "
            f"({COLOUR_LETTERS[: lv.colours]}), e.g. 3g; an empty cell is '.'"
        )
    value, colour = int(m.group(1)), COLOUR_LETTERS.index(m.group(2))
    if value > lv.values:
        raise InputError(f"{at}card {token!r} is not in level {lv.number}'s deck (values 1-{lv.values})")
    if colour >= lv.colours:
        raise InputError(
            f"{at}card {token!r} is not in level {lv.number}'s deck "
            f"(colours {COLOUR_LETTERS[: lv.colours]})"
        )
    return card_id(value, colour)


def parse_cards(text: str, level: int | Level, where: str = "") -> list[int]:
    """Card tokens separated by spaces or commas, e.g. a hand ``"1r 2g 3b"``; no duplicates."""
    tokens = text.replace(",", " ").split()
    cards: list[int] = []
    for k, tok in enumerate(tokens, 1):
        card = parse_card(tok, level, f"{where} card {k}".strip())
        if card in cards:
            raise InputError(f"{where} card {k}: {shown(tok)} appears twice (each card exists once)".strip())
        cards.append(card)
    return cards


def parse_line(text: str, level: int | Level) -> np.ndarray:
    """One line of cards, ``'.'`` for empty cells: ``'3g 4g . 1b' -> [26 27 -1 8]`` (int8)."""
    lv = get_level(level)
    out = []
    for k, tok in enumerate(text.split(), 1):
        out.append(EMPTY if tok == "." else parse_card(tok, lv, f"cell {k}"))
    ids = [c for c in out if c != EMPTY]
    if len(set(ids)) != len(ids):
        raise InputError("a card appears twice in the line (each card exists once)")
    if not 1 <= len(out) <= lv.size:
        raise InputError(f"a line of level {lv.number} has 1 to {lv.size} cells, not {len(out)}")
    return np.array(out, dtype=np.int8)


def parse_grid(text: str, level: int | Level, *, source: str = "", first_line: int = 1) -> np.ndarray:
    """Parse one grid in text form into an ``int8`` array of ``size * size`` card ids.

    Errors name the source, the text line, the grid row and column, and the token.
    """
    lv = get_level(level)
    src = f"{source}, " if source else ""
    rows = [(first_line + i, ln) for i, ln in enumerate(text.splitlines()) if ln.strip()]
    if len(rows) != lv.size:
        raise InputError(
            f"{src}line {rows[0][0] if rows else first_line}: a level {lv.number} grid has "
            f"{lv.size} rows, this one has {len(rows)}"
        )
    grid = np.full(lv.size * lv.size, EMPTY, dtype=np.int8)
    seen: dict[int, str] = {}
    for r, (lineno, ln) in enumerate(rows):
        tokens = ln.split()
        if len(tokens) != lv.size:
            raise InputError(
                f"{src}line {lineno} (row {r}): a level {lv.number} row has {lv.size} cells, "
                f"this one has {len(tokens)}"
            )
        for c, tok in enumerate(tokens):
            where = f"{src}line {lineno} (row {r}, col {c})"
            if tok == ".":
                continue
            card = parse_card(tok, lv, where)
            if card in seen:
                raise InputError(f"{where}: card {tok!r} is already at {seen[card]} (each card exists once)")
            seen[card] = f"row {r}, col {c}"
            grid[r * lv.size + c] = card
    return grid


def split_grids(text: str) -> Iterable[tuple[int, str]]:
    """Split text holding grids separated by blank lines: yields (first line number, block).

    Lines starting with ``#`` are comments.
    """
    block: list[str] = []
    start = 0
    for i, ln in enumerate(text.splitlines(), 1):
        if ln.lstrip().startswith("#"):
            ln = ""
        if ln.strip():
            if not block:
                start = i
            block.append(ln)
        elif block:
            yield start, "\n".join(block)
            block = []
    if block:
        yield start, "\n".join(block)


def format_grid(grid: np.ndarray, size: int) -> str:
    """The text form of a grid: one row per line."""
    return "\n".join(
        " ".join(f"{format_card(int(grid[r * size + c])):>2}" for c in range(size)) for r in range(size)
    )
