"""The rows every file class holds: a row id, two probed key columns (``k`` BIGINT, ``s``
STRING, bloom-filtered, with nulls) and the class's own odd columns, plus the predicates
that probe them. Small: 1,200 rows in 4 row groups of 6 pages each."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

ROWS = 1200
ROW_GROUP = 300
PAGE_ROWS = 50
NDV = ROW_GROUP  # bloom filter sizing: every row group's keys are distinct
HIT_ID = 777  # a row whose keys are set
# Never keys (keys are multiples of 3) but inside the first row groups' min/max: only a filter prunes them.
K_MISS, S_MISS = 1000, "s-001000"


def key(i: int) -> int:
    return i * 3


def skey(i: int) -> str:
    return f"s-{key(i):06d}"


def k_null(i: int) -> bool:
    return i % 23 == 0


def s_null(i: int) -> bool:
    return i % 19 == 0


def base_table(rows: int = ROWS) -> pa.Table:
    ids = np.arange(rows, dtype=np.int64)
    return pa.table(
        {
            "id": pa.array(ids),
            "k": pa.array([None if k_null(i) else key(i) for i in range(rows)], pa.int64()),
            "s": pa.array([None if s_null(i) else skey(i) for i in range(rows)], pa.string()),
        }
    )


# Predicates on the probed columns, asked of every class: point hit and miss, IN with hits,
# misses and a null, null-safe equality with a value and with null.
KEY_PREDICATES = [
    f"k = {key(HIT_ID)}",
    f"k = {K_MISS}",
    f"k IN ({K_MISS}, {key(HIT_ID)}, {key(1000)}, NULL)",
    f"k <=> {key(HIT_ID)}",
    "k <=> NULL",
    f"s = '{skey(HIT_ID)}'",
    f"s = '{S_MISS}'",
    f"s IN ('{S_MISS}', '{skey(5)}', '{skey(1199)}')",
    f"s <=> '{skey(HIT_ID)}'",
    f"k = {key(HIT_ID)} OR s = '{skey(20)}'",
]
