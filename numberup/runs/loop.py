"""The game loop, compiled once per player.

:func:`game_loop` returns the kernel that plays a block of seeded games without the GIL with
one player's kernel inlined; :mod:`numberup.runs.simulate` drives it in chunks and on threads from
Python. Each player gets its own compiled loop, cached on disk under its own name
(``play._play_block_<player>``): a command compiles only the player it runs. The player is a
global constant of that loop, not an argument: numba caches neither first-class functions nor
jitclasses across processes (see STYLE.md).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from ..game import levels as L
from ..game.engine import (
    _apply_inline, _begin_turn, _candidates, _deal, _done, _may_discard, _offered,
)
from ..game.grid import geometry
from ..game.levels import Level, get_level
from ..game.state import new_state
from ..game.tally import _rescore_all, _result
from ..jit import compile_notice, kernel, specialize
from ..learned.modelfile import model_for
from ..players.base import Player
from ..players.registry import at_level
from ..players.scratch import new_scratch

MAX_ACTIONS = 8 * 64 + 1  # an upper bound of any level's actions (see scratch.max_actions)


def _play_block(p, geo, S, X, deck, params, master, first, lo, hi,
                out_seed, out_score, out_lines, out_deck, out_moves):
    """Play games ``lo .. hi-1`` of the output arrays to the end: game ``g`` there is game
    ``first + g`` of master seed ``master`` and depends on nothing else.

    ``out_deck[g]``: the shuffled deck, in draw order; ``out_moves[g]``: (card, cell) per
    decision in order, setup included (cell -1: a discard), unused rows -1; ``out_lines[g]``:
    each line's final value; ``out_score[g]``: the result. The deck comes from the game's seed,
    the player's own randomness from :func:`numberup.game.rng._player_seed` of it.

    ``S`` (:func:`numberup.game.state.new_state`), ``X`` (:func:`numberup.players.scratch.new_scratch`) and
    ``deck`` (int8, the level's deck size) are the block's scratch, allocated by the caller:
    the block plays its games one after another without allocating (so without reference
    counting), and releases the GIL, so blocks run in parallel on Python threads, each writing
    only its own rows. The whole game loop lives here, with the player inlined: every function
    layer above the players recompiles all the code below it, and this keeps the first-run
    compile short.

    A template: ``_PLAYER_ACTION``, ``_LOOKS_AHEAD`` and ``_TRACKS`` are the player's, bound by
    :func:`game_loop`.
    """
    n_lines = p[L.P_NLINES]
    track = _TRACKS  # noqa: F821
    for g in range(lo, hi):
        seed, n_deck = _deal(p, geo, S, deck, master, first + g, track)
        out_seed[g] = seed
        m = 0
        while not _done(p, S):
            _begin_turn(p, geo, S, deck)
            if _LOOKS_AHEAD:  # noqa: F821  searchers walk the tree in place: a copy of the cells
                cand = X.cand[0]
                n_cand = _candidates(geo, S, cand)
            else:
                cand, n_cand = _offered(geo, S, X.cand[0])
            slot, cell = _PLAYER_ACTION(p, geo, S, X, cand, n_cand,  # noqa: F821
                                        _may_discard(p, geo, S), params)
            out_moves[g, m, 0] = _apply_inline(p, geo, S, slot, cell)
            out_moves[g, m, 1] = cell
            m += 1
        for k in range(m, out_moves.shape[1]):
            out_moves[g, k, 0] = -1
            out_moves[g, k, 1] = -1
        if not track:
            _rescore_all(p, geo, S)
        out_score[g] = _result(p, S)
        for k in range(n_deck):
            out_deck[g, k] = deck[k]
        for li in range(n_lines):
            out_lines[g, li] = S.line_values[li]


_LOOPS: dict[str, object] = {}
_LOCK = threading.Lock()


def game_loop(player):
    """The compiled game loop of ``player`` (a :class:`~numberup.players.base.Player`, or a
    :class:`~numberup.players.base.PlayerType` for its default kernel): :func:`_play_block`
    with the player's kernel inlined, one per player (and variant: see ``PlayerType.variant``)."""
    kind = getattr(player, "kind", player)
    action, name = getattr(player, "action", kind.action), getattr(player, "loop_name", kind.name)
    with _LOCK:
        loop = _LOOPS.get(name)
        if loop is None:
            loop = _LOOPS[name] = specialize(
                _play_block, f"_play_block_{name}", jit=kernel(nogil=True),
                _PLAYER_ACTION=action, _LOOKS_AHEAD=kind.looks_ahead, _TRACKS=kind.tracks)
        return loop


def warm_up(levels, players, stream=None) -> None:
    """Compile (or load from numba's cache) the game loops of ``players`` (parsed specs) for
    ``levels`` without playing a game, saying so on ``stream`` (e.g. ``sys.stderr``) when that
    takes a compile: see :func:`numberup.jit.compile_notice`. Per-game results do not depend on
    it; the first run of a command calls it to say what it is doing."""
    playing = {(level, pl.spec): at_level(pl, level) for level in levels for pl in players}
    for (level, _), pl in playing.items():  # a missing or damaged model fails here, before any compile
        model_for(get_level(level), pl)
    names = ", ".join(dict.fromkeys(pl.kind.name for pl in playing.values()))
    loops = list({pl.loop_name: game_loop(pl) for pl in playing.values()}.values())
    with compile_notice(names, loops, stream):
        for (level, _), pl in playing.items():
            play_batch(get_level(level), pl, 0, 0, 0, 1)  # no games: compiles only


def max_moves(level) -> int:
    """Decisions in one game at most: a card per cell plus the discards."""
    return level.cells + level.discards


@dataclass
class Batch:
    """The outputs of one chunk: games ``first .. first + len(scores) - 1``."""

    level: Level
    player: Player
    first: int
    seeds: np.ndarray  # uint64 (n,)
    scores: np.ndarray  # int64 (n,)
    lines: np.ndarray  # int16 (n, n_lines): each line's value
    decks: np.ndarray  # int8 (n, deck size): draw order
    moves: np.ndarray  # int8 (n, max moves, 2): (card, cell or -1), -1 padded


def play_batch(level: Level, player: Player, seed: int, first: int, n: int, blocks: int,
               pool=None) -> Batch:
    """Play games ``first .. first+n-1`` of master ``seed``, split into ``blocks`` blocks run on
    ``pool`` (a :class:`concurrent.futures.Executor`; ``None``: one after another here).
    A player that stands for another per level (``best``) plays as that one; the batch keeps
    its own name."""

    p = L.PARAMS[level.number]
    nl = int(p[L.P_NLINES])
    b = Batch(
        level, player, first,
        np.zeros(n, np.uint64), np.zeros(n, np.int64), np.zeros((n, nl), np.int16),
        np.zeros((n, level.deck_size), np.int8), np.zeros((n, max_moves(level), 2), np.int8),
    )
    geo = geometry(level.size)
    blocks = max(1, min(blocks, n))
    bounds = [(n * k // blocks, n * (k + 1) // blocks) for k in range(blocks)]

    playing = at_level(player, level.number)
    play = game_loop(playing)

    def block(lo_hi):
        S, X, deck = new_state(level.cells), new_scratch(level, playing), np.zeros(level.deck_size, np.int8)
        play(p, geo, S, X, deck, playing.params, np.uint64(seed % 2**64), first,
             lo_hi[0], lo_hi[1], b.seeds, b.scores, b.lines, b.decks, b.moves)

    if pool is None:
        for lo_hi in bounds:
            block(lo_hi)
    else:
        list(pool.map(block, bounds))
    return b
