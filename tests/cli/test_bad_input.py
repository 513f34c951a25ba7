"""Bad input to every command: one line on stderr, ``numberup: error: ...``, exit status 2,
nothing on stdout and never a traceback.

- ``test_bad_input``: every command of the group, found by walking it (numberup_cli.main puts
  them all on it; the groups too, whose bad input is an unknown subcommand), with the bad
  input written for it in :data:`CASES`: files that cannot be read, paths that cannot be
  written, bad grids, cards, levels, numbers, players, run directories and saved games. The
  message names the place of the error, and the scratch directory the command runs in is left
  as it was (nothing written, nothing changed). A command without a case fails it.
- ``test_every_command_fails_cleanly_on_bad_input`` (a property test) and
  ``test_every_parameter_at_its_edges``: generated bad input, for which a normal exit 0 is
  allowed too when the input turns out to be fine. The property test takes each command with a
  cheap valid invocation (tiny --games, --policy greedy, --jobs 1; level 1, 14 or 19) and
  spoils one thing: a parameter's value (by its click type and name: numbers out of range,
  unknown choices, bad levels, player specs that the registry rejects, bad cards, input files
  that are binary, not UTF-8, huge, of the wrong size, with duplicate cards or cards not in the
  deck, output paths that cannot be written), an unknown option, a stray argument or a
  missing required parameter. The sweep sets each parameter to each edge value of its type.
"""

from __future__ import annotations

import os
import random
import shutil
import tempfile
import textwrap
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracles.cli_checks import assert_one_line_error, invoke, run_isolated, run_main
from oracles.expectiminimax import position_texts, random_position
from numberup.analysis.calibrate import predictions
from numberup.analysis.catalog import NEEDED
from numberup.game.cards import COLOUR_LETTERS, deck, format_card
from numberup.game.levels import get_level
from numberup.interactive.session import Session
from numberup.learned import modelfile as MF
from numberup.players.registry import PLAYERS, parse_player
from numberup_cli.common import JobsParam, LevelsParam, TextFile
import numberup_cli.main  # noqa: F401  (every command on the group)
from numberup_cli.group import cli

LEVELS = (1, 14, 19)  # a 5x5 level, a 4x4 one, a hand level on 6x6
# CI: 400 fixed examples (derandomized: the same inputs on every run, about 25 s). For a longer
# hunt: NUMBERUP_FUZZ_EXAMPLES=5000 NUMBERUP_FUZZ_RANDOM=1 pytest tests/cli/test_bad_input.py
EXAMPLES = int(os.environ.get("NUMBERUP_FUZZ_EXAMPLES", 400))
DERANDOMIZE = not os.environ.get("NUMBERUP_FUZZ_RANDOM")


def _commands():
    """Every leaf command as (path, command), e.g. (('plot', 'dist'), <Command dist>)."""
    # cli_checks has run main(), which imports the modules that register the commands
    def walk(group, path):
        for name, cmd in sorted(group.commands.items()):
            if isinstance(cmd, click.Group):
                yield from walk(cmd, path + (name,))
            else:
                yield path + (name,), cmd

    return list(walk(cli, ()))


COMMANDS = _commands()


# --- the cases written by hand: every command of the group, each with its bad input ----------

def _walk_all(group, path=()):
    """Every command of the group, the groups included (their bad input is an unknown
    subcommand), as (path, command)."""
    yield path, group
    for name, cmd in sorted(group.commands.items()):
        if isinstance(cmd, click.Group):
            yield from _walk_all(cmd, path + (name,))
        else:
            yield path + (name,), cmd


EVERY_COMMAND = [path for path, _ in _walk_all(cli)]

DIR = "<a directory>"  # a file of a case that is a directory


@dataclass(frozen=True)
class Bad:
    """A bad invocation and what its one-line error must name. ``{greedy}``, ``{random}``,
    ``{whole}`` and ``{half}`` in ``argv`` and ``names`` stand for run directories made once
    (:func:`run_dirs`). ``files``: written in the scratch directory the command runs in (text,
    bytes, :data:`DIR`, or a function writing the file at the path it is given); ``setup`` and
    ``cleanup``: functions of the test's context run before the command and after it."""

    argv: tuple
    names: tuple = ()
    files: tuple = ()
    setup: object = None
    cleanup: object = None
    needs: str | None = None  # a module the case needs (skipped without it)


def bad(*argv, names=(), files=None, setup=None, cleanup=None, needs=None) -> Bad:
    return Bad(tuple(argv), tuple(names), tuple((files or {}).items()), setup, cleanup, needs)


# files that cannot be read and paths that cannot be written (the cases of issue 13)
UNREADABLE = {"garbage": b"\xff\xfe\x00garbage",
              "latin1.txt": "1r 2r 3r 4r 5\xe9\n".encode("latin-1"),
              "huge.txt": "1r " * 100_000 + "\n", "adir": DIR}
PLAY = ("--level", "14", "--games", "10", "--policy", "greedy", "--jobs", "1", "--no-progress")

GOOD_5 = textwrap.dedent("""\
    1r 2r 3r 4r 5r
    1o 2o 3o 4o 5o
    1y 2y 3y 4y 5y
    1g 2g 3g 4g 5g
    1b 2b 3b 4b 5b
""")


def _with(text: str, row: int, col: int, token: str) -> str:
    lines = text.splitlines()
    cells = lines[row].split()
    cells[col] = token
    lines[row] = " ".join(cells)
    return "\n".join(lines) + "\n"


