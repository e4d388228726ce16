"""Filter sizes as the writer and ``retrofit`` choose them (a mirror of the JVM's
``io.bloomparquet.write.FilterSizing``): the spec's formula
(``reference.optimal_num_bytes``), grown to the smallest block count whose
expected FPP with Poisson block loads is at most the target."""

from __future__ import annotations

import math

from ..reference import MAX_BYTES, optimal_num_bytes

_BLOCK = 32
_MAX_BLOCKS = MAX_BYTES // _BLOCK


def expected_fpp(num_blocks: int, ndv: int) -> float:
    """Expected FPP of ``num_blocks`` blocks holding ``ndv`` distinct values: a block
    with k values has each probed bit set with probability 1 - (31/32)^k, k ~ Poisson(ndv/blocks)."""
    if ndv <= 0:
        return 0.0
    lam = ndv / num_blocks
    if lam > 600:
        return 1.0
    last = int(lam + 12 * math.sqrt(lam) + 30)
    pmf, total = math.exp(-lam), 0.0
    for k in range(last + 1):
        total += pmf * (1 - (31 / 32) ** k) ** 8
        pmf *= lam / (k + 1)
    return total


def num_bytes(ndv: int, fpp: float) -> int:
    """Bytes of the filter the writer builds for ``ndv`` distinct values at ``fpp``."""
    blocks = optimal_num_bytes(ndv, fpp) // _BLOCK
    if ndv <= 0 or expected_fpp(blocks, ndv) <= fpp:
        return blocks * _BLOCK
    lo, hi = blocks, blocks * 2
    while hi < _MAX_BLOCKS and expected_fpp(hi, ndv) > fpp:
        lo, hi = hi, hi * 2
    if hi >= _MAX_BLOCKS:
        return _MAX_BLOCKS * _BLOCK
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if expected_fpp(mid, ndv) > fpp:
            lo = mid
        else:
            hi = mid
    return hi * _BLOCK
