"""What a filter's bits say about it: distinct values inserted and false-positive rate.

A split block Bloom filter of ``B`` blocks has ``m = 256·B`` bits: each block is
eight 32-bit words. Inserting a value picks one block, then sets one bit in each
of its eight words (k = 8 bits per insert, one per word). After ``n`` distinct
inserts a given bit is still clear with probability ``(1 - 1/(32·B))^n ≈
exp(-8n/m)`` (it is chosen only when its block is, 1/B, and then its word picks
it, 1/32). With ``f`` the fraction of set bits, the estimate of ``n`` is therefore

    n̂ = ln(1 - f) / ln(1 - 1/(32·B))  ≈  -(m / 8) · ln(1 - f)    (infinite when f = 1)

A probe for an absent value picks a block uniformly and one bit in each word,
so its chance to pass (the false-positive probability of this very filter) is

    FPP = (1/B) · Σ_blocks Π_words popcount(word) / 32

which is exact for this bitset (over a uniform hash), not an estimate.
"""

from __future__ import annotations

import math

import numpy as np

from ..reference import SplitBlockBloomFilter

# popcount of every byte value
_POP8 = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)


def word_popcounts(filt: SplitBlockBloomFilter) -> np.ndarray:
    """``(num_blocks, 8)`` array of set bits per 32-bit word."""
    raw = np.frombuffer(filt.to_bytes(), dtype=np.uint8).reshape(-1, 8, 4)
    counts: np.ndarray = _POP8[raw].sum(axis=2, dtype=np.uint32)
    return counts


def fill(filt: SplitBlockBloomFilter) -> float:
    """Fraction of the filter's bits that are set."""
    return float(word_popcounts(filt).sum()) / (filt.num_bytes * 8)


def estimated_ndv(filt: SplitBlockBloomFilter) -> float | None:
    """Distinct values inserted, from the fill: ``ln(1-f) / ln(1-1/(32·B))``; None when saturated."""
    f = fill(filt)
    if f >= 1.0:
        return None
    return math.log1p(-f) / math.log1p(-1.0 / (32 * filt.num_blocks))


def fpp(filt: SplitBlockBloomFilter) -> float:
    """The filter's false-positive probability: mean over blocks of Π_words fill(word)."""
    words = word_popcounts(filt).astype(np.float64) / 32.0
    return float(np.prod(words, axis=1).mean())