BAD_GRIDS = {
    # name: (grid text, level, things the message must name besides the file)
    "unknown-token": (_with(GOOD_5, 2, 3, "4x"), 1, ["line 3", "row 2", "col 3", "'4x'"]),
    "unknown-token-word": (_with(GOOD_5, 0, 0, "red"), 1, ["row 0", "col 0", "'red'"]),
    "value-not-in-deck": (_with(GOOD_5, 1, 4, "6o"), 1, ["row 1", "col 4", "'6o'", "deck"]),
    "colour-not-in-deck": (_with(GOOD_5, 4, 1, "2m"), 1, ["row 4", "col 1", "'2m'", "deck"]),
    "duplicate-card": (_with(GOOD_5, 3, 2, "1r"), 1, ["row 3", "col 2", "'1r'", "row 0, col 0"]),
    "short-row": (GOOD_5.replace("1o 2o 3o 4o 5o", "1o 2o 3o 4o"), 1, ["row 1", "4"]),
    "long-row": (GOOD_5.replace("1g 2g 3g 4g 5g", "1g 2g 3g 4g 5g ."), 1, ["row 3", "6"]),
    "too-few-rows": ("\n".join(GOOD_5.splitlines()[:4]) + "\n", 1, ["5 rows", "4"]),
    "6x6-level-5x5-grid": (GOOD_5, 5, ["6 rows", "5"]),
}

# advise's positions
FULL_1 = "\n".join(" ".join(f"{v}{c}" for c in "royg" + "b") for v in range(1, 6)) + "\n"
HOLE_1 = "1r 1o 1y 1g 1b\n2r . 2y 2g 2b\n3r 3o 3y 3g 3b\n4r 4o 4y . 4b\n5r 5o 5y 5g 5b\n"
LONE_1 = ". . . . 4n\n. . . . .\n. . 2o . .\n. . . . .\n. . . . .\n"
NEAR_18 = ". . 1y 1g 1b\n2r 2o 2y 2g 2b\n3r 3o 3y 3g 3b\n4r 4o 4y 4g 4b\n5r 5o 5y 5g 5b\n"
_STATE_14, _GONE_14 = random_position(14, 14, random.Random(2), greedy=True)
GRID_14, HAND_14, _ = position_texts(_STATE_14, _GONE_14)  # level 14, 14 cells empty

SUMMARY_HEADER = ",".join(NEEDED + ("seed",)) + "\n"


def _no_models(ctx):
    """The package's models folder empty (a level without a model)."""
    ctx.monkeypatch.setattr(MF, "MODELS", ctx.dir / "models")
    MF.clear_cache()


def _forget_models(ctx):
    MF.clear_cache()


def _saved_game(ctx):
    s = Session(get_level(2), "play", 1, 0)
    s.apply(s.hand[0], 12)
    s.save(ctx.dir / "g.json")


def _predictions(path):
    """A table of calibrate's predictions (level 14), as --predictions saves it."""
    predictions(14, parse_player("greedy"), 2, 5, continuations=4, decisions=1,
                jobs=1).to_csv(path, index=False)


def _simulate(out, *extra, games=300, level="1,14", policy="greedy", seed=5):
    invoke(["simulate", "--level", level, "--policy", policy, "--games", str(games), "--seed",
            str(seed), "--out", str(out), "--no-progress", "--json", *extra])


def _other(*extra, **kw):
    """A setup: another run directory ``other`` in the scratch directory."""
    return lambda ctx: _simulate(ctx.dir / "other", *extra, **kw)


