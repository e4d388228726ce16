"""Rewriting a file's ColumnIndex in place, to make the wrong page indexes real writers have
shipped (parquet-testing's ``datapage_v1-*-checksum.parquet`` marks every page all-null).

Only bytes change, never lengths: a compact-protocol bool in a list is one byte (1 = true,
2 = false) and a min/max is replaced by another value of the same length, so every offset in
the footer stays right. The footer is read with the project's own thrift decoder."""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

from bloomparquet.reference._thrift import _BINARY, _LIST, _STOP, _TRUE, _Reader, read_struct

# ColumnIndex fields (parquet.thrift): 1 null_pages list<bool>, 2 min_values, 3 max_values list<binary>
NULL_PAGES, MIN_VALUES, MAX_VALUES = 1, 2, 3

Spans = dict[int, list[tuple[int, int]]]  # field -> (start, end) of each list element, in the index's bytes


def _footer(data: bytes) -> dict:
    (length,) = struct.unpack("<i", data[-8:-4])
    meta, _ = read_struct(data[-8 - length : -8])
    return meta


def _index_locations(data: bytes, column: str) -> list[tuple[int, int]]:
    """(offset, length) of ``column``'s ColumnIndex in every row group."""
    out = []
    for rg in _footer(data)[4]:  # FileMetaData.row_groups
        for chunk in rg[1]:  # RowGroup.columns
            path = ".".join(p.decode() for p in chunk[3][3])  # ColumnMetaData.path_in_schema
            if path == column:
                if 6 not in chunk:  # ColumnChunk.column_index_offset
                    raise ValueError(f"{column}: no column index in this row group (write with a page index)")
                out.append((chunk[6], chunk[7]))
    if not out:
        raise ValueError(f"{column} is not a leaf column of the file")
    return out


def _list_spans(index: bytes) -> Spans:
    """Where each element of the ColumnIndex's three lists sits (bools: their one byte)."""
    r = _Reader(index)
    spans: Spans = {}
    last = 0
    while True:
        head = r.byte()
        ttype = head & 0x0F
        if ttype == _STOP:
            return spans
        last = last + (head >> 4) if head >> 4 else r.zigzag()
        if last not in (NULL_PAGES, MIN_VALUES, MAX_VALUES) or ttype != _LIST:
            r.value(ttype, 1)
            continue
        lh = r.byte()
        size = lh >> 4 if lh >> 4 != 15 else r.varint()
        elements = []
        for _ in range(size):
            n = r.varint() if lh & 0x0F == _BINARY else 1
            elements.append((r.pos, r.pos + n))
            r.skip(n)
        spans[last] = elements


def rewrite(path: Path, column: str, edit: Callable[[bytearray, Spans], None]) -> None:
    """Apply ``edit`` to every ColumnIndex of ``column`` (same length in, same length out)."""
    data = bytearray(Path(path).read_bytes())
    for offset, length in _index_locations(bytes(data), column):
        index = bytearray(data[offset : offset + length])
        edit(index, _list_spans(bytes(index)))
        assert len(index) == length
        data[offset : offset + length] = index
    Path(path).write_bytes(bytes(data))


def all_pages_null(index: bytearray, spans: Spans) -> None:
    """Every page claims to hold only nulls; min/max and the chunk's statistics stay as they were."""
    for start, _ in spans[NULL_PAGES]:
        index[start] = _TRUE


def bounds_beyond(high: Callable[[int], bytes]) -> Callable[[bytearray, Spans], None]:
    """Every non-null page's min and max become ``high(length)``: a value above all the data, of
    the same byte length, so the index excludes values the pages hold."""

    def edit(index: bytearray, spans: Spans) -> None:
        for field in (MIN_VALUES, MAX_VALUES):
            for start, end in spans[field]:
                if end > start:
                    index[start:end] = high(end - start)

    return edit


def int64_high(length: int) -> bytes:
    assert length == 8
    return struct.pack("<q", 2**62)


def string_high(length: int) -> bytes:
    return b"\x7e" * length  # '~' sorts above the corpus' digits and letters
