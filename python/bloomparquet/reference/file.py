"""Read the bloom filters stored in a Parquet file (footer offsets via pyarrow)."""

from __future__ import annotations

import os
from typing import BinaryIO

from ._thrift import ThriftError, read_struct
from .sbbf import MAX_BYTES, SplitBlockBloomFilter

_HEADER_PROBE = 64


class BloomFilterFormatError(ValueError):
    """A stored bloom filter that is not a valid SBBF/XXHASH/UNCOMPRESSED filter."""


def parse_bloom_filter(data: bytes) -> tuple[SplitBlockBloomFilter, int]:
    """Parse a stored filter: a thrift header and the bitset it announces.

    Parameters
    ----------
    data : bytes
        Bytes starting at the filter's header (a footer's ``bloom_filter_offset``).

    Returns
    -------
    tuple of (SplitBlockBloomFilter, int)
        The filter, and the bytes of ``data`` it used.

    Raises
    ------
    BloomFilterFormatError
        Not a valid SBBF/XXHASH/UNCOMPRESSED filter.
    """
    try:
        header, size = read_struct(data)
    except ThriftError as e:
        raise BloomFilterFormatError(f"unreadable header: {e}") from e
    num_bytes = header.get(1)
    # Unions: field 1 (BLOCK / XXHASH / UNCOMPRESSED) is the only defined member.
    for field, name in ((2, "algorithm BLOCK"), (3, "hash XXHASH"), (4, "compression UNCOMPRESSED")):
        if not isinstance(header.get(field), dict) or 1 not in header[field]:
            raise BloomFilterFormatError(f"header lacks {name}: {header}")
    if not isinstance(num_bytes, int) or num_bytes <= 0 or num_bytes % 32 or num_bytes > MAX_BYTES:
        raise BloomFilterFormatError(f"numBytes {num_bytes} is not a positive multiple of 32 up to {MAX_BYTES}")
    if size + num_bytes > len(data):
        raise BloomFilterFormatError(f"bitset of {num_bytes} bytes is truncated")
    return SplitBlockBloomFilter.from_bytes(data[size : size + num_bytes]), size + num_bytes


def read_filter_bytes(f: BinaryIO, offset: int, length: int | None) -> bytes:
    """The bytes of the filter at ``offset`` of the open file ``f``: ``length`` bytes
    when the footer states a positive ``bloom_filter_length``, else the header and
    the bitset it announces (capped at the largest valid bitset)."""
    f.seek(offset)
    if length is not None and length > 0:
        return f.read(length)
    head = f.read(_HEADER_PROBE)
    try:
        header, size = read_struct(head)
        rest = int(header.get(1, 0))
    except (ThriftError, TypeError, ValueError) as e:
        raise BloomFilterFormatError(f"unreadable header: {e}") from e
    return head + f.read(max(0, min(max(rest, 0), MAX_BYTES) + size - len(head)))


def _refuse_encrypted(path: str | os.PathLike[str]) -> None:
    """ValueError for a file with Parquet modular encryption, found in our own decoding of the footer:
    pyarrow aborts the whole process ("Cannot decrypt ColumnMetadata") on an encrypted column's metadata."""
    from . import _rawfooter

    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        f.seek(max(0, size - 8))
        tail = f.read(8)
        if len(tail) < 8 or tail[4:] not in (b"PAR1", b"PARE"):
            return  # not Parquet: pyarrow says so
        if tail[4:] == b"PARE":
            raise ValueError(f"{path}: encrypted footer (Parquet modular encryption): no filter is read without keys")
        length = int.from_bytes(tail[:4], "little")
        if not 0 < length <= size - 12:
            return
        f.seek(size - 8 - length)
        footer = f.read(length)
    try:
        meta = _rawfooter.decode(footer)
    except ThriftError:
        return  # pyarrow's error names what is wrong
    encrypted = _rawfooter.encrypted_columns(meta)
    if encrypted:
        paths = _rawfooter.leaf_paths(meta)
        names = ", ".join(paths[i] if i < len(paths) else str(i) for i in encrypted)
        raise ValueError(
            f"{path}: columns encrypted with Parquet modular encryption ({names}): no filter is read without keys"
        )


def read_bloom_filters(path: str | os.PathLike[str]) -> dict[tuple[int, str], SplitBlockBloomFilter]:
    """Every bloom filter in a local Parquet file.

    Parameters
    ----------
    path : str or os.PathLike
        The Parquet file.

    Returns
    -------
    dict of (int, str) to SplitBlockBloomFilter
        Keyed by ``(row_group_index, dotted_column_path)``; chunks without a
        filter are absent.

    Raises
    ------
    BloomFilterFormatError
        A filter that is not valid.
    ValueError
        A file with encrypted columns or footer (pyarrow would abort the process).

    Examples
    --------
    >>> from pathlib import Path
    >>> first = sorted(Path("/lake/events").glob("*.parquet"))[0]
    >>> columns = sorted({column for _, column in read_bloom_filters(first)})
    """
    import pyarrow.parquet as pq

    _refuse_encrypted(path)
    meta = pq.ParquetFile(path).metadata
    out: dict[tuple[int, str], SplitBlockBloomFilter] = {}
    with open(path, "rb") as f:
        file_size = os.fstat(f.fileno()).st_size
        for rg in range(meta.num_row_groups):
            group = meta.row_group(rg)
            for c in range(group.num_columns):
                chunk = group.column(c)
                offset, length = chunk.bloom_filter_offset, chunk.bloom_filter_length
                if offset is None or offset == -1:  # -1: parquet-java's "no filter"
                    continue
                if offset < 0 or offset >= file_size:
                    raise BloomFilterFormatError(f"offset {offset} outside file of {file_size} bytes")
                data = read_filter_bytes(f, offset, length)
                out[(rg, chunk.path_in_schema)] = parse_bloom_filter(data)[0]
    return out
