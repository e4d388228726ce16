"""xxHash64 (seed 0) of 4- and 8-byte inputs, vectorised over numpy arrays.

Follows the XXH64 spec for inputs shorter than 32 bytes; uint64 arithmetic in
numpy wraps modulo 2**64 exactly as the spec requires.
"""

from __future__ import annotations

import numpy as np

_P1 = np.uint64(0x9E3779B185EBCA87)
_P2 = np.uint64(0xC2B2AE3D27D4EB4F)
_P3 = np.uint64(0x165667B19E3779F9)
_P4 = np.uint64(0x85EBCA77C2B2AE63)
_P5 = np.uint64(0x27D4EB2F165667C5)


def _rotl(x: np.ndarray, r: int, tmp: np.ndarray) -> None:
    """Rotate ``x`` left by ``r`` in place (``tmp``: scratch of the same shape)."""
    np.right_shift(x, np.uint64(64 - r), out=tmp)
    x <<= np.uint64(r)
    x |= tmp


def _avalanche(h: np.ndarray, tmp: np.ndarray) -> np.ndarray:
    np.right_shift(h, np.uint64(33), out=tmp)
    h ^= tmp
    h *= _P2
    np.right_shift(h, np.uint64(29), out=tmp)
    h ^= tmp
    h *= _P3
    np.right_shift(h, np.uint64(32), out=tmp)
    h ^= tmp
    return h


# Every step runs in place on one result array and one scratch array: the
# arithmetic is a few cycles per value, allocating temporaries costs more.


def xxh64_u32(words: np.ndarray) -> np.ndarray:
    """XXH64 of each value's 4 little-endian bytes; ``words`` is viewed as uint32."""
    h = np.ascontiguousarray(words).view(np.uint32).astype(np.uint64)
    tmp = np.empty_like(h)
    h *= _P1
    h ^= _P5 + np.uint64(4)
    _rotl(h, 23, tmp)
    h *= _P2
    h += _P3
    return _avalanche(h, tmp)


def xxh64_u64(words: np.ndarray) -> np.ndarray:
    """XXH64 of each value's 8 little-endian bytes; ``words`` is viewed as uint64."""
    lane = np.ascontiguousarray(words).view(np.uint64)
    h = lane * _P2
    tmp = np.empty_like(h)
    _rotl(h, 31, tmp)
    h *= _P1
    h ^= _P5 + np.uint64(8)
    _rotl(h, 27, tmp)
    h *= _P1
    h += _P4
    return _avalanche(h, tmp)
