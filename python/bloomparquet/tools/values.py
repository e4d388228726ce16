"""Command-line text to the physical value a column stores, and its filter hash.

Values are parsed by the column's logical type, then hashed as the spec says:
xxHash64 of the value's PLAIN encoding (without BYTE_ARRAY's length prefix).

* integers (INT32/INT64, ``Int(8..64, signed or unsigned)``): decimal text;
  unsigned values keep their bits (``4294967295`` in a ``UINT_32`` is stored as -1)
* decimals of every physical type: ``12.30``; the unscaled value is stored as
  INT32/INT64, big-endian two's complement of the fixed length
  (FIXED_LEN_BYTE_ARRAY) or in the fewest bytes (BYTE_ARRAY)
* ``Date``: ``2024-01-31`` or days since 1970-01-01
* ``Timestamp(millis|micros|nanos)``: ``2024-01-31T12:00:00.123456789`` with an
  optional ``Z``/``+hh:mm`` offset (none means UTC, which is the stored value for
  both UTC-adjusted and local timestamps), or the raw integer in the column's unit
* ``Time``: ``12:34:56.789`` or the raw integer
* strings (``String``, ``Enum``, ``JSON``): the text's UTF-8 bytes
* binary (unannotated BYTE_ARRAY, ``BSON``): ``0x`` + hex, otherwise the text's UTF-8
* FIXED_LEN_BYTE_ARRAY: ``0x`` + hex of exactly its length; ``UUID``: a UUID;
  ``Float16``: a number
* FLOAT/DOUBLE: a number. NaN and ±0 can never be excluded safely (SQL equality
  treats 0.0 = -0.0 and NaN payloads differ, but the hash sees raw bits), so they
  are :data:`MAY_CONTAIN` without looking at the filter.
"""

from __future__ import annotations

import datetime as dt
import decimal
import re
import uuid
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..reference import xxh64_plain
from .errors import BadInput
from .types import ColumnType

#: A probe value the filter must not be asked about (NaN, ±0): always may-contain.
MAY_CONTAIN: Any = object()

_UNIT_NS = {"milliseconds": 1_000_000, "microseconds": 1_000, "nanoseconds": 1}
_DATETIME = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?"
)
_TIME = re.compile(r"(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?")


def parse_value(text: str, col: ColumnType) -> Any:
    """The physical value ``text`` means in ``col`` (int, float or bytes), or
    :data:`MAY_CONTAIN`. Raises :class:`BadInput` when it means none."""
    if not col.hashable:
        raise BadInput(f"{col.path}: {col.physical} columns have no bloom filter hash")
    try:
        return _parse(text if col.physical == "BYTE_ARRAY" and col.kind != "Decimal" else text.strip(), col)
    except BadInput:
        raise
    except (ValueError, ArithmeticError, OverflowError) as e:
        raise BadInput(f"{col.path}: cannot read {text!r} as {col.describe()} ({e})") from None


def _parse(text: str, col: ColumnType) -> Any:
    kind, phys = col.kind, col.physical
    if kind == "Decimal":
        return _decimal(text, col)
    if kind == "Date":
        return (
            int(text) if re.fullmatch(r"[+-]?\d+", text) else (dt.date.fromisoformat(text) - dt.date(1970, 1, 1)).days
        )
    if kind == "Timestamp":
        return _in_range(_timestamp(text, col.logical["timeUnit"]), 64, True, text)
    if kind == "Time":
        return _time(text, col.logical["timeUnit"], 32 if phys == "INT32" else 64)
    if kind == "UUID":
        return uuid.UUID(text).bytes
    if kind == "Float16":
        return _float(text, np.float16)
    if phys in ("INT32", "INT64"):
        width = int(col.logical.get("bitWidth", 32 if phys == "INT32" else 64))
        return _in_range(int(text), width, bool(col.logical.get("isSigned", True)), text)
    if phys in ("FLOAT", "DOUBLE"):
        return _float(text, np.float32 if phys == "FLOAT" else np.float64)
    if kind in ("String", "Enum", "JSON"):
        return text.encode("utf-8")
    data = bytes.fromhex(text[2:]) if text[:2].lower() == "0x" else text.encode("utf-8")
    if phys == "FIXED_LEN_BYTE_ARRAY" and len(data) != col.length:
        raise BadInput(f"{col.path}: {text!r} is {len(data)} bytes, the column holds {col.length}-byte values")
    return data