CASES = {
    # numberup
    "unknown-command": bad("frobnicate", names=["frobnicate"]),
    # score
    **{f"grid-{name}": bad("score", "--level", str(level), "bad.txt", names=["bad.txt", *must],
                           files={"bad.txt": text})
       for name, (text, level, must) in BAD_GRIDS.items()},
    "bad-second-grid-prints-nothing": bad(  # all input is checked before anything is printed
        "score", "--level", "1", "good.txt", "bad.txt",
        names=["bad.txt", "line 11", "row 4", "col 4", "'5q'"],
        files={"good.txt": GOOD_5, "bad.txt": GOOD_5 + "\n" + _with(GOOD_5, 4, 4, "5q")}),
    "no-grid": bad("score", "--level", "1", "empty.txt", names=["empty.txt", "no grid"],
                   files={"empty.txt": "\n# nothing here\n\n"}),
    "score-level-0": bad("score", "--level", "0", "-", names=["--level", "0"]),
    "score-missing-level": bad("score", "-", names=["--level"]),
    "missing-file": bad("score", "--level", "1", "/nonexistent/grids.txt",
                        names=["/nonexistent/grids.txt"]),
    "score-binary": bad("score", "--level", "1", "garbage", names=["garbage", "binary"],
                        files=UNREADABLE),
    "score-not-utf8": bad("score", "--level", "1", "latin1.txt",
                          names=["latin1.txt", "line 1", "UTF-8"], files=UNREADABLE),
    "score-huge-line": bad("score", "--level", "1", "huge.txt",
                           names=["huge.txt", "line 1", "300,000"], files=UNREADABLE),
    "score-endless-binary": bad("score", "--level", "1", "/dev/zero",
                                names=["/dev/zero", "binary"], files=UNREADABLE),
    "score-directory": bad("score", "--level", "1", "adir", names=["adir", "directory"],
                           files=UNREADABLE),
    # levels
    "levels-level-21": bad("levels", "--level", "21", names=["--level", "21"]),
    "levels-level-word": bad("levels", "--level", "two", names=["--level", "two"]),
    # simulate
    "unknown-player": bad("simulate", "--level", "1", "--games", "1", "--policy", "wizard",
                          names=["'wizard'"]),
    "unknown-player-parameter": bad("simulate", "--level", "1", "--games", "1", "--policy",
                                    "greedy:depth=3", names=["'depth'"]),
    "player-parameter-of-random": bad("simulate", "--level", "1", "--games", "1", "--policy",
                                      "random:n=5", names=["'n'"]),
    "simulate-level-0": bad("simulate", "--level", "0", "--games", "1", names=["--level", "0"]),
    "simulate-level-range": bad("simulate", "--level", "19-21", "--games", "1",
                                names=["--level", "19-21"]),
    "simulate-level-junk": bad("simulate", "--level", "x", "--games", "1", names=["--level", "x"]),
    "too-many-jobs": bad("simulate", "--level", "1", "--games", "5", "--jobs", "999",
                         "--no-progress", names=["999"]),
    "bad-player-before-any-output-file": bad(  # neither --out nor --log is made
        "simulate", "--level", "1", "--games", "5", "--policy", "nobody", "--out", "out",
        "--log", "log.jsonl", names=["'nobody'"]),
    "simulate-out-proc": bad("simulate", *PLAY, "--out", "/proc/forbidden",
                             names=["--out", "/proc/forbidden"], files=UNREADABLE),
    "simulate-out-under-device": bad("simulate", *PLAY, "--out", "/dev/null/x",
                                     names=["--out", "/dev/null/x", "Not a directory"],
                                     files=UNREADABLE),
    "simulate-out-is-file": bad("simulate", *PLAY, "--out", "garbage",
                                names=["--out", "garbage"], files=UNREADABLE),
    "simulate-out-empty": bad("simulate", *PLAY, "--out", "", names=["--out", "empty"],
                              files=UNREADABLE),
    "simulate-log-proc": bad("simulate", *PLAY, "--log", "/proc/x", names=["--log", "/proc/x"],
                             files=UNREADABLE),
    "simulate-log-is-directory": bad("simulate", *PLAY, "--log", "adir",
                                     names=["--log", "adir"], files=UNREADABLE),
    **{f"above-maximum-{spec}": bad("simulate", "--level", "14", "--games", "10", "--policy",
                                    spec, names=[f"{name}="])
       for spec, name in [("expectimax:k=4097", "k"), ("expectimax:k=99999999999", "k"),
                          ("expectimax:sample=49", "sample"), ("rollout:n=100001", "n")]},
    **{f"rollout-{label}": bad("simulate", "--level", "3", "-n", "2", "-p", spec, names=names)
       for label, spec, names in [("unknown-base", "rollout:base=minimax", ("minimax", "learned")),
                                  ("base-k-0", "rollout:base=expectimax,bk=0", ("bk",)),
                                  ("base-k-word", "rollout:bk=many", ("bk",))]},
    **{f"no-model-for-{spec}": bad(
        "simulate", "--level", "5", "-n", "2", "-p", spec,
        names=["level 5", "numberup train --level 5"], files={"models": DIR},
        setup=_no_models, cleanup=_forget_models)
       for spec in ("learned", "expectimax:eval=learned")},
    **{f"dask-{value or 'empty'}": bad("simulate", "-l", "1", "-n", "5", "--dask", value,
                                       "--no-progress", names=["--dask"], needs="distributed")
       for value in ["local:0", "local:two", "", "local:99999", "nohost", "tcp://h:port"]},
    "resume-another-run": bad(
        "simulate", "-l", "1,14", "-p", "greedy", "-n", "300", "-s", "6", "--out", "{whole}",
        "--resume", "--no-progress", names=["seed 6", "seed", "--resume"]),
    "fresh-run-on-a-kept-one": bad(
        "simulate", "-l", "1,14", "-p", "greedy", "-n", "300", "-s", "5", "--out", "{whole}",
        "--no-progress", names=["{whole}", "--resume"]),
    # compare
    "compare-unknown-policy": bad("compare", "-l", "1", "-p", "random", "-p", "foo", "-n", "5",
                                  "--no-progress", names=["foo"]),
    "compare-depth-9": bad("compare", "-l", "1", "-p", "expectimax:depth=9", "-n", "5",
                           "--no-progress", names=["depth"]),
    "compare-bad-base": bad("compare", "-l", "1", "-p", "rollout:base=foo", "-n", "5",
                            "--no-progress", names=["foo"]),
    "compare-no-model-for-base-learned": bad(
        "compare", "--level", "6", "-n", "2", "-p", "greedy", "-p", "rollout:base=learned",
        names=["level 6", "numberup train --level 6"], files={"models": DIR},
        setup=_no_models, cleanup=_forget_models),
    # advise
    **{name: bad(*argv, names=[needle], files={"grid.txt": grid})
       for name, argv, grid, needle in [
           ("card-twice-grid-and-card", ["advise", "-l", "1", "--card", "2y", "grid.txt"],
            HOLE_1, "2y"),
           ("card-twice-in-grid", ["advise", "-l", "1", "--card", "2o", "grid.txt"],
            HOLE_1.replace("3g", "1r"), "1r"),
           ("card-in-grid-and-hand", ["advise", "-l", "18", "--hand", "1n 2n 3n 4n 5r",
                                      "grid.txt"], NEAR_18, "5r"),
           ("not-connected", ["advise", "-l", "1", "--card", "3y", "grid.txt"], LONE_1,
            "connected"),
           ("card-not-in-deck", ["advise", "-l", "1", "--card", "1m", "grid.txt"], HOLE_1, "1m"),
           ("value-not-in-deck", ["advise", "-l", "1", "--card", "6r", "grid.txt"], HOLE_1, "6r"),
           ("card-and-hand", ["advise", "-l", "1", "--card", "2o", "--hand", "2o", "grid.txt"],
            HOLE_1, "--hand"),
           ("neither-card-nor-hand", ["advise", "-l", "1", "grid.txt"], HOLE_1, "--card"),
           ("full-grid", ["advise", "-l", "1", "--card", "1n", "grid.txt"], FULL_1, "full"),
           ("unknown-player", ["advise", "-l", "1", "--card", "2o", "-p", "wizard", "grid.txt"],
            HOLE_1, "wizard"),
           ("hand-size", ["advise", "-l", "18", "--hand", "1n 2n 3n", "grid.txt"], NEAR_18,
            "hand"),
           ("card-on-hand-level", ["advise", "-l", "18", "--card", "1n", "grid.txt"], NEAR_18,
            "hand"),
       ]},
    **{f"estimate-{name}": bad("advise", "-l", "14", "--card", HAND_14, *extra, "g.txt",
                               names=names, files={"g.txt": GRID_14})
       for name, extra, names in [
           ("bad-parameter", ["-p", "expectimax:k=0"], ["k=0"]),
           ("bad-budget", ["-p", "best:budget=-1"], ["budget=-1"]),
           ("no-continuations", ["--continuations", "0"], ["--continuations"]),
           ("no-candidates", ["--candidates", "0"], ["--candidates"]),
           ("not-a-count", ["--candidates", "some"], ["--candidates"]),
       ]},
    "advise-binary": bad("advise", "--level", "14", "--card", "3g", "garbage", names=["garbage"],
                         files=UNREADABLE),
    # plot dist, plot medals, plot budget, and the group plot
    "plot-out-proc": bad("plot", "dist", *PLAY, "--out", "/proc/x", names=["--out", "/proc/x"],
                         files=UNREADABLE),
    "plot-output-proc": bad("plot", "dist", *PLAY, "--output", "/proc/x.png",
                            names=["--output", "/proc/x.png"], files=UNREADABLE),
    "plot-output-empty": bad("plot", "dist", *PLAY, "--output", "", names=["--output", "empty"],
                             files=UNREADABLE),
    "no-source": bad("plot", "dist", "--level", "1", names=["--from", "--policy"]),
    "no-level-to-play": bad("plot", "medals", "-p", "greedy", names=["--level"]),
    "two-levels-dist": bad("plot", "dist", "--level", "1,2", "-p", "greedy",
                           names=["--level", "one level"]),
    "bad-output-suffix": bad("plot", "dist", "-l", "1", "-p", "greedy", "--output", "x.pdf",
                             names=["--output", "x.pdf"]),
    "format-mismatch": bad("plot", "dist", "-l", "1", "-p", "greedy", "--output", "x.png",
                           "--format", "svg", names=["--output", "svg"]),
    "output-dir-missing": bad("plot", "dist", "-l", "1", "-p", "greedy", "--output",
                              "/nonexistent/x.png", names=["--output", "/nonexistent"]),
    "plot-bad-player": bad("plot", "dist", "-l", "1", "-p", "wizard", "--games", "5",
                           names=["'wizard'"]),
    "bad-style": bad("plot", "dist", "-l", "1", "-p", "greedy", "--style", "pie",
                     names=["--style", "pie"]),
    "bad-format": bad("plot", "medals", "--format", "gif", names=["--format", "gif"]),
    "unknown-kind": bad("plot", "violin", names=["violin"]),
    "plot-games-zero": bad("plot", "dist", "-l", "1", "-p", "greedy", "--games", "0",
                           names=["--games"]),
    "dist-tables-of-three-levels": bad("plot", "dist", "--from", "{greedy}",
                                       names=["levels 1, 3, 14", "--level"]),
    "dist-level-not-in-tables": bad("plot", "dist", "--from", "{greedy}", "--level", "5",
                                    names=["level 5", "1, 3, 14"]),
    "medals-player-not-in-tables": bad("plot", "medals", "--from", "{greedy}", "-p", "random",
                                       names=["'random'", "greedy"]),
    "medals-seed-with-from": bad("plot", "medals", "--from", "{greedy}", "--seed", "4",
                                 names=["--seed", "--from"]),
    "medals-from-nowhere": bad("plot", "medals", "--from", "nowhere", names=["--from", "nowhere"]),
    "budget-tables-of-three-levels": bad("plot", "budget", "--from", "{greedy}", "--from",
                                         "{random}", names=["--level"]),
    "budget-summary-and-from": bad("plot", "budget", "--summary", "{greedy}/summary.csv",
                                   "--from", "{greedy}", names=["--from", "--summary"]),
    "budget-summary-not-a-table": bad("plot", "budget", "--summary", "{greedy}/games.parquet",
                                      names=["games.parquet"]),
    "budget-level-not-in-summary": bad("plot", "budget", "--summary", "{greedy}/summary.csv",
                                       "-l", "2", names=["level 2"]),
    # campaign
    **{f"campaign-{name}": bad(*argv, names=names, files={"empty": DIR})
       for name, argv, names in [
           ("attempts-0", ["campaign", "--attempts", "0"], ["--attempts"]),
           ("from-nowhere", ["campaign", "--from", "nowhere"], ["--from", "nowhere"]),
           ("from-empty", ["campaign", "--from", "empty"], ["--from", "games.parquet"]),
           ("games-with-from", ["campaign", "--from", "{greedy}", "--games", "10"],
            ["--games", "--from"]),
           ("player-not-in-tables", ["campaign", "--from", "{greedy}", "--policy", "random"],
            ["'random'", "greedy"]),
           ("unknown-player", ["campaign", "--policy", "wizard", "--games", "5"], ["'wizard'"]),
       ]},
    "campaign-out-device": bad("campaign", "--games", "2", "--policy", "greedy", "--out",
                               "/dev/null", names=["--out", "/dev/null"], files=UNREADABLE),
    # calibrate
    **{f"calibrate-{name}": bad("calibrate", "-l", "14", "--games", "2", *extra, names=names)
       for name, extra, names in [
           ("player", ["--for", "wizard"], ["wizard"]),
           ("games", ["--games", "0"], ["--games"]),
           ("decisions", ["--decisions", "0"], ["--decisions"]),
           ("plot-suffix", ["--plot", "x.pdf"], ["x.pdf"]),
           ("out-dir", ["--out", "/nonexistent/c.csv"], ["/nonexistent"]),
           ("from-missing", ["--from", "/nonexistent/p.csv"], ["/nonexistent/p.csv"]),
       ]},
    **{f"calibrate-{name}": bad(*argv, names=names,
                                files={"notes.csv": "a,b\n1,2\n", "p.csv": _predictions})
       for name, argv, names in [
           ("from-not-predictions", ["calibrate", "--from", "notes.csv"],
            ["notes.csv", "predictions"]),
           ("from-another-level", ["calibrate", "--from", "p.csv", "-l", "3"], ["level 3"]),
           ("neither-level-nor-from", ["calibrate"], ["--level", "--from"]),
       ]},
    # hindsight
    **{f"hindsight-{name}": bad("hindsight", *args, names=names)
       for name, args, names in [
           ("level-21", ["--level", "21"], ["level"]),
           ("width-0", ["--level", "1", "--width", "0"], ["--width"]),
           ("width-huge", ["--level", "1", "--width", "10000000"], ["--width"]),
           ("pilot-unknown", ["--level", "1", "--pilot", "nosuch"], ["nosuch"]),
           ("pilot-width-0", ["--level", "1", "--pilot-width", "0"], ["--pilot-width"]),
           ("pilot-restarts-0", ["--level", "1", "--pilot-restarts", "0"], ["--pilot-restarts"]),
           ("exact-negative", ["--level", "1", "--exact", "-1"], ["--exact"]),
           ("layout-negative", ["--level", "8", "--layout", "-1"], ["--layout"]),
           ("games-negative", ["--level", "1", "--games", "-3"], ["--games"]),
           ("jobs-word", ["--level", "1", "--jobs", "x"], ["--jobs"]),
           ("log-in-no-directory", ["--level", "1", "--log", "/no/such/dir/f.jsonl"], ["--log"]),
           ("log-in-proc", ["--level", "1", "--log", "/proc/no-such-file.jsonl"], ["--log"]),
       ]},
    # merge
    "merge-overlap": bad("merge", "{half}", "{whole}", "--out", "m", names=["games 0-", "both"]),
    "merge-seed": bad("merge", "{half}", "other", "--out", "m", names=["seed 6", "seed 5"],
                      setup=_other("--first", "120", seed=6, games=10)),
    "merge-level": bad("merge", "{half}", "other", "--out", "m", names=["levels 1", "levels 1,14"],
                       setup=_other("--first", "120", level="1", games=10)),
    "merge-player": bad("merge", "{half}", "other", "--out", "m", names=["random", "greedy"],
                        setup=_other("--first", "120", policy="random", games=10)),
    "merge-twice": bad("merge", "{half}", "{half}", "--out", "m", names=["given twice"]),
    "merge-not-a-run": bad("merge", "{half}", "other", "--out", "m",
                           names=["other", "not a run directory"], files={"other": DIR}),
    "merge-log": bad("merge", "{half}", "other", "--log", "x.jsonl", "--out", "m",
                     names=["--log"], setup=_other("--first", "300", games=10)),
    # play and assist
    **{f"{argv[0]}-{name}": bad(*argv, names=[needle])
       for name, argv, needle in [
           ("no-level", ["play"], "--level"),
           ("hints-bad-parameter", ["play", "--level", "1", "--hints", "greedy:k=2"], "k"),
           ("hints-unknown", ["play", "--level", "1", "--hints", "bogus"], "bogus"),
           ("level-21", ["assist", "--level", "21"], "21"),
           ("resume-missing", ["play", "--resume", "/nonexistent/x.json"], "/nonexistent/x.json"),
           ("save-in-no-directory", ["play", "--level", "2", "--save", "/nonexistent/dir/x.json"],
            "does not exist"),
       ]},
    "resume-with-the-other-command": bad("assist", "--resume", "g.json",
                                         names=["numberup play --resume"], setup=_saved_game),
    "a-new-game-keeps-a-saved-one": bad("play", "--level", "2", "--save", "g.json",
                                        names=["in progress", "--resume"], setup=_saved_game),
    "a-new-game-keeps-a-file-that-is-no-game": bad(
        "assist", "--level", "2", "--save", "notes.txt", names=["is not a saved game"],
        files={"notes.txt": "my notes\n"}),
    # players
    "players-unknown": bad("players", "wizard", names=["wizard", "greedy"]),
    "players-level-0": bad("players", "--level", "0", names=["--level"]),
    "players-summary-missing": bad("players", "--summary", "/nonexistent.csv",
                                   names=["/nonexistent.csv"]),
    "players-summary-not-a-table": bad("players", "--summary", "s.csv",
                                       names=["s.csv", "seconds_per_game"],
                                       files={"s.csv": "a,b\n1,2\n"}),
    "players-summary-bad-number": bad(
        "players", "--summary", "t.csv", names=["t.csv", "line 2"],
        files={"t.csv": SUMMARY_HEADER + "3,greedy,100,50.0,0.9,0.5,lots,1e-05,1\n"}),
    "players-summary-binary": bad("players", "--summary", "garbage", names=["garbage"],
                                  files=UNREADABLE),
    # train
    **{f"distil-games-{value}": bad("train", "--level", "2", "--distil-games", value,
                                    names=["--distil-games"]) for value in ("-1", "x")},
    "out-with-two-levels": bad("train", "--level", "3,4", "--out", "m.npz", names=["--out"]),
}


