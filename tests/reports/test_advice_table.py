"""advise's table says why fewer actions were estimated than --candidates asked for: the
answer's time paid for fewer (numberup.analysis.advise.affordable)."""

from __future__ import annotations

import io

from rich.console import Console


def _text(advice):
    from numberup.reports.text import advice_table

    out = io.StringIO()
    Console(file=out, width=400).print(advice_table(advice))
    return " ".join(out.getvalue().split())  # the caption wraps


def _advice(candidates, asked, actions=6):
    est = {"mean": 100.0, "mean_moe": 1.0, "p_bronze": 1.0, "p_silver": 0.9, "p_gold": 0.5,
           "p_gold_lo": 0.4, "p_gold_hi": 0.6, "n": 55}
    vs = {"diff": 0.1, "lo": -0.1, "hi": 0.3, "n": 55, "close": True}
    return {"level": 19, "player": "best", "plays": "learned:objective=gold,endgame=3",
            "objective": "gold", "continuations": 55, "seed": 7, "candidates": candidates,
            "asked": asked,
            "actions": [{"card": "3r", "cell": [0, k], "chosen": k == 0,
                         "estimate": est if k < candidates else None,
                         "vs_first": (vs if 0 < k < candidates else None)}
                        for k in range(actions)]}


def test_the_caption_says_when_the_time_paid_for_fewer_candidates():
    fitted = _text(_advice(4, 6))
    assert "2 more actions not estimated" in fitted
    assert "pays 16 continuations a round to 4 candidates, not 6" in fitted
    asked = _text(_advice(4, 4))  # as many as asked: no word on the time
    assert "2 more actions not estimated" in asked and "pays 16" not in asked
    few = _text(_advice(3, 6, actions=3))  # every action estimated
    assert "not estimated" not in few and "pays 16" not in few
