"""The one error the tools raise for bad input (exit status 2)."""

from __future__ import annotations


class BadInput(Exception):
    """A missing file, a file that is not Parquet, an unknown column or an
    unparsable value: the CLI prints ``bloomparquet: <message>`` and exits 2."""