def _command_of(argv) -> tuple:
    """The command an invocation names: the longest start of ``argv`` that is one."""
    return next(tuple(argv[:k]) for k in range(len(argv), -1, -1)
                if tuple(argv[:k]) in EVERY_COMMAND)


def _label(path) -> str:
    return "-".join(path) or "numberup"


# every command with each of its cases; a command without one gets a case that fails
HAND = [(path, name) for path in EVERY_COMMAND
        for name in ([n for n, c in CASES.items() if _command_of(c.argv) == path] or [None])]


class RunDirs(dict):
    """The run directories the cases name, each made on first use: ``greedy`` and ``random``
    (levels 1, 3 and 14, 50 games each), ``whole`` (levels 1 and 14, greedy, 300 games of seed
    5 in chunks of 64, with its log) and ``half`` (its first 120 games, with their log)."""

    def __init__(self, factory):
        super().__init__()
        self.factory = factory

    def __missing__(self, name):
        made = self.factory.mktemp(name)
        if name in ("greedy", "random"):
            invoke(["simulate", "--level", "1,3,14", "--games", "50", "--policy", name,
                    "--out", str(made), "--no-progress", "--json"])
        elif name == "whole":
            made = made / "run"
            _simulate(made, "--log", str(made.parent / "log.jsonl"), "--chunk", "64")
        elif name == "half":
            made = made / "a"
            _simulate(made, "--log", str(made.parent / "a.jsonl"), games=120)
        else:
            raise KeyError(name)
        self[name] = str(made)
        return self[name]


