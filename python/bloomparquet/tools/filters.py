"""Reading one column chunk's bloom filter and saying exactly what is wrong with it.

Unlike ``reference.read_bloom_filters`` (which raises on the first bad filter),
this keeps going: every chunk gets a :class:`ChunkFilter` with the filter, or the
problems found, so ``verify`` can report them all and ``inspect`` can show them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import BinaryIO

from ..reference import BloomFilterFormatError, SplitBlockBloomFilter, parse_bloom_filter
from ..reference.file import read_filter_bytes
from .footer import ParquetFooter


@dataclass
class ChunkFilter:
    """The stored filter of one column chunk, as far as it could be read."""

    offset: int
    length: int | None  # bloom_filter_length from the footer, when the writer set it
    header_bytes: int | None = None
    num_bytes: int | None = None
    filter: SplitBlockBloomFilter | None = None
    problems: list[str] = field(default_factory=list)


def chunk_location(footer: ParquetFooter, rg: int, col: int) -> tuple[int | None, int | None]:
    """``(bloom_filter_offset, bloom_filter_length)``; ``(None, None)`` without a filter."""
    chunk = footer.metadata.row_group(rg).column(col)
    offset, length = chunk.bloom_filter_offset, chunk.bloom_filter_length
    if offset is None or offset < 0:
        return None, None
    return offset, (length if length is not None and length > 0 else None)


def read_chunk_filter(footer: ParquetFooter, f: BinaryIO, rg: int, col: int) -> ChunkFilter | None:
    """The filter of chunk ``(rg, col)`` read from the open file ``f``; None when the
    chunk has none. Problems (bad offset, header, size, length) are collected, not raised."""
    offset, length = chunk_location(footer, rg, col)
    if offset is None:
        return None
    out = ChunkFilter(offset, length)
    if not 4 <= offset < footer.footer_start:
        out.problems.append(f"offset {offset} is outside the data area [4, {footer.footer_start}) of the file")
        return out
    try:
        filt, used = parse_bloom_filter(read_filter_bytes(f, offset, length))
    except BloomFilterFormatError as e:
        out.problems.append(str(e))
        return out
    out.filter, out.num_bytes, out.header_bytes = filt, filt.num_bytes, used - filt.num_bytes
    if length is not None and length != used:
        out.problems.append(f"bloom_filter_length {length} but header + bitset is {used} bytes")
    if offset + used > footer.footer_start:
        out.problems.append(f"filter [{offset}, {offset + used}) runs into the footer at {footer.footer_start}")
    return out
