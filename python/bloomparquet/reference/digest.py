"""Reference of a bloom digest, in numpy: filters halved without their values, size classes of
filters stored block-major (row ``b`` holds block ``b`` of every entry) and probed one row per
value, and the digest file (a Puffin file) read whole. Cross-verifies the JVM's
``sbbf.FilterFolding`` and package ``digest``."""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

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


_File = tuple[str, int, int, str | None, list[tuple[int, int, int]]]
_Class = tuple[str, list[str], str, int, list[tuple[int, int]], list[int]]


@dataclass(frozen=True)
class DigestClass:
    """A size class of one column stored as leaf ``leaf`` of ``parquet_type``: its entries ``(file, row_group)``
    and their block-major words."""

    column: str
    leaf: list[str]
    parquet_type: str
    entries: list[tuple[int, int]]
    rows: np.ndarray  # (num_blocks, entries, 8) uint32


@dataclass(frozen=True)
class Digest:
    """A bloom digest read whole: its files ``(path, length, mtime, version, row groups)``, classes, bound,
    properties, and the offset of its index blob (a table's pointer names it: planning reads from there on)."""

    files: list[_File]
    classes: list[DigestClass]
    fpp: float
    properties: dict[str, str]
    index_offset: int

    def may_hold(self, column: str, hash_: int) -> set[tuple[int, int]]:
        """The ``(file, row_group)`` entries of ``column`` whose filter may hold the value of ``hash_``."""
        out: set[tuple[int, int]] = set()
        for c in self.classes:
            if c.column == column:
                out.update(e for e, hit in zip(c.entries, probe(c.rows, hash_), strict=True) if hit)
        return out


_MAGIC = b"PFA1"


def read_digest(data: bytes) -> Digest:
    """A digest file (a Puffin file: ``PFA1``, blobs, JSON footer) read whole, as the JVM writes it.

    Raises
    ------
    ValueError
        ``data`` is not a whole digest.
    """
    if len(data) < 20 or data[:4] != _MAGIC or data[-4:] != _MAGIC:
        raise ValueError("not a Puffin file")
    size, flags = struct.unpack_from("<ii", data, len(data) - 12)
    start = len(data) - 12 - size - 4
    if flags != 0 or start < 4 or data[start : start + 4] != _MAGIC:
        raise ValueError("not a Puffin footer")
    footer = json.loads(data[start + 4 : start + 4 + size].decode("utf-8"))
    blobs = footer["blobs"]
    (index,) = (b for b in blobs if b["type"] == "bloomparquet-digest-index-v1")
    blob = data[index["offset"] : index["offset"] + index["length"]]
    (length,) = struct.unpack_from("<q", blob)
    encoded = zlib.decompress(blob[8:])
    if len(encoded) != length:
        raise ValueError(f"digest index inflates to {len(encoded)} bytes, not {length}")
    files, classes, fpp = _index(encoded)
    class_blobs = [b for b in blobs if b["type"] == "bloomparquet-sbbf-block-major-v1"]
    read = []
    for (column, leaf, parquet_type, blocks, entries, checksums), blob in zip(classes, class_blobs, strict=True):
        payload = data[blob["offset"] : blob["offset"] + blob["length"]]
        row_bytes = len(payload) // blocks
        crcs = [zlib.crc32(payload[r * row_bytes : (r + 1) * row_bytes]) for r in range(blocks)]
        if crcs != checksums:
            raise ValueError(f"rows of the class of {column} do not match their checksums")
        rows = np.frombuffer(payload, dtype="<u4").astype(np.uint32).reshape(blocks, len(entries), 8)
        read.append(DigestClass(column, leaf, parquet_type, entries, rows))
    return Digest(files, read, fpp, footer.get("properties", {}), index["offset"])


def _index(blob: bytes) -> tuple[list[_File], list[_Class], float]:
    at = 0

    def take(fmt: str) -> tuple[Any, ...]:
        nonlocal at
        out = struct.unpack_from(fmt, blob, at)
        at += struct.calcsize(fmt)
        return out

    def string() -> str:
        nonlocal at
        (n,) = take("<i")
        at += n
        return blob[at - n : at].decode("utf-8")

    version, fpp = take("<id")
    if version != 1:
        raise ValueError(f"digest index version {version}")
    files: list[_File] = []
    for _ in range(take("<i")[0]):
        path = string()
        length, mtime = take("<qq")
        file_version = string() or None
        row_groups = [(int(a), int(b), int(c)) for a, b, c in (take("<qqq") for _ in range(take("<i")[0]))]
        files.append((path, length, mtime, file_version, row_groups))
    classes: list[_Class] = []
    for _ in range(take("<i")[0]):
        column = string()
        leaf = [string() for _ in range(take("<i")[0])]
        parquet_type = string()
        blocks, n = take("<ii")
        entries = [(int(f), int(g)) for f, g in (take("<ii") for _ in range(n))]
        checksums = [int(c) for (c,) in (take("<I") for _ in range(take("<i")[0]))]
        classes.append((column, leaf, parquet_type, blocks, entries, checksums))
    if at != len(blob):
        raise ValueError("bytes after the digest index")
    return files, classes, fpp
