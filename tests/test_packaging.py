"""numberup as a package people install: the wheel carries every subpackage, the models and the
measured results the commands read, and works from a fresh virtual environment outside the
checkout."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_every_folder_of_the_package_is_listed():
    """pyproject.toml lists the packages by hand (cli/ installs as numberup_cli): a new folder
    of numberup/ must be among them, or the wheel leaves it out."""
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    folders = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "numberup").rglob("__init__.py")}
    assert folders - listed == set()
    assert listed - folders == {"numberup_cli"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The wheel, built from a copy of the sources of its own: pip builds in the source tree
    (setuptools' build/ and egg-info there), so two test workers building from the checkout at
    once could trip over each other's files."""
    src = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    for name in ("numberup", "cli"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(src)],
                   check=True, capture_output=True, text=True)
    (path,) = out.glob("numberup-*.whl")
    return path


def test_the_wheel_carries_subpackages_models_and_data(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("numberup/game/engine.py", "numberup/players/registry.py", "numberup/runs/loop.py",
                   "numberup/data/summary.csv", "numberup/data/scores.csv",
                   "numberup_cli/main.py", "numberup_cli/group.py"):
        assert needed in names
    models = [n for n in names if n.startswith("numberup/learned/models/") and n.endswith(".npz")]
    assert len(models) == 20


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    """A fresh virtual environment with the wheel installed, and a folder outside the checkout.

    The venv sees no site-packages of this interpreter; numberup's dependencies come from them
    by a path file instead, which adds them as plain folders: the editable install of the
    checkout (a .pth hook there) is not activated, so ``import numberup`` can only find the
    wheel."""
    home = tmp_path_factory.mktemp("venv")
    venv = home / "env"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    inner = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                           check=True, capture_output=True, text=True).stdout.strip()
    outer = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (Path(inner) / "_dependencies.pth").write_text("\n".join(outer) + "\n")
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
                   check=True, capture_output=True, text=True)
    away = home / "elsewhere"
    away.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["NUMBA_CACHE_DIR"] = str(home / "numba-cache")
    return venv, away, env


def _run(installed, *args, stdin=None, compiled=True):
    """``numberup *args`` of the venv, from the folder outside the checkout; ``compiled``
    False runs the kernels as plain Python (``NUMBA_DISABLE_JIT``)."""
    venv, away, env = installed
    if not compiled:
        env = dict(env, NUMBA_DISABLE_JIT="1")
    return subprocess.run([str(venv / "bin" / "numberup"), *args], cwd=away, env=env, input=stdin,
                          capture_output=True, text=True, timeout=600)


def test_the_installed_package_is_the_wheel(installed):
    venv, away, env = installed
    where = subprocess.run([str(venv / "bin" / "python"), "-c", "import numberup; print(numberup.__file__)"],
                           cwd=away, env=env, capture_output=True, text=True, check=True).stdout
    assert str(venv) in where and str(ROOT) not in where
    version = _run(installed, "--version")
    from numberup import __version__

    assert version.returncode == 0 and version.stdout.strip() == f"numberup, version {__version__}"


def test_the_wheels_kernels_compile_and_are_cached(installed):
    """The installed package's kernels compile, run and are cached (in the venv's own
    NUMBA_CACHE_DIR: this checkout's cache holds code of other source files)."""
    env = installed[2]
    sim = _run(installed, "simulate", "--level", "1", "-p", "greedy", "--games", "200", "--json")
    assert sim.returncode == 0, sim.stderr
    assert '"games": 200' in sim.stdout
    assert any(Path(env["NUMBA_CACHE_DIR"]).rglob("*.nbc"))


def test_commands_work_outside_the_checkout(installed, tmp_path):
    """Every command that loads a player, a model or the measured results finds them in the
    wheel. The kernels run as plain Python here: compiling the players' kernels once more for
    the wheel's source files costs CI about 100 s and proves nothing the checkout's tests and
    the test above do not (the two differ only in where the files are)."""
    sim = _run(installed, "simulate", "--level", "1", "--games", "3", "--json", compiled=False)
    assert sim.returncode == 0, sim.stderr
    assert '"games": 3' in sim.stdout and '"policy": "best"' in sim.stdout

    players = _run(installed, "players", "--level", "19", compiled=False)
    assert players.returncode == 0, players.stderr
    assert "results/summary.csv" in players.stdout and "rollout:n=200" in players.stdout

    grid = tmp_path / "grid.txt"
    grid.write_text(". . . . .\n. . 2g . .\n. . 2n 3o .\n. . 2y 3r .\n. . . . .\n")
    advise = _run(installed, "advise", "--level", "14", "--card", "3g", "--policy",
                  "expectimax:k=4", "--continuations", "20", str(grid), compiled=False)
    assert advise.returncode == 0, advise.stderr
    assert "expectimax:k=4" in advise.stdout

    save = tmp_path / "game.json"
    play = _run(installed, "play", "--level", "1", "--seed", "3", "--save", str(save), "--hints",
                "expectimax:k=2", "--no-color", stdin="c3\nc2\nhint\nquit\n", compiled=False)
    assert play.returncode == 0, play.stderr
    assert "Best actions by expectimax:k=2" in play.stdout and "Saved in" in play.stdout
    assert save.is_file()


def test_the_package_data_is_the_committed_results():
    """numberup/data/ is written from results/ by results/package_data.py (make.sh step 4b):
    the two must not drift apart."""
    import csv

    pq = pytest.importorskip("pyarrow.parquet")
    assert (ROOT / "numberup/data/summary.csv").read_bytes() == (ROOT / "results/summary.csv").read_bytes()
    assert (ROOT / "numberup/data/best.csv").read_bytes() == (ROOT / "results/best.csv").read_bytes()
    counts: dict[tuple, int] = {}
    seen: set = set()
    for run in ("baseline", "learned", "objective"):  # package_data.py: a level x player once
        games = pq.read_table(ROOT / f"results/runs/{run}/games.parquet",
                              columns=["level", "policy", "score"]).to_pylist()
        new = {(int(g["level"]), g["policy"]) for g in games} - seen
        seen |= new
        for g in games:
            if (int(g["level"]), g["policy"]) in new:
                key = (int(g["level"]), g["policy"], int(g["score"]))
                counts[key] = counts.get(key, 0) + 1
    with open(ROOT / "numberup/data/scores.csv", newline="") as f:
        shipped = {(int(r["level"]), r["policy"], int(r["score"])): int(r["games"])
                   for r in csv.DictReader(f)}
    assert shipped == counts
