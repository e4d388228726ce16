"""Reference of a bloom digest's parts, in numpy: filters halved without their values, and a size
class of filters stored block-major (row ``b`` holds block ``b`` of every entry), probed one row
per value. Cross-verifies the JVM's ``sbbf.FilterFolding`` and ``digest.BlockMajorClass``."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..tools.estimate import fpp
from .sbbf import SplitBlockBloomFilter


def _words(f: SplitBlockBloomFilter) -> np.ndarray:
    """``(num_blocks, 8)`` uint32 words of ``f``."""
    return np.frombuffer(f.to_bytes(), dtype="<u4").astype(np.uint32).reshape(-1, 8)


def fold(f: SplitBlockBloomFilter) -> SplitBlockBloomFilter:
    """The filter of half the blocks: block ``j`` is the OR of blocks ``2j`` and ``2j+1``.

    For a power-of-two block count the spec's block index of a value in half the blocks is its
    index shifted right by one, so this is the filter the same values would have built.

    Raises
    ------
    ValueError
        ``f`` is one block, or its block count is not a power of two.
    """
    blocks = f.num_blocks
    if blocks < 2 or blocks & (blocks - 1):
        raise ValueError(f"a filter of {blocks} blocks cannot be halved")
    halved = np.bitwise_or.reduce(_words(f).reshape(-1, 2, 8), axis=1)
    return SplitBlockBloomFilter.from_bytes(halved.astype("<u4").tobytes())


def right_sized(f: SplitBlockBloomFilter, max_fpp: float) -> SplitBlockBloomFilter:
    """``f`` halved while its false-positive rate (exact for its bits) stays at most ``max(max_fpp, fpp(f))``."""
    bound = max(max_fpp, fpp(f))
    while f.num_blocks >= 2 and not f.num_blocks & (f.num_blocks - 1):
        half = fold(f)
        if fpp(half) > bound:
            break
        f = half
    return f


def block_major(filters: Sequence[SplitBlockBloomFilter]) -> np.ndarray:
    """``(num_blocks, entries, 8)`` uint32: row ``b`` is block ``b`` of every filter, in order."""
    if not filters or len({f.num_blocks for f in filters}) != 1:
        raise ValueError("a class holds one or more filters of one size")
    return np.stack([_words(f) for f in filters], axis=1)


def probe(rows: np.ndarray, hash_: int) -> np.ndarray:
    """Which entries of a block-major class (:func:`block_major`) may hold the value of ``hash_``."""
    h = np.uint64(hash_)
    row = rows[(int(h) >> 32) * rows.shape[0] >> 32]
    # Each entry's block, as a one-block filter: the spec's block index of any hash there is 0.
    one = np.array([h], dtype=np.uint64)
    return np.array(
        [SplitBlockBloomFilter.from_bytes(block.astype("<u4").tobytes()).check_hashes(one)[0] for block in row]
    )
