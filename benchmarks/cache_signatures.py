"""Which kernels numba compiled for more than one signature, read from a numba cache.

Every kernel called from Python (a game loop, a searcher, a training loop) is compiled with
every kernel below it linked in and optimised again, so a kernel compiled for a second set of
argument types (read-only against writable weights, a literal ``1`` against an int64) costs
its whole call tree's compiling once more. This lists, per kernel with two or more
signatures, the arguments whose types differ::

    export NUMBA_CACHE_DIR=$(mktemp -d); python -m pytest; python benchmarks/cache_signatures.py $NUMBA_CACHE_DIR

(any cache directory: the suite's, or one a ``numberup`` command filled)."""

from __future__ import annotations

import argparse
import pickle
from pathlib import Path


def signatures(index: Path) -> list[tuple]:
    """The argument types of each signature an index file (``.nbi``) holds."""
    with index.open("rb") as f:
        pickle.load(f)  # numba's version
        _stamp, overloads = pickle.loads(f.read())
    return [key[0] for key in overloads]


def short(t: str, width: int = 70) -> str:
    return t if len(t) <= width else t[:30] + " ... " + t[-30:]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cache", type=Path, help="a numba cache directory (NUMBA_CACHE_DIR)")
    ap.add_argument("--all", action="store_true", help="list kernels of one signature too")
    args = ap.parse_args()
    rows = []
    for index in sorted(args.cache.rglob("*.nbi")):
        sigs = signatures(index)
        if len(sigs) > 1 or args.all:
            name = index.name.split(".py")[0]
            rows.append((len(sigs), f"{index.parent.parent.name.split('_')[0]}.{name}", sigs))
    total = sum(n for n, _, _ in rows)
    for n, name, sigs in sorted(rows, key=lambda r: (-r[0], r[1])):
        print(f"{n}  {name}")
        for i in range(max(len(s) for s in sigs)):
            kinds = sorted({str(s[i]) if i < len(s) else "-" for s in sigs})
            if len(kinds) > 1:
                print(f"     argument {i}: " + " | ".join(short(k) for k in kinds))
    print(f"{len(rows)} kernels listed, {total} signatures")


if __name__ == "__main__":
    main()
