"""A replay checker for logged games, written from the project's RULES.md alone.

It does not import the game engine (``numberup.game.engine``, ``numberup.runs.loop``,
``numberup.players``) nor anything else of ``numberup``: it re-plays one game of the log that
``numberup simulate --log FILE`` writes (one JSON object per line)::

    {"level": 3, "game": 0, "seed": 123, "policy": "random", "score": 40,
     "deck": ["2b", "4b", ...],                      # the shuffled deck, in draw order
     "moves": [{"card": "2b", "cell": [2, 2]},        # a placement (row, col)
               {"card": "4b", "discard": true}, ...]} # a discard (levels 3 and 13)

and raises ``AssertionError`` naming the game, the move and the broken rule on any violation:

- the deck is exactly the level's full deck, each card once;
- cards are drawn in deck order: without a hand, each move's card is the next card of the
  deck; with a hand (levels 18-20), the setup cards come from the deck in order, then a hand of
  five is drawn, each move plays a card of the hand, then one card is drawn if any are left;
- setup: on 5x5 the first card goes on the centre cell (2, 2); on 6x6 the first four cards go
  on the four centre cells (2, 2), (2, 3), (3, 2), (3, 3) in any order;
- afterwards every card goes on an empty cell orthogonally next to an occupied cell;
- discards only on levels 3 and 13, at most two per game, never during setup;
- the game ends exactly when the grid is full;
- the logged score is ``ref_game`` (:mod:`oracles.reference`) of the final grid.

:func:`replay` returns the final grid as rows of ``(value, colour)`` tuples, the form
:mod:`oracles.reference` uses.
"""

from __future__ import annotations

from .reference import COLOUR_LETTERS, LEVELS, deck as ref_deck, ref_game

# Levels whose player may discard a drawn card, and how many times (RULES.md "Discards").
DISCARDS = {3: 2, 13: 2}
# Levels played from a hand of five (RULES.md "Hand of five").
HAND_LEVELS = {18: 5, 19: 5, 20: 5}


def centre_cells(size: int) -> list[tuple[int, int]]:
    """The setup cells: (2, 2) on 5x5; (2, 2), (2, 3), (3, 2), (3, 3) on 6x6."""
    if size == 5:
        return [(2, 2)]
    if size == 6:
        return [(2, 2), (2, 3), (3, 2), (3, 3)]
    raise ValueError(f"no grid of size {size}")


def card_from_text(token, level: int, where: str) -> tuple[int, int]:
    """``'3g' -> (3, 3)``, checked against the level's deck; AssertionError otherwise."""
    lv = LEVELS[level]
    ok = (
        isinstance(token, str)
        and len(token) == 2
        and token[0].isdigit()
        and token[1] in COLOUR_LETTERS
    )
    assert ok, f"{where}: {token!r} is not a card (value then colour letter, e.g. '3g')"
    value, colour = int(token[0]), COLOUR_LETTERS.index(token[1])
    assert 1 <= value <= lv.values and colour < lv.colours, (
        f"{where}: card {token!r} is not in level {level}'s deck "
        f"(values 1-{lv.values}, colours {COLOUR_LETTERS[:lv.colours]})"
    )
    return (value, colour)


def _neighbours(r: int, c: int, n: int):
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < n and 0 <= cc < n:
            yield rr, cc


