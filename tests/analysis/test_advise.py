"""advise's choice of searcher: 'auto' takes the stronger kind per level from the summary
table (numberup.analysis.advise.advisor_for)."""

from __future__ import annotations

import numpy as np
import pytest


def test_auto_advisor_takes_the_stronger_kind_per_level(tmp_path, monkeypatch):
    """'auto' ranks with rollout:n=4000 where rollout:n=200 has the higher mean in the summary
    table, with expectimax where expectimax has, and with expectimax without a table; a named
    searcher is taken as it is."""
    from numberup.analysis import advise as A
    from numberup.analysis import catalog

    table = tmp_path / "summary.csv"
    table.write_text("level,policy,games,mean,p_bronze,p_silver,p_gold,seconds_per_game\n"
                     "14,expectimax,100,210.0,1,1,0.8,0.001\n14,rollout:n=200,100,220.0,1,1,0.9,0.1\n"
                     "20,expectimax,100,26.9,1,1,0.03,0.01\n20,rollout:n=200,100,4.1,1,1,0.03,0.1\n")
    monkeypatch.setattr(catalog, "SUMMARY", table)
    assert A.advisor_for(14)[0] == "rollout:n=4000"
    spec, why = A.advisor_for(20, "Auto")
    assert spec == "expectimax" and "level 20" in why and "26.9" in why
    assert A.advisor_for(20, "rollout:n=50") == ("rollout:n=50", "")
    monkeypatch.setattr(catalog, "SUMMARY", tmp_path / "missing.csv")
    assert A.advisor_for(14) == ("expectimax", "auto: results/summary.csv not found")


def test_continuations_by_the_cost_of_a_game(monkeypatch):
    """The continuations in all: about ``seconds`` on the reference machine's cores by the
    table's cost of a game, a share of it by the empty cells, the whole of it for a player with
    an exact endgame; at least halving's floor (MIN_CONTINUATIONS a candidate a round), at
    most MAX_TOTAL."""
    from numberup.analysis import advise as A
    from numberup.game.levels import get_level
    from numberup.players import best
    from numberup.players.registry import parse_player

    rows = ({"level": 6, "spec": "learned", "seconds_per_game": 0.01},
            {"level": 6, "spec": "learned:endgame=4", "seconds_per_game": 0.01})
    monkeypatch.setattr(best, "table", lambda: rows)
    monkeypatch.setattr(A, "continuation_shares", lambda: {})  # none measured: by empty cells
    lv = get_level(6)
    learned, endgame, greedy = (parse_player(s) for s in
                                ("learned", "learned:endgame=4", "greedy"))
    assert A.continuation_count(lv, learned, 25, 2, 1.0) == int(1.0 * A.REFERENCE_CORES / 0.01)
    assert A.continuation_count(lv, learned, 5, 2, 1.0) == int(1.0 * A.REFERENCE_CORES / 0.002)
    # an exact endgame: every continuation plays it, whatever the empty cells
    assert A.continuation_count(lv, endgame, 5, 2, 1.0) == 200
    # unknown to the table: UNKNOWN_COST; the floor and the cap
    assert A.continuation_count(lv, greedy, 25, 2, 1.0) == int(A.REFERENCE_CORES
                                                               / A.UNKNOWN_COST)
    assert A.continuation_count(lv, learned, 25, 50, 0.01) == A.halving_floor(50)
    assert A.continuation_count(lv, learned, 1, 2, 100.0) == A.MAX_TOTAL
    # the time's budget alone: below the floor where the time is short
    assert A.time_budget(lv, learned, 25, 0.01) == int(0.01 * A.REFERENCE_CORES / 0.01)
    assert A.time_budget(lv, learned, 25, 0.01) < A.halving_floor(50)


def test_continuations_by_the_measured_shares(monkeypatch):
    """Where the package's table has the player's shares of a game's cost by empty cells, a
    continuation costs the table's cost times that share, whatever the endgame; the shipped
    table has a share for every count of empty cells of every level, non-decreasing in it, for
    the player advise plays there."""
    from numberup.analysis import advise as A
    from numberup.game.levels import get_level
    from numberup.players import best
    from numberup.players.registry import at_level, parse_player

    rows = ({"level": 6, "spec": "learned:endgame=4", "seconds_per_game": 0.01},)
    monkeypatch.setattr(best, "table", lambda: rows)
    share = np.linspace(0.0, 0.5, 26)
    monkeypatch.setattr(A, "continuation_shares", lambda: {(6, "learned:endgame=4"): share})
    lv, pl = get_level(6), parse_player("learned:endgame=4")
    assert A.continuation_seconds(lv, pl, 10) == pytest.approx(0.01 * share[10])
    assert A.game_seconds(lv, pl) == pytest.approx(0.01)
    assert A.time_budget(lv, pl, 20, 1.0) == int(A.REFERENCE_CORES / (0.01 * share[20]))
    monkeypatch.undo()
    shipped = A.continuation_shares()
    for level in range(1, 21):
        lv = get_level(level)
        key = (level, at_level(parse_player(A.DEFAULT_PLAYER), level).spec)
        assert key in shipped, key
        assert len(shipped[key]) == lv.cells + 1
        assert np.all(np.diff(shipped[key]) >= 0) and shipped[key][-1] > 0


def test_halving_plays_as_planned_and_affordable_candidates_keep_within_the_total():
    """planned(n, total) is what successive halving plays over n candidates (counted, not
    derived), halving_floor(n) with no total; affordable(n, total) is the most candidates up to
    n whose halving plays at most ``total`` continuations (2 at least, where even 2 cost more)."""
    import random

    from numberup.analysis import advise as A

    def played(n, total):
        count = [0]

        def run(c, lo, hi):
            count[0] += hi - lo
            return np.full(hi - lo, float(c))
        A.halving(list(range(n)), run, total, lambda r: r.mean())
        return count[0]

    rng = random.Random(5)
    for n in range(1, 13):
        assert played(n, 0) == A.halving_floor(n) == A.planned(n, 0)
        for total in (rng.randrange(0, 3000) for _ in range(20)):
            assert played(n, total) == A.planned(n, total)
    for _ in range(300):
        n, total = rng.randrange(1, 13), rng.randrange(0, 400)
        got = A.affordable(n, total)
        assert 1 <= got <= n and (got >= 2 or n == 1)
        assert played(got, total) <= total or got == min(n, 2)
        assert all(played(m, total) > total for m in range(got + 1, n + 1))
    # level 19's whole-game continuations of 0.02 s: 150 in all pay for 4 of 6, 60 for 2 of 4
    assert A.affordable(6, 150) == 4 and A.affordable(4, 60) == 2
