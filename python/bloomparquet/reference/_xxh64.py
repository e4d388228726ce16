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


def _rotl(x: np.ndarray, r: int) -> np.ndarray:
    return (x << np.uint64(r)) | (x >> np.uint64(64 - r))


def _avalanche(h: np.ndarray) -> np.ndarray:
    h ^= h >> np.uint64(33)
    h *= _P2
    h ^= h >> np.uint64(29)
    h *= _P3
    h ^= h >> np.uint64(32)
    return h


def xxh64_u32(words: np.ndarray) -> np.ndarray:
    """XXH64 of each value's 4 little-endian bytes; ``words`` is viewed as uint32."""
    lane = np.ascontiguousarray(words).view(np.uint32).astype(np.uint64)
    with np.errstate(over="ignore"):
        h = np.full(lane.shape, _P5 + np.uint64(4), dtype=np.uint64)
        h ^= lane * _P1
        h = _rotl(h, 23) * _P2 + _P3
        return _avalanche(h)


def xxh64_u64(words: np.ndarray) -> np.ndarray:
    """XXH64 of each value's 8 little-endian bytes; ``words`` is viewed as uint64."""
    lane = np.ascontiguousarray(words).view(np.uint64)
    with np.errstate(over="ignore"):
        k1 = _rotl(lane * _P2, 31) * _P1
        h = np.full(lane.shape, _P5 + np.uint64(8), dtype=np.uint64)
        h ^= k1
        h = _rotl(h, 27) * _P1 + _P4
        return _avalanche(h)
