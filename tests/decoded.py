"""Test helper: UUID keys for dictionary-encoded string columns, and what a scan decoded."""

from __future__ import annotations

import random
import uuid
from typing import Any

import bloomparquet as bp

from .spark_conf import rows


def uuid_keys(n: int, seed: int) -> list[str]:
    """``n`` random version-4 UUID strings, the same for a seed."""
    rng = random.Random(seed)
    return [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in range(n)]


def absent_like(keys: list[str], i: int) -> str:
    """A key not among ``keys`` (at 1 in 2^120), sorting next to ``keys[i]``: inside every chunk's min and max."""
    return ("7" if keys[i][0] != "7" else "8") + keys[i][1:]


def decoded(df) -> tuple[list[tuple[Any, ...]], int]:
    """``df``'s rows, and the rows its scans decoded (0 where the optimizer found no row can match: no scan)."""
    got = rows(df)
    return got, bp.scan_metrics(df).get("numOutputRows", 0)