@pytest.fixture(scope="module")
def run_dirs(tmp_path_factory):
    return RunDirs(tmp_path_factory)


def _snapshot(root: Path) -> dict:
    """Every file and directory under ``root``: {relative path: bytes, or None for a
    directory}."""
    return {str(p.relative_to(root)): None if p.is_dir() else p.read_bytes()
            for p in sorted(root.rglob("*"))}


@pytest.mark.parametrize("path, name", HAND,
                         ids=[f"{_label(path)}/{name or 'no-case'}" for path, name in HAND])
def test_bad_input(path, name, run_dirs, tmp_path, monkeypatch, capsys):
    assert name is not None, (
        f"'numberup {' '.join(path)}' has no bad input in CASES: give it at least one case")
    case = CASES[name]
    if case.needs:
        pytest.importorskip(case.needs)
    argv = [a.format_map(run_dirs) if "{" in a else a for a in case.argv]
    if any(a.startswith(("/proc/", "/dev/")) for a in argv) and not Path("/proc/self").exists():
        pytest.skip("needs Linux's /proc and /dev")
    monkeypatch.chdir(tmp_path)
    for file, content in case.files:
        where = tmp_path / file
        if content == DIR:
            where.mkdir()
        elif callable(content):
            content(where)
        elif isinstance(content, bytes):
            where.write_bytes(content)
        else:
            where.write_text(content)
    ctx = SimpleNamespace(dir=tmp_path, monkeypatch=monkeypatch, runs=run_dirs)
    if case.setup:
        case.setup(ctx)
    capsys.readouterr()  # what a setup printed
    before = _snapshot(tmp_path)
    try:
        code, out, err = run_main(argv, capsys)
    finally:
        if case.cleanup:
            case.cleanup(ctx)
    assert_one_line_error(code, out, err, [n.format_map(run_dirs) for n in case.names])
    assert _snapshot(tmp_path) == before, "a failed command wrote or changed files"


