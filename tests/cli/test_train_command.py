"""``numberup train``: a model written to --out with the facts of its training, and the
distillation of level 2 (--distil-games) with its default named in --help."""

from __future__ import annotations

import json

from numberup.learned import modelfile as MF
from numberup.training import distil as D
from oracles.cli_checks import run_command


def test_the_train_command_distils_level_2(tmp_path, capsys):
    path = tmp_path / "m.npz"
    from numberup_cli.main import main

    main(["train", "--level", "2", "-n", "6", "--seed", "2", "--out", str(path),
          "--tune-games", "2", "--distil-games", "2", "--json"])  # returns: no exit status
    facts = json.loads(capsys.readouterr().out)[0]
    assert facts["distil"]["games"] == 2 and facts["scale"] == 1.0
    kept = MF.read_model(path, 2)[1]
    assert kept["scale"] == 1.0 and kept["games"] == 6
    assert D.games_for(2) > 0 and D.games_for(14) == 0
    main(["train", "--help"])
    assert f"{D.GAMES[2]:,} on level 2" in " ".join(capsys.readouterr().out.split())


def test_train_command_writes_a_model(tmp_path, capsys):
    path = tmp_path / "m.npz"
    code, out, err = run_command(["train", "--level", "14", "-n", "8", "--seed", "2", "--out",
                                  str(path), "--tune-games", "4", "--json"], capsys)
    assert code == 0, err
    facts = json.loads(out)
    assert facts[0]["level"] == 14 and facts[0]["out"] == str(path)
    kept = MF.read_model(path, 14)[1]
    assert kept["games"] == 8 and kept["scale"] == facts[0]["scale"]
