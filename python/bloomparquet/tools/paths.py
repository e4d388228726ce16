"""Expanding command-line paths (files, directories, globs) into Parquet files."""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable, Sequence

from .errors import BadInput


def _hidden(name: str) -> bool:
    """Spark's rule: names starting with ``_`` or ``.`` are metadata, not data."""
    return name.startswith(("_", "."))


def _walk(directory: str) -> list[str]:
    found: list[str] = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not _hidden(d))
        found.extend(os.path.join(root, f) for f in sorted(files) if not _hidden(f))
    return found


def expand(paths: Sequence[str]) -> list[str]:
    """Every data file under ``paths``: files as given, directories searched
    recursively and globs expanded (``**`` included), skipping ``_``/``.``-prefixed
    names inside directories. Raises :class:`BadInput` for a path that names
    nothing, or when nothing at all is found."""
    out: list[str] = []
    for p in paths:
        matches: Iterable[str]
        if os.path.exists(p):
            matches = [p]
        elif glob.has_magic(p):
            matches = sorted(glob.glob(p, recursive=True))
            if not matches:
                raise BadInput(f"{p}: no file matches")
        else:
            raise BadInput(f"{p}: no such file or directory")
        for m in matches:
            out.extend(_walk(m) if os.path.isdir(m) else [m])
    unique = list(dict.fromkeys(out))  # first occurrence of each, in order
    if not unique:
        raise BadInput(f"{', '.join(paths)}: no data files (names starting with _ or . are skipped)")
    return unique
