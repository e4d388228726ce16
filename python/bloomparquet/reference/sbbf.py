"""Split block Bloom filter of the Parquet spec, every operation a numpy array op."""

from __future__ import annotations

import math

import numpy as np

BLOCK_BYTES = 32
MIN_BYTES = BLOCK_BYTES
MAX_BYTES = 128 * 1024 * 1024

_SALT = np.array(
    [0x47B6137B, 0x44974D91, 0x8824AD5B, 0xA2B7289D, 0x705495C7, 0x2DF1424B, 0x9EFC4947, 0x5C6BFB31],
    dtype=np.uint32,
)


def bits_per_value(fpp: float) -> float:
    """The spec's bits per distinct value for false-positive probability ``fpp``."""
    return -8.0 / math.log(1.0 - fpp ** (1.0 / 8.0))


def optimal_num_bytes(ndv: int, fpp: float) -> int:
    """Bytes for ``ndv`` distinct values at ``fpp``: the spec's formula rounded up to
    whole 32-byte blocks, bounded to [32 B, 128 MiB]. Same answer as the JVM's."""
    if ndv < 0:
        raise ValueError(f"ndv must be >= 0, got {ndv}")
    if not 0.0 < fpp < 1.0:
        raise ValueError(f"fpp must be in (0, 1), got {fpp}")
    blocks = max(1.0, math.ceil(ndv * bits_per_value(fpp) / (BLOCK_BYTES * 8)))
    return int(min(blocks * BLOCK_BYTES, MAX_BYTES))


def _as_hashes(hashes: np.ndarray) -> np.ndarray:
    arr = np.asarray(hashes)
    if arr.dtype == np.int64:
        arr = arr.view(np.uint64)
    if arr.dtype != np.uint64:
        raise TypeError(f"hashes must be uint64 (or int64), got {arr.dtype}")
    return arr.ravel()


class SplitBlockBloomFilter:
    """A Parquet SBBF: ``num_blocks`` blocks of eight little-endian uint32 words.

    Build one with ``SplitBlockBloomFilter(num_bytes)`` (a positive multiple of 32,
    at most 128 MiB) or :meth:`from_bytes`; insert and check uint64 hashes in bulk.
    """

    __slots__ = ("_words",)

    def __init__(self, num_bytes: int) -> None:
        _check_size(num_bytes)
        self._words = np.zeros((num_bytes // BLOCK_BYTES, 8), dtype=np.uint32)

    @classmethod
    def from_bytes(cls, bitset: bytes | bytearray | memoryview) -> SplitBlockBloomFilter:
        """A filter over a copy of the spec bitset ``bitset``."""
        _check_size(len(bitset))
        f = cls.__new__(cls)
        f._words = np.frombuffer(bytes(bitset), dtype="<u4").astype(np.uint32).reshape(-1, 8)
        return f

    @property
    def num_blocks(self) -> int:
        return int(self._words.shape[0])

    @property
    def num_bytes(self) -> int:
        return self.num_blocks * BLOCK_BYTES

    def _locate(self, hashes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = _as_hashes(hashes)
        with np.errstate(over="ignore"):
            block = ((h >> np.uint64(32)) * np.uint64(self.num_blocks)) >> np.uint64(32)
            key = (h & np.uint64(0xFFFFFFFF)).astype(np.uint32)
            bit = (key[:, None] * _SALT[None, :]) >> np.uint32(27)
        mask = np.left_shift(np.uint32(1), bit, dtype=np.uint32)
        return block.astype(np.intp), mask

    def insert_hashes(self, hashes: np.ndarray) -> None:
        """Insert every uint64 hash in ``hashes``."""
        block, mask = self._locate(hashes)
        # bitwise_or.at accumulates when several hashes hit the same block.
        np.bitwise_or.at(self._words, block, mask)

    def check_hashes(self, hashes: np.ndarray) -> np.ndarray:
        """``bool`` array: True where the hash may have been inserted."""
        block, mask = self._locate(hashes)
        return np.all((self._words[block] & mask) == mask, axis=1)

    def to_bytes(self) -> bytes:
        """The spec bitset: words in order, little-endian."""
        return self._words.astype("<u4").tobytes()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SplitBlockBloomFilter) and np.array_equal(self._words, other._words)

    def __repr__(self) -> str:
        return f"SplitBlockBloomFilter(num_blocks={self.num_blocks})"


def _check_size(num_bytes: int) -> None:
    if not (MIN_BYTES <= num_bytes <= MAX_BYTES and num_bytes % BLOCK_BYTES == 0):
        raise ValueError(f"num_bytes {num_bytes} is not a multiple of {BLOCK_BYTES} in [{MIN_BYTES}, {MAX_BYTES}]")
