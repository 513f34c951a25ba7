"""Bad input of every kind, to every command: one line on stderr and exit status 2 (or a
normal exit 0 when the input turns out to be fine), never a traceback.

The property test finds the commands by walking the click group after ``numberup --help``
has registered them, so a command added later is fuzzed without touching this file. Each
example takes a command with a cheap valid invocation (tiny --games, --policy greedy, --jobs
1; level 1, 14 or 19) and spoils one thing: a parameter's value (by its click type and name:
numbers out of range, unknown choices, bad levels, player specs that the registry rejects, bad
cards, input files that are binary, not UTF-8, huge, of the wrong size, with duplicate cards or
cards not in the deck, output paths that cannot be written), an unknown option, a stray
argument or a missing required parameter.
"""

from __future__ import annotations

import os
import random
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracles.cli_checks import assert_one_line_error, run_isolated
from numberup.game.cards import COLOUR_LETTERS, deck, format_card
from numberup.game.levels import get_level
from numberup.players.registry import PLAYERS
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
