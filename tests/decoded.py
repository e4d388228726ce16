"""Test helper: UUID keys for dictionary-encoded string columns, and what a scan decoded."""

from __future__ import annotations

import random
import uuid
from typing import Any

import pyarrow as pa

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


def key_rows(ids: range, keys: list[str]) -> pa.Table:
    """Rows ``ids`` of a table of ``len(keys)`` rows: ``k`` a permutation of 0..len(keys)-1 (unsorted:
    statistics can't prune it), ``ks`` the UUID (dictionary-encoded by every writer at these sizes),
    ``cat`` one of 'a', 'c', 'e', ``f`` = id / 4, ``seq`` = id (sorted), ``ts`` = id seconds."""
    return pa.table(
        {
            "k": pa.array([(i * 7919) % len(keys) for i in ids], pa.int64()),
            "ks": pa.array([keys[i] for i in ids], pa.string()),
            "cat": pa.array([("a", "c", "e")[i % 3] for i in ids], pa.string()),
            "f": pa.array([i * 0.25 for i in ids], pa.float64()),
            "seq": pa.array(list(ids), pa.int64()),
            "ts": pa.array([i * 1_000_000 for i in ids], pa.timestamp("us", tz="UTC")),
        }
    )


def ratio(ours: float, base: float) -> float:
    """``ours / base``; 1 where both are 0, infinite where only the base is."""
    return ours / base if base else (1.0 if ours == 0 else float("inf"))