def _in_range(value: int, width: int, signed: bool, text: str) -> int:
    lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
    if not lo <= value <= hi:
        raise BadInput(f"{text!r} is outside the column's {'' if signed else 'un'}signed {width}-bit range")
    return value


def _float(text: str, dtype: type) -> Any:
    value = dtype(float(text))
    if np.isnan(value) or value == 0:
        return MAY_CONTAIN
    return value.tobytes() if dtype is np.float16 else float(value)


def _decimal(text: str, col: ColumnType) -> Any:
    value = decimal.Decimal(text)
    if not value.is_finite():
        raise ValueError("not a finite number")
    unscaled = value.scaleb(col.scale)
    if unscaled != unscaled.to_integral_value():
        raise BadInput(f"{col.path}: {text!r} has more than the column's {col.scale} decimal places")
    n = int(unscaled)
    if len(str(abs(n))) > col.precision:
        raise BadInput(f"{col.path}: {text!r} has more than the column's {col.precision} digits")
    if col.physical in ("INT32", "INT64"):
        return n
    if col.physical == "FIXED_LEN_BYTE_ARRAY":
        return n.to_bytes(col.length, "big", signed=True)
    return n.to_bytes(max(1, (n + (n < 0)).bit_length() // 8 + 1), "big", signed=True)


def _fraction_ns(frac: str | None) -> int:
    return int((frac or "").ljust(9, "0")) if frac else 0


def _to_unit(ns: int, unit: str, text: str) -> int:
    per = _UNIT_NS[unit]
    if ns % per:
        raise BadInput(f"{text!r} is finer than the column's unit ({unit})")
    return ns // per


def _timestamp(text: str, unit: str) -> int:
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    m = _DATETIME.fullmatch(text)
    if not m:
        raise ValueError("expected YYYY-MM-DD[THH:MM[:SS[.fffffffff]]][Z|±HH:MM] or an integer")
    y, mo, d, h, mi, s, frac, tz = m.groups()
    days = (dt.date(int(y), int(mo), int(d)) - dt.date(1970, 1, 1)).days
    seconds = days * 86400 + int(h or 0) * 3600 + int(mi or 0) * 60 + int(s or 0)
    if tz and tz != "Z":
        sign = -1 if tz[0] == "-" else 1
        digits = tz[1:].replace(":", "")
        seconds -= sign * (int(digits[:2]) * 3600 + int(digits[2:]) * 60)
    return _to_unit(seconds * 1_000_000_000 + _fraction_ns(frac), unit, text)


def _time(text: str, unit: str, width: int) -> int:
    if re.fullmatch(r"[+-]?\d+", text):
        return _in_range(int(text), width, True, text)
    m = _TIME.fullmatch(text)
    if not m:
        raise ValueError("expected HH:MM[:SS[.fffffffff]] or an integer")
    h, mi, s, frac = m.groups()
    ns = (int(h) * 3600 + int(mi) * 60 + int(s or 0)) * 1_000_000_000 + _fraction_ns(frac)
    return _to_unit(ns, unit, text)


def hash_values(values: Sequence[Any], col: ColumnType) -> np.ndarray:
    """uint64 filter hashes of parsed values (none of them :data:`MAY_CONTAIN`)."""
    if col.physical in ("INT32", "INT64"):
        width = 32 if col.physical == "INT32" else 64
        signed = [v - (1 << width) if v >= 1 << (width - 1) else v for v in values]  # unsigned: same bits
        return xxh64_plain(np.array(signed, dtype=np.int64), col.physical)  # type: ignore[arg-type]
    if col.physical in ("FLOAT", "DOUBLE"):
        return xxh64_plain(np.array(values, dtype=np.float64), col.physical)  # type: ignore[arg-type]
    return xxh64_plain(list(values), col.physical)  # type: ignore[arg-type]
