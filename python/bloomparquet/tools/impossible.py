"""A filter that excludes its own chunk's min or max is corrupt (the reader's
``pruning/ImpossibleFilter``, in Python): an all-zero or damaged bitset that
parses fine. Integers and binary only: writers store ``-0.0`` as the min of a
float chunk holding ``0.0``, and the filter holds only ``0.0``'s hash.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..reference import SplitBlockBloomFilter, xxh64_plain

_WIDTH = {"INT32": 32, "INT64": 64}


def impossible_reason(chunk: Any, filt: SplitBlockBloomFilter) -> str | None:
    """Why ``filt`` cannot be the filter of ``chunk`` (pyarrow ColumnChunkMetaData), if it can't."""
    stats, phys = chunk.statistics, chunk.physical_type
    if stats is None or not stats.has_min_max or phys not in ("INT32", "INT64", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"):
        return None
    bounds = [("min", stats.min_raw), ("max", stats.max_raw)]
    value: np.ndarray | list[bytes]
    for name, raw in bounds:
        if phys in _WIDTH:  # the stored bits, whatever the logical signedness
            bits = _WIDTH[phys]
            value = np.array([raw & ((1 << bits) - 1)], dtype=np.uint32 if bits == 32 else np.uint64)
        else:
            value = [raw]
        if not filt.check_hashes(xxh64_plain(value, phys)).all():
            return f"filter excludes the chunk's own {name} ({raw!r}): a corrupt bitset"
    return None
