"""The package's layers, read from every module's imports (``ast``; nothing is imported).

From the bottom up: ``game`` (the rules as arrays) <- ``evaluation`` <- ``learned`` <-
``players`` <- ``runs`` <- ``training`` and ``analysis`` <- ``reports`` and ``interactive`` <-
``cli``. A module imports only from its own layer, from the layers below it, and from the
leaves anyone may import (``jit``, ``errors``, ``stats``, ``files``); two layers on one floor
import neither each other. No module takes part in an import circle (imports inside functions
count too), and the heavy libraries are imported only in the layers that need them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FLOORS = [("game",), ("evaluation",), ("learned",), ("players",), ("runs",),
          ("training", "analysis"), ("reports", "interactive"), ("cli",)]
FLOOR = {layer: k for k, floor in enumerate(FLOORS) for layer in floor}
LEAVES = {"numberup", "numberup.jit", "numberup.errors", "numberup.stats", "numberup.files"}
# `python -m numberup`: the command line's entry point, which no module imports
ENTRY_POINTS = {"numberup.__main__"}
# the libraries a layer may import, where not every layer may
LIBRARIES = {
    "matplotlib": {"reports"},
    "rich": {"reports", "interactive", "cli"},
    "pandas": {"runs", "training", "analysis", "reports", "cli"},
    "pyarrow": {"runs"},
    "dask": {"runs"},
    "distributed": {"runs"},
}


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / "numberup").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    for path in sorted((ROOT / "cli").glob("*.py")):
        out["numberup_cli" + ("" if path.stem == "__init__" else "." + path.stem)] = path
    return out


MODULES = _modules()


def _imports(name: str, path: Path) -> tuple[set[str], set[str]]:
    """The package's modules and the outside libraries (top-level names) that ``name`` imports,
    anywhere in its file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    inside, outside = set(), set()

    def add(target: str) -> None:
        if target in MODULES:
            inside.add(target)
        elif target.split(".")[0] in ("numberup", "numberup_cli"):
            raise AssertionError(f"{path}: imports {target}, which is no module of the package")
        else:
            outside.add(target.split(".")[0])

    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            for alias in node.names:  # a submodule, or a name of the module
                sub = f"{module}.{alias.name}"
                add(sub if sub in MODULES else module)
    return inside, outside


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def layer_of(name: str) -> str | None:
    """The layer of a module (None: a leaf or an entry point)."""
    if name in LEAVES or name in ENTRY_POINTS:
        return None
    if name.startswith("numberup_cli"):
        return "cli"
    return name.split(".")[1]


def upward_imports() -> list[str]:
    bad = []
    for name, (inside, _) in GRAPH.items():
        if name in ENTRY_POINTS:
            continue
        here = layer_of(name)
        for target in inside:
            there = layer_of(target)
            if there is None and target in LEAVES:
                continue
            if here is None:  # a leaf imports leaves only
                bad.append(f"{name} (a leaf) -> {target}")
            elif there is None or (there != here and FLOOR[there] >= FLOOR[here]):
                bad.append(f"{name} ({here}) -> {target} ({there or 'entry point'})")
    return sorted(bad)


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module, or a module importing itself
    (Tarjan's algorithm, iterative)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1 or node in graph.get(node, ()):
                        out.append(sorted(group))
    return out


def test_every_module_is_on_a_layer():
    unknown = [n for n in MODULES if layer_of(n) is not None and layer_of(n) not in FLOOR]
    assert not unknown, f"modules outside every layer (add the folder to FLOORS): {unknown}"


def test_imports_run_only_downward():
    assert upward_imports() == []


def test_no_import_circles():
    assert circles({n: inside for n, (inside, _) in GRAPH.items()}) == []


def test_the_circle_finder_finds_circles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d"}, "e": {"a"}}
    assert sorted(circles(graph)) == [["a", "b", "c"], ["d"]]


@pytest.mark.parametrize("library", sorted(LIBRARIES))
def test_heavy_libraries_only_in_their_layers(library):
    where = sorted(n for n, (_, outside) in GRAPH.items()
                   if library in outside and layer_of(n) not in LIBRARIES[library])
    assert where == [], f"{library} imported outside {sorted(LIBRARIES[library])}"


def test_no_module_holds_two_ideas():
    """A module past ~400 lines probably holds two ideas (450 at the most)."""
    long = {n: len(p.read_text().splitlines()) for n, p in MODULES.items()}
    assert {n: k for n, k in long.items() if k > 450} == {}