# --- generated bad input: the property test and the sweep ------------------------------------

# --- files the examples point at (made once, in a directory of their own) ----------------------

def _full_grid(level: int, seed: int = 0) -> str:
    lv = get_level(level)
    cards = list(deck(lv))
    random.Random(seed).shuffle(cards)
    n = lv.size
    return "\n".join(" ".join(format_card(int(c)) for c in cards[r * n:(r + 1) * n])
                     for r in range(n)) + "\n"


def _bad_grids(level: int) -> dict[str, bytes]:
    """Grid files that are wrong in one way each, for ``level``."""
    lv = get_level(level)
    good = _full_grid(level)
    rows = good.splitlines()
    first = rows[0].split()
    not_in_deck = f"{lv.values + 1}r" if lv.values < 9 else "1x"
    colour = (f"1{COLOUR_LETTERS[lv.colours]}" if lv.colours < len(COLOUR_LETTERS) else "1x")
    return {
        "binary": b"\xff\xfe\x00garbage",
        "not-utf8": good.encode()[:5] + b"\xff\xfe" + good.encode()[5:],
        "latin1": good.replace(first[0], "1\xe9").encode("latin-1"),
        "nul": good.encode() + b"\x00",
        "huge-line": ("1r " * 40_000 + "\n").encode(),
        "huge-token": (good + "9" * 100_000 + "\n").encode(),
        "empty": b"",
        "comments-only": b"# nothing here\n",
        "row-missing": "\n".join(rows[:-1]).encode(),
        "row-extra": (good + rows[0] + "\n").encode(),
        "cell-missing": "\n".join([" ".join(first[:-1])] + rows[1:]).encode(),
        "cell-extra": "\n".join([rows[0] + " ."] + rows[1:]).encode(),
        "duplicate": "\n".join([" ".join([first[1]] + first[1:])] + rows[1:]).encode(),
        "value-not-in-deck": good.replace(first[0], not_in_deck, 1).encode(),
        "colour-not-in-deck": good.replace(first[0], colour, 1).encode(),
        "unknown-token": good.replace(first[0], "red", 1).encode(),
        "crlf-and-tabs": good.replace("\n", "\r\n").replace(" ", "\t").encode(),
    }


