"""Which leaf columns of a file a command looks at."""

from __future__ import annotations

from collections.abc import Sequence

from .. import _options
from .footer import ParquetFooter


def selected_columns(footer: ParquetFooter, names: Sequence[str] | None) -> list[int]:
    """Indices of ``names`` (all leaf columns when None); :class:`BadInput` for an unknown
    or encrypted one, and for all columns of a file with encrypted ones."""
    if not names:
        if footer.encrypted:
            raise footer.encryption_refused("some columns are encrypted")
        return list(range(footer.metadata.num_columns))
    return [footer.column_index(n) for n in names]


def split_names(text: str | None) -> list[str] | None:
    """``"a,b"`` -> ``["a", "b"]``; None or empty -> None (every column)."""
    return _options.column_names(text) or None
