"""The compact-protocol decoder in bloomparquet.reference: bools inside lists (a ColumnIndex's
null_pages) are a byte each, and the struct after them decodes in step."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bloomparquet.reference._thrift import ThriftError, read_struct

from .corpus import column_index


def test_bools_in_a_list_are_a_byte_each() -> None:
    # ColumnIndex{1: null_pages [true, false, true], 2: min_values [b"", b"a", b""], 4: boundary_order 1, 5: [0, 3]}
    data = bytes([0x19, 0x31, 1, 2, 1, 0x19, 0x38, 0, 1, ord("a"), 0, 0x25, 2, 0x19, 0x26, 0, 6, 0])
    assert read_struct(data) == ({1: [True, False, True], 2: [b"", b"a", b""], 4: 1, 5: [0, 3]}, len(data))
    with pytest.raises(ThriftError):
        read_struct(bytes([0x19, 0x11, 7, 0]))  # a bool element is 1 or 2


def test_column_indexes_decode_as_written(tmp_path: Path) -> None:
    path = tmp_path / "f.parquet"
    table = pa.table({"k": pa.array([None] * 40 + list(range(60)), pa.int64())})
    pq.write_table(table, path, write_page_index=True, max_rows_per_page=20, use_dictionary=False)
    data = path.read_bytes()
    ((offset, length),) = column_index._index_locations(data, "k")
    index, size = read_struct(data[offset : offset + length])
    assert size == length
    assert index[column_index.NULL_PAGES] == [True, True, False, False, False]
    assert [int.from_bytes(v, "little") for v in index[column_index.MIN_VALUES][2:]] == [0, 20, 40]
    column_index.rewrite(path, "k", column_index.all_pages_null)
    data = path.read_bytes()
    assert read_struct(data[offset : offset + length])[0][column_index.NULL_PAGES] == [True] * 5
