"""``numberup calibrate``: the table in JSON and as text, --out, --plot and --predictions, and
the saved predictions binned again with --from (the same table, without playing)."""

from __future__ import annotations

import json

from oracles.cli_checks import invoke

SEED = 5


def test_calibrate_command(tmp_path):
    out, plot = tmp_path / "c.csv", tmp_path / "r.png"
    args = ["calibrate", "-l", "14", "--for", "greedy", "--games", "12", "-m", "8",
            "--seed", str(SEED), "--jobs", "1", "--no-progress", "--out", str(out),
            "--plot", str(plot), "--bins", "5"]
    rows = json.loads(invoke(args + ["--json"]))
    assert rows[0]["bin"] == "all" and rows[0]["predictions"] == 12
    assert out.read_text().splitlines()[0].split(",")[:4] == ["level", "policy", "seed",
                                                              "continuations"]
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = invoke(args)
    assert "observed - predicted" in text and "greedy" in text
    # the predictions saved, binned again without playing: the same table
    saved = tmp_path / "p.csv"
    invoke(args + ["--predictions", str(saved)])
    again = json.loads(invoke(["calibrate", "--from", str(saved), "--bins", "5", "--json"]))
    assert again == rows
