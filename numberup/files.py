"""Files written whole: a temporary file beside the target, renamed over it only when it is
complete, so that no reader and no interrupted run ever sees half a file."""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path


def temporary_beside(path) -> Path:
    """The name a file is written under before it is renamed over ``path``:
    ``.NAME.<pid>.tmp`` in the same folder (so the rename stays on one file system)."""
    path = Path(path)
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


@contextmanager
def written_whole(path):
    """Yield a temporary path beside ``path`` to write; when the block ends without an
    exception it is renamed over ``path``, otherwise removed. An OSError (a full disk says only
    'No space left') is raised again naming ``path``."""
    path = Path(path)
    tmp = temporary_beside(path)
    try:
        yield tmp
        os.replace(tmp, path)
    except OSError as err:
        raise type(err)(err.errno, err.strerror or str(err), str(path)) from None
    finally:
        tmp.unlink(missing_ok=True)


@contextmanager
def atomic_write(path, mode: str = "w"):
    """Open a file to write that appears at ``path`` only whole (:func:`written_whole`). A path
    that is not a regular file (a device such as /dev/stdout or /dev/full, a pipe) is written
    in place: renaming over it would replace the device."""
    path = Path(path)
    if path.exists() and not path.is_file():
        with open(path, mode) as f:
            yield f
        return
    with written_whole(path) as tmp, open(tmp, mode) as f:
        yield f
