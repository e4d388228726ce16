"""Shared output helpers: JSON-ready values, text tables and the progress indicator."""

from __future__ import annotations

import datetime as dt
import decimal
import math
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

#: Bumped when a ``--json`` field changes meaning or disappears (new fields don't bump it).
SCHEMA_VERSION = 1

_PROGRESS_MIN_FILES = 20


def jsonable(value: Any) -> Any:
    """``value`` as JSON: bytes as ``0x`` hex, dates/times ISO 8601, decimals as
    strings (exact), NaN/inf floats as strings, everything else unchanged."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "0x" + bytes(value).hex()
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if hasattr(value, "item"):  # numpy scalars
        return jsonable(value.item())
    return value


def statistics(chunk: Any) -> dict[str, Any] | None:
    """``{"min", "max", "null_count"}`` of a pyarrow column chunk, None without min/max."""
    try:
        st = chunk.statistics
    except Exception:  # noqa: BLE001 - pyarrow cannot convert some logical types' stats
        return None
    if st is None or not st.has_min_max:
        return None
    try:
        lo, hi = st.min, st.max
    except Exception:  # noqa: BLE001
        return None
    return {"min": jsonable(lo), "max": jsonable(hi), "null_count": st.null_count if st.has_null_count else None}


def count(n: int, noun: str) -> str:
    """``n`` and ``noun``, in the plural unless ``n`` is 1 (nouns here take an ``s``): "1 file", "3 row groups"."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def table(rows: Sequence[Sequence[Any]], header: Sequence[str]) -> str:
    """A plain text table; numbers right-aligned."""
    cells = [[str(h) for h in header]] + [["" if c is None else str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    numeric = [all(_numeric(r[i]) for r in cells[1:]) and len(cells) > 1 for i in range(len(header))]
    lines = []
    for r in cells:
        lines.append("  ".join(c.rjust(w) if n else c.ljust(w) for c, w, n in zip(r, widths, numeric)).rstrip())
    return "\n".join(lines)


def _numeric(s: str) -> bool:
    return s.replace(",", "").replace(".", "", 1).replace("%", "").replace("-", "", 1).isdigit() or s in ("", "-")


def short(value: Any, width: int = 24) -> str:
    """``value`` as text of at most ``width`` characters."""
    s = "" if value is None else str(value)
    return s if len(s) <= width else s[: width - 1] + "…"


def progress(items: Sequence[T], label: str) -> Iterator[T]:
    """Yield ``items``, drawing ``label i/n`` on stderr when there are many and stderr is a TTY."""
    show = len(items) > _PROGRESS_MIN_FILES and sys.stderr.isatty()
    for i, item in enumerate(items, 1):
        if show:
            sys.stderr.write(f"\r{label} {i}/{len(items)}")
            sys.stderr.flush()
        yield item
    if show:
        sys.stderr.write("\r" + " " * (len(label) + 24) + "\r")
        sys.stderr.flush()


def fmt_pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.2%}"


def fmt_int(x: float | None) -> str:
    return "-" if x is None else f"{int(round(x)):,}"


def flatten(xs: Iterable[Iterable[T]]) -> list[T]:
    return [x for sub in xs for x in sub]