@pytest.fixture(scope="module")
def place():
    """A scratch directory with the files the examples name; the examples run inside it."""
    root = Path(tempfile.mkdtemp(prefix="numberup-bad-input-"))
    (root / "adir").mkdir()
    (root / "afile").write_text("not a directory\n")
    garbage = root / "garbage-tables"
    garbage.mkdir()
    (garbage / "games.parquet").write_bytes(b"PAR1 not really\x00\xff")
    (garbage / "summary.csv").write_bytes(b"\xff\xfe\x00")
    for level in LEVELS:
        (root / f"good-{level}.txt").write_text(_full_grid(level))
        for name, data in _bad_grids(level).items():
            (root / f"bad-{level}-{name}.txt").write_bytes(data)
    yield root
    shutil.rmtree(root, ignore_errors=True)


@contextmanager
def _inside(root: Path):
    """Run in ``root``, and leave it as it was: files a command writes (plots, tables) go."""
    before = set(os.listdir(root))
    cwd = os.getcwd()
    os.chdir(root)
    try:
        yield
    finally:
        os.chdir(cwd)
        for name in set(os.listdir(root)) - before:
            p = root / name
            shutil.rmtree(p) if p.is_dir() and not p.is_symlink() else p.unlink()


# --- values ----------------------------------------------------------------------------------

BAD_PATHS = ("/proc/nope/x", "/dev/null/x", "afile/x", "adir", "afile", "", "missing/deep/x",
             "garbage-tables")
BAD_INPUT_PATHS = BAD_PATHS + ("/proc/self/mem", "/dev/zero")
JUNK = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
               max_size=30)


def _not_a_number(text: str) -> bool:
    """Python reads '٣٣٣٣' (any script's digits) as 3333: such junk is a valid, and perhaps
    costly, number of games, not bad input."""
    try:
        float(text)
    except (ValueError, OverflowError):
        return True
    return False


NUMBER_JUNK = JUNK.filter(_not_a_number)


def _good_value(param, level: int) -> str | None:
    """A cheap valid value for a required or cost-setting parameter (None: leave it out)."""
    name, t = param.name, param.type
    if isinstance(t, (TextFile, click.File)) and param.required:
        return f"good-{level}.txt"
    if "level" in name:
        return str(level)
    if name == "games":
        return "2"
    if name == "jobs":
        return "1"
    if name in ("policy", "policies"):
        # advise needs a searcher; its full grid stops it before any search runs
        return "rollout:n=1" if "rollout" in str(param.default or "") else "greedy"
    if name == "card":  # advise: with its full grid, the position is refused before any search
        return "1r"
    if not param.required:
        return None
    if isinstance(t, click.Choice):
        return t.choices[0]
    if isinstance(t, (click.IntRange, click.types.IntParamType)):
        return "1"
    return "x"


def _bad_player_specs():
    """Specs the registry rejects, built from the registry itself (unknown names and keys,
    missing values, numbers out of range or malformed, unknown choices)."""
    specs = ["", ":", "wizard", "greedy:", "random:n=1", "GREEDY", "greedy,random"]
    for name, kind in PLAYERS.items():
        specs += [f"{name}:nosuch=1", f"{name}:{'x' * 60}=1"]
        for key, par in kind.params.items():
            specs += [f"{name}:{key}", f"{name}:{key}="]
            if par.choices:
                specs.append(f"{name}:{key}=nosuch")
            else:
                specs += [f"{name}:{key}=x", f"{name}:{key}=1e999"]
                if par.integer:
                    specs.append(f"{name}:{key}=1.5")
                if par.minimum is not None:
                    specs.append(f"{name}:{key}={par.minimum - 1:g}")
                if par.maximum is not None:
                    specs.append(f"{name}:{key}={par.maximum + 1:g}")
    return specs


BAD_SPECS = _bad_player_specs()
BAD_CARDS = ("", "x", "9r", "1z", "1r 1r", "1r,1r", "0r", "10r", "1R 2r 1r", "rr", "1r" * 500,
             "  ", "1r 2r 3r 4r 5r 6r 7r", "-1r", ".")


def _bad_value(param, level: int):
    """A strategy of bad values for ``param``, by its click type and name."""
    t, name = param.type, param.name
    if isinstance(t, (TextFile, click.File)):
        names = [f"bad-{level}-{k}.txt" for k in _bad_grids(level)] + [
            f"good-{lv}.txt" for lv in LEVELS if lv != level] + list(BAD_INPUT_PATHS)
        return st.sampled_from(names) | st.just("-")
    if isinstance(t, click.Path):
        return st.sampled_from(BAD_PATHS)
    if isinstance(t, LevelsParam):
        return st.sampled_from(["0", "21", "-1", "5-3", "1-99", "x", "", ",", "1,,2", "all,1",
                                "9" * 40]) | JUNK
    if isinstance(t, JobsParam):
        return st.sampled_from(["0", "-1", "99999", "x", "1.5", ""]) | JUNK
    if isinstance(t, click.IntRange):
        lo, hi = t.min, t.max
        out = ["x", "", "1.5", "1e3", "9" * 40, "-" + "9" * 40]
        out += [str(lo - 1)] if lo is not None else []
        out += [str(hi + 1)] if hi is not None else []
        return st.sampled_from(out) | NUMBER_JUNK
    if isinstance(t, (click.types.IntParamType, click.types.FloatParamType)):
        return st.sampled_from(["x", "", "nan", "inf", "1e999", "9" * 40]) | NUMBER_JUNK
    if isinstance(t, click.Choice):
        return st.sampled_from(["nosuch", "", "PNG"]) | JUNK
    if name in ("policy", "policies"):
        return st.sampled_from(BAD_SPECS) | JUNK
    if name == "dask":  # malformed only: a test never reaches out to a host
        return st.sampled_from(["", "local:0", "local:x", "local:-1", "local:1.5", "local:99999",
                                "nohost", "tcp://", "tcp://h:port", "h:123456", "a b:1"])
    if name in ("card", "hand", "discarded"):
        return st.sampled_from(BAD_CARDS) | JUNK
    return JUNK


