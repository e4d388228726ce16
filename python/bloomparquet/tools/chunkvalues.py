"""A column chunk's stored values, read with pyarrow, as the hashes its filter holds."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..reference import xxh64_plain
from .errors import reading
from .types import ColumnType

if TYPE_CHECKING:
    import pyarrow as pa

    from .footer import ParquetFooter

_UNITS = {"milliseconds": "ms", "microseconds": "us", "nanoseconds": "ns"}


class NotRebuildable(Exception):
    """A column whose values this module cannot turn back into physical values."""


def chunk_array(footer: ParquetFooter, rg: int, col: ColumnType) -> pa.Array:
    """The non-null leaf values of column ``col`` in row group ``rg``; :class:`BadInput`
    naming the file when its pages do not decode."""
    import pyarrow as pa
    import pyarrow.compute as pc

    with reading(footer.path, f"row group {rg}, column {col.path}: pages do not decode"):
        table = footer.file.read_row_group(rg, columns=[col.path])
        array = table.column(0).combine_chunks() if table.num_columns else pa.array([])
        return pc.drop_null(_leaf_values(array, col))


def _leaf_values(array: pa.Array, col: ColumnType) -> pa.Array:
    """Down from the top-level column to its one leaf. pyarrow reads a single leaf as
    nested types that hold only that leaf (a struct of one field, a list per repeated
    level), so the way down needs no names, whatever a writer called its list and map
    groups (``list.element``, ``bag.array``, ``key_value``...)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    leaf = col.path.split(".")[-1]
    while True:
        t = array.type
        if pa.types.is_map(t):  # both key and value, should pyarrow keep the map
            array = array.keys if leaf == t.key_field.name else array.items
        elif pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
            array = array.flatten()
        elif pa.types.is_struct(t):
            index = 0 if t.num_fields == 1 else t.get_field_index(leaf)
            if index < 0:
                raise NotRebuildable(f"cannot follow {col.path} into {t}")
            array = pc.struct_field(array, [index])
        else:
            return array


def physical_hashes(array: pa.Array, col: ColumnType) -> np.ndarray:
    """uint64 filter hashes of every value of ``array`` (no nulls) as ``col`` stores it."""
    import pyarrow as pa

    if pa.types.is_dictionary(array.type):
        array = array.dictionary_decode()
    if isinstance(array.type, pa.ExtensionType):
        array = array.storage
    t, phys = array.type, col.physical
    if col.kind == "Decimal":
        return xxh64_plain(_unscaled(array, col), phys)  # type: ignore[arg-type]
    if phys in ("INT32", "INT64"):
        if col.kind == "Timestamp" and pa.types.is_timestamp(t):
            array = array.cast(pa.timestamp(_UNITS[col.logical["timeUnit"]], t.tz))  # Arrow may store s as ms
        if pa.types.is_date64(t):
            array = array.cast(pa.date32())
        if pa.types.is_temporal(array.type):
            array = array.view(pa.int32() if array.type.bit_width == 32 else pa.int64())
        signed = col.logical.get("isSigned", True)
        values = array.cast(pa.int64() if signed else pa.uint64()).to_numpy(zero_copy_only=False)
        return xxh64_plain(values, phys)  # type: ignore[arg-type]
    if phys in ("FLOAT", "DOUBLE"):
        return xxh64_plain(array.to_numpy(zero_copy_only=False), phys)  # type: ignore[arg-type]
    if pa.types.is_float16(t):
        return xxh64_plain([v.tobytes() for v in array.to_numpy(zero_copy_only=False)], phys)  # type: ignore[arg-type]
    if phys in ("BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"):
        return xxh64_plain(array.to_pylist(), phys)  # type: ignore[arg-type]
    raise NotRebuildable(f"{col.path}: {phys} has no bloom filter hash")


def _unscaled(array: pa.Array, col: ColumnType) -> np.ndarray | list[bytes]:
    scale = col.scale
    unscaled = [int(v.scaleb(scale)) for v in array.to_pylist()]
    if col.physical in ("INT32", "INT64"):
        return np.array(unscaled, dtype=np.int64)
    if col.physical == "FIXED_LEN_BYTE_ARRAY":
        return [u.to_bytes(col.length, "big", signed=True) for u in unscaled]
    return [u.to_bytes((u + (u < 0)).bit_length() // 8 + 1, "big", signed=True) for u in unscaled]
