"""Warm starts for hindsight: games already played on the same deals.

The foresight search (:mod:`numberup.analysis.foresight`) finds a floor of what a player who
knows the deck order reaches; a game some player actually played on that deal is a floor too.
Hindsight's found result is the better of the two, so it is never below a warm game by
construction, while the search's own result is reported apart (:mod:`numberup.analysis.hindsight`).

Two sources, both keyed by deal (level, game of the master seed):

- :func:`player_games`: a registered player's own games, played exactly as ``simulate`` plays
  them (the same decks, :func:`numberup.game.cards.deal`); by default :data:`WARM_PLAYER`, the
  strongest cheap setting of each level (``best``).
- :func:`read_log`: the games of a ``simulate``/``compare``/``hindsight`` ``--log`` (JSON Lines)
  of the same seed; each record's level, game seed and deck are checked against the deal, and
  where several players played a deal the best game is kept.

:func:`warm_games` takes the best game of each deal over several sources (what hindsight
starts from) and :func:`describe_warm` names them.

Every warm game is replayed through the engine by the search (the whole game as its prefix)
before it is used: its score must come out as recorded (:func:`checked`).
"""

from __future__ import annotations

import json

import numpy as np

from ..errors import InputError
from ..game.levels import Level, get_level
from ..players.best import QUICK

WARM_PLAYER = QUICK


def replayed(level: Level, deck: np.ndarray, moves: np.ndarray):
    """(score, moves) of the decisions ``moves`` (rows (card, cell or -1), padded with -1) on
    ``deck``, replayed through the engine (the game as the engine played it: a game cut short
    is finished by the search); :class:`ValueError` when they are not a legal game."""
    from .foresight import search

    n = int(np.sum(moves[:, 0] >= 0))
    return search(level, deck, prefix=moves[:n], width=1, pilots=0)


def checked(level: Level, deck: np.ndarray, score: int, moves: np.ndarray, what: str) -> None:
    """Raise :class:`RuntimeError` unless ``moves`` are a whole legal game of ``deck`` that
    replays to ``score``."""
    try:
        got, played = replayed(level, deck, moves)
    except ValueError:
        raise RuntimeError(f"{what}: its moves are not a legal game of its deck") from None
    if got != score or not np.array_equal(played, moves):
        raise RuntimeError(f"{what} replays to {got} in {int(np.sum(played[:, 0] >= 0))} "
                           f"decisions, not {score} in {int(np.sum(moves[:, 0] >= 0))}")


def player_games(level: int | Level, seed: int, first: int, n: int, spec: str = WARM_PLAYER,
                 jobs: int = 1) -> dict[int, tuple[int, np.ndarray]]:
    """{game: (score, moves int8 (decisions, 2))} of ``spec``'s games ``first .. first+n-1``
    of master ``seed``, played as ``simulate`` plays them (on ``jobs`` threads: the games do
    not depend on it)."""
    from concurrent.futures import ThreadPoolExecutor

    from ..players.registry import parse_player
    from ..runs.loop import play_batch

    lv = get_level(level)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        b = play_batch(lv, parse_player(spec), seed, int(first), int(n), max(1, jobs), pool)
    return {first + k: (int(b.scores[k]), b.moves[k].copy()) for k in range(n)}


def player_game(level: int | Level, seed: int, game: int, spec: str = WARM_PLAYER):
    """(score, deck int8, moves int8 (decisions, 2)) of ``spec``'s game ``game`` of ``seed``,
    its score checked by replaying its moves through the engine."""
    from ..game.cards import deal

    lv = get_level(level)
    score, moves = player_games(lv, seed, game, 1, spec)[int(game)]
    deck = deal(lv, seed, game)
    checked(lv, deck, score, moves, f"the warm game {game} of level {lv.number}")
    return score, deck, moves