def _argv(path, params: dict, cmd) -> list[str]:
    argv = list(path)
    args = []
    for p in cmd.params:
        if p.name not in params:
            continue
        value = params[p.name]
        if isinstance(p, click.Argument):
            args.append(value)
        elif p.is_flag:
            argv.append(p.opts[0])
        else:
            argv += [p.opts[0], value]
    return argv + args


@st.composite
def bad_invocations(draw):
    path, cmd = draw(st.sampled_from(COMMANDS))
    level = draw(st.sampled_from(LEVELS))
    params = {p.name: v for p in cmd.params
              if p.name != "help" and (v := _good_value(p, level)) is not None}
    spoil = draw(st.sampled_from(["value", "value", "value", "unknown-option", "stray-argument",
                                  "missing"]))
    choices = [p for p in cmd.params if p.name != "help" and not getattr(p, "is_flag", False)]
    extra = []
    if spoil == "value" and choices:
        p = draw(st.sampled_from(choices))
        params[p.name] = draw(_bad_value(p, level))
    elif spoil == "missing" and (required := sorted(p.name for p in cmd.params
                                                    if p.required and p.name in params)):
        # a required parameter left out (leaving out an optional one, such as --games, only
        # runs its default: a valid and perhaps long run, not bad input)
        del params[draw(st.sampled_from(required))]
    elif spoil == "unknown-option":
        extra = [draw(st.sampled_from(["--nosuch", "-Z", "--level=", "--games=-1", "--"]))]
    else:
        extra = [draw(JUNK)]
    stdin = draw(st.sampled_from([b"", b"\xff\xfe\x00", _full_grid(level).encode(), b"q\n"]))
    return _argv(path, params, cmd) + extra, stdin


TRIED: list[tuple[str, int]] = []


@settings(max_examples=EXAMPLES, deadline=None, derandomize=DERANDOMIZE, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=bad_invocations())
def test_every_command_fails_cleanly_on_bad_input(case, place):
    argv, stdin = case
    with _inside(place):
        code, out, err = run_isolated(argv, stdin)
    TRIED.append((" ".join(argv[:2]), code))
    assert code in (0, 2), f"numberup {argv} exited {code}:\n{err}"
    assert "Traceback" not in err, f"numberup {argv}:\n{err}"
    if code == 2:
        assert_one_line_error(code, out, err)


def test_the_property_test_reaches_every_command_and_both_outcomes():
    """The examples above cover every command and end both in errors and in successes (run
    after it; on its own it runs nothing)."""
    if not TRIED:
        pytest.skip("run with test_every_command_fails_cleanly_on_bad_input")
    seen = {argv for argv, _ in TRIED}
    for path, _ in COMMANDS:
        assert any(s.startswith(" ".join(path[:2])) for s in seen), f"{path} never tried"
    codes = [code for _, code in TRIED]
    assert codes.count(2) > len(codes) // 2 and 0 in codes, codes


def _extremes(param) -> list[str]:
    """The edge values of a parameter's type: just outside its range, huge, malformed."""
    t = param.type
    if isinstance(t, click.IntRange):
        out = ["x", "9" * 40, "-" + "9" * 40]
        out += [str(t.min - 1)] if t.min is not None else []
        out += [str(t.max + 1)] if t.max is not None else []
        return out
    if isinstance(t, (click.types.IntParamType, click.types.FloatParamType)):
        return ["x", "nan", "1e999", "9" * 40]
    if isinstance(t, (LevelsParam, JobsParam)):
        return ["0", "21", "9" * 40, "x"]
    if isinstance(t, (TextFile, click.File)):
        return ["bad-14-binary.txt", "bad-14-huge-line.txt", "adir", "/proc/nope/x"]
    if isinstance(t, click.Path):
        return ["/proc/nope/x", "/dev/null/x", "afile/x", ""]
    if param.name in ("policy", "policies"):
        return [s for s in BAD_SPECS if "=" in s and s.rsplit("=", 1)[1][:1].isdigit()]
    return []


SWEEP = [(path, cmd, p) for path, cmd in COMMANDS for p in cmd.params
         if p.name != "help" and _extremes(p)]


@pytest.mark.parametrize("path, cmd, param", SWEEP,
                         ids=[f"{' '.join(path)} {p.name}" for path, cmd, p in SWEEP])
def test_every_parameter_at_its_edges(path, cmd, param, place):
    """Each parameter of each command, at each edge value of its type, alone in a cheap valid
    invocation of level 14 (a deterministic sweep beside the random examples above)."""
    params = {p.name: v for p in cmd.params
              if p.name != "help" and (v := _good_value(p, 14)) is not None}
    for value in _extremes(param):
        argv = _argv(path, {**params, param.name: value}, cmd)
        with _inside(place):
            code, out, err = run_isolated(argv)
        assert code in (0, 2) and "Traceback" not in err, f"numberup {argv} exited {code}:\n{err}"
        if code == 2:
            assert_one_line_error(code, out, err)