def replay(record: dict, level: int | None = None) -> list[list]:
    """Re-play one logged game by the rules; return its final grid (rows of (value, colour)).

    ``level`` (optional) is the level the game must belong to.
    """
    assert isinstance(record, dict), f"a logged game is a JSON object, not {type(record).__name__}"
    for key in ("level", "game", "seed", "policy", "score", "deck", "moves"):
        assert key in record, f"logged game lacks the key {key!r}: {sorted(record)}"
    lv_no = record["level"]
    name = f"level {lv_no} game {record['game']} ({record['policy']}, seed {record['seed']})"
    assert lv_no in LEVELS, f"{name}: there is no level {lv_no!r}"
    if level is not None:
        assert lv_no == level, f"{name}: logged as level {lv_no}, expected level {level}"
    lv = LEVELS[lv_no]
    n = lv.size
    max_discards = DISCARDS.get(lv_no, 0)
    hand_size = HAND_LEVELS.get(lv_no, 0)

    # -- the deck: exactly the level's full deck, each card once
    deck_text = record["deck"]
    assert isinstance(deck_text, list), f"{name}: the deck is not a list"
    deck = [card_from_text(t, lv_no, f"{name}: deck card {k}") for k, t in enumerate(deck_text)]
    seen: dict = {}
    for k, card in enumerate(deck):
        assert card not in seen, (
            f"{name}: deck card {k} {deck_text[k]!r} repeats deck card {seen[card]}"
        )
        seen[card] = k
    full = set(ref_deck(lv_no))
    missing = sorted(full - set(deck))
    assert not missing and len(deck) == len(full), (
        f"{name}: the deck has {len(deck)} cards, level {lv_no}'s deck has {len(full)}; "
        f"missing {missing}"
    )

    # -- the moves
    moves = record["moves"]
    assert isinstance(moves, list), f"{name}: the moves are not a list"
    grid: list[list] = [[None] * n for _ in range(n)]
    filled = 0
    cells = n * n
    setup = centre_cells(n)
    next_card = 0  # index of the next card of the deck
    hand: list = []
    discards = 0

    def draw():
        nonlocal next_card
        card = deck[next_card]
        next_card += 1
        return card

    for m, move in enumerate(moves):
        where = f"{name}, move {m}"
        assert filled < cells, f"{where}: the grid is already full, the game should have ended"
        assert isinstance(move, dict) and "card" in move, f"{where}: {move!r} is not a move"
        is_discard = move.get("discard", False)
        if is_discard:
            assert is_discard is True and set(move) == {"card", "discard"}, (
                f"{where}: a discard is {{'card', 'discard': true}}, not {move!r}"
            )
        else:
            assert set(move) == {"card", "cell"}, (
                f"{where}: a placement is {{'card', 'cell': [row, col]}}, not {move!r}"
            )
        card = card_from_text(move["card"], lv_no, where)
        in_setup = filled < len(setup)

        # which card(s) the player holds now
        if hand_size and not in_setup:
            while len(hand) < hand_size and next_card < len(deck):
                hand.append(draw())
            assert card in hand, (
                f"{where}: plays {move['card']!r}, which is not in the hand "
                f"{[_text(c) for c in hand]}"
            )
            hand.remove(card)
        else:
            assert next_card < len(deck), (
                f"{where}: plays {move['card']!r} but the deck is used up "
                f"(grid has {filled} of {cells} cards)"
            )
            expected = draw()
            assert card == expected, (
                f"{where}: plays {move['card']!r} but the next card of the deck "
                f"(deck card {next_card - 1}) is {_text(expected)!r}"
            )

        if is_discard:
            assert max_discards, f"{where}: discards {move['card']!r}, but level {lv_no} has no discards"
            assert not in_setup, f"{where}: discards {move['card']!r} during setup"
            discards += 1
            assert discards <= max_discards, (
                f"{where}: discard number {discards}, level {lv_no} allows {max_discards}"
            )
            continue

        cell = move["cell"]
        assert (
            isinstance(cell, list) and len(cell) == 2 and all(type(x) is int for x in cell)
        ), f"{where}: cell {cell!r} is not [row, col]"
        r, c = cell
        assert 0 <= r < n and 0 <= c < n, f"{where}: cell {cell} is off the {n}x{n} grid"
        assert grid[r][c] is None, (
            f"{where}: cell {cell} already holds {_text(grid[r][c])!r}"
        )
        if in_setup:
            assert (r, c) in setup, (
                f"{where}: setup card {move['card']!r} on {cell}, not on a centre cell {setup}"
            )
        else:
            assert any(grid[rr][cc] is not None for rr, cc in _neighbours(r, c, n)), (
                f"{where}: {move['card']!r} on {cell}, which has no orthogonal neighbour"
            )
        grid[r][c] = card
        filled += 1

    assert filled == cells, (
        f"{name}: the game ended after {len(moves)} moves with {filled} of {cells} cells filled"
    )
    expected_score = ref_game(lv_no, grid)
    assert record["score"] == expected_score, (
        f"{name}: logged score {record['score']}, the reference scores the final grid "
        f"{expected_score}:\n" + "\n".join(" ".join(_text(x) for x in row) for row in grid)
    )
    return grid


def _text(card) -> str:
    if card is None:
        return "."
    return f"{card[0]}{COLOUR_LETTERS[card[1]]}"


def replay_log(path, level: int | None = None) -> list[dict]:
    """Read a JSON Lines log, replay every game, return the records."""
    import json

    with open(path) as f:
        records = [json.loads(line) for line in f if line.strip()]
    for rec in records:
        replay(rec, level)
    return records
