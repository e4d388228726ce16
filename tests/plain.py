"""Test helper: a Parquet column chunk's non-null values in their physical form,
ready for ``xxh64_plain`` (numpy arrays or lists of bytes) or PLAIN bytes for the JVM."""

from __future__ import annotations

import struct

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq


def physical_values(array: pa.Array, physical_type: str, type_length: int | None = None):
    """Non-null values of ``array`` as the physical type stores them."""
    array = pc.drop_null(array)
    t = array.type
    if pa.types.is_dictionary(t):
        array, t = array.dictionary_decode(), t.value_type
    if pa.types.is_decimal(t):
        scale = t.scale
        unscaled = [int(v.as_py().scaleb(scale)) for v in array]
        if physical_type == "FIXED_LEN_BYTE_ARRAY":
            return [u.to_bytes(type_length, "big", signed=True) for u in unscaled]
        return np.array(unscaled, dtype=np.int32 if physical_type == "INT32" else np.int64)
    if physical_type in ("BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"):
        return [v if isinstance(v, bytes) else v.encode("utf-8") for v in array.to_pylist()]
    if pa.types.is_timestamp(t) or pa.types.is_date(t) or pa.types.is_time(t):
        array = array.view(pa.int64() if t.bit_width == 64 else pa.int32())
    values = array.to_numpy(zero_copy_only=False)
    if physical_type == "INT32":
        return values.astype(np.int64).astype(np.uint32).view(np.int32) if values.dtype.itemsize < 4 else values
    return values


def plain_bytes(values, physical_type: str) -> bytes:
    """PLAIN encoding of ``physical_values`` output (BYTE_ARRAY with length prefixes)."""
    if physical_type == "BYTE_ARRAY":
        return b"".join(struct.pack("<i", len(v)) + v for v in values)
    if physical_type == "FIXED_LEN_BYTE_ARRAY":
        return b"".join(values)
    dtype = {"INT32": "<i4", "INT64": "<i8", "FLOAT": "<f4", "DOUBLE": "<f8"}[physical_type]
    arr = np.asarray(values)
    if arr.dtype.kind in "ui" and np.dtype(dtype).kind == "i" and arr.dtype.itemsize == np.dtype(dtype).itemsize:
        arr = arr.view(dtype)
    return arr.astype(dtype).tobytes()


def chunks(path: str):
    """Yield (row_group, dotted_path, physical_type, type_length, values) for every column chunk."""
    f = pq.ParquetFile(path)
    meta = f.metadata
    arrow_names = {meta.schema.column(i).path: i for i in range(meta.num_columns)}
    for rg in range(meta.num_row_groups):
        table = f.read_row_group(rg)
        for dotted, i in arrow_names.items():
            col = meta.schema.column(i)
            parts = dotted.split(".")
            array = table.column(parts[0]).combine_chunks()
            for p in parts[1:]:
                array = pc.struct_field(array, p)
            yield rg, dotted, col.physical_type, col.length, physical_values(array, col.physical_type, col.length)