def read_log(path, levels, seed: int) -> dict[tuple[int, int], tuple[int, np.ndarray]]:
    """{(level, game): (score, moves int8 (max moves, 2))}: the best game of each deal of
    ``levels`` in the JSON Lines log at ``path`` (``simulate``/``compare --log``), each record
    checked against the deal of master ``seed``; records of other levels are skipped.
    :class:`InputError` naming the file and the line when one is not such a record or is of
    another seed or deck."""
    from ..game.cards import deal
    from ..game.rng import game_seed
    from ..runs.loop import max_moves
    from ..runs.sinks import CARD_TEXT

    code = {t: c for c, t in enumerate(CARD_TEXT)}
    wanted = {get_level(x).number for x in levels}
    out: dict[tuple[int, int], tuple[int, np.ndarray]] = {}
    try:
        fh = open(path)
    except OSError as err:
        raise InputError(f"--warm: cannot read {path}: {err.strerror}") from None
    with fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            where = f"--warm {path}, line {lineno}"
            try:
                rec = json.loads(line)
                level, game, score = int(rec["level"]), int(rec["game"]), int(rec["score"])
                deck_text, move_list, rec_seed = rec["deck"], rec["moves"], int(rec["seed"])
            except (ValueError, KeyError, TypeError):
                raise InputError(f"{where}: not a game record of simulate --log (level, game, "
                                 f"seed, score, deck, moves)") from None
            if level not in wanted:
                continue
            lv = get_level(level)
            if game < 0 or rec_seed != game_seed(seed, game):
                raise InputError(f"{where}: game {game} is not a game of seed {seed} (its seed "
                                 f"is {rec_seed}): give the seed the log was played with")
            deck = deal(lv, seed, game)
            if [code.get(t, -1) for t in deck_text] != deck.tolist():
                raise InputError(f"{where}: the deck is not the deck of level {level} game "
                                 f"{game} of seed {seed}")
            moves = np.full((max_moves(lv), 2), -1, np.int8)
            k = 0
            try:
                for k, m in enumerate(move_list):
                    moves[k, 0] = code[m["card"]]
                    if not m.get("discard"):
                        r, c = m["cell"]
                        if not (0 <= r < lv.size and 0 <= c < lv.size):
                            raise ValueError
                        moves[k, 1] = r * lv.size + c
            except (KeyError, TypeError, ValueError, IndexError):
                raise InputError(f"{where}: move {k + 1} is not a card on a cell of the "
                                 f"grid or a discard") from None
            try:
                checked(lv, deck, score, moves, "")
            except RuntimeError:
                raise InputError(f"{where}: the moves are not a whole legal game of its deck "
                                 f"with score {score}") from None
            if (level, game) not in out or score > out[(level, game)][0]:
                out[(level, game)] = (score, moves)
    return out


def warm_games(lv: Level, seed: int, first: int, games: int, warm, jobs: int = 1) -> dict:
    """{game: (score, moves)} of the best warm game of each of ``lv``'s deals ``first ..
    first+games-1`` among the sources ``warm``: each a player spec (its games,
    :func:`numberup.analysis.warm.player_games`) or a ``{(level, game): (score, moves)}`` of
    a log (:func:`numberup.analysis.warm.read_log`); one source alone, or ``None`` (none)."""
    out: dict = {}
    for source in _sources(warm):
        if isinstance(source, str):
            got = player_games(lv, seed, first, games, source, jobs)
        else:
            got = {g: source[(lv.number, g)] for g in range(first, first + games)
                   if (lv.number, g) in source}
        for g, sm in got.items():
            if g not in out or sm[0] > out[g][0]:
                out[g] = sm
    return out


def describe_warm(warm, level: int) -> str | None:
    """The warm sources on ``level`` in words: player specs (``best = <its setting>``) and
    ``--warm log`` (``None``: none)."""
    from ..players.registry import at_level, parse_player

    def name(spec):
        plays = at_level(parse_player(spec), level).spec
        return spec if plays == spec else f"{spec} = {plays}"

    parts = [name(s) if isinstance(s, str) else "--warm log" for s in _sources(warm)]
    return " + ".join(parts) or None


def _sources(warm) -> list:
    """The warm sources as a list: one source (a spec or a log's games) alone, several, or
    ``None`` (none)."""
    if warm is None:
        return []
    return [warm] if isinstance(warm, (str, dict)) else list(warm)
