"""A leaf column's Parquet type, as far as hashing values for its filter needs it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow.parquet as pq

# Converted types (pre-LogicalType writers) and the logical type they mean.
_CONVERTED: dict[str, dict[str, object]] = {
    "UTF8": {"Type": "String"},
    "ENUM": {"Type": "Enum"},
    "JSON": {"Type": "JSON"},
    "BSON": {"Type": "BSON"},
    "DATE": {"Type": "Date"},
    "TIMESTAMP_MILLIS": {"Type": "Timestamp", "timeUnit": "milliseconds", "isAdjustedToUTC": True},
    "TIMESTAMP_MICROS": {"Type": "Timestamp", "timeUnit": "microseconds", "isAdjustedToUTC": True},
    "TIME_MILLIS": {"Type": "Time", "timeUnit": "milliseconds"},
    "TIME_MICROS": {"Type": "Time", "timeUnit": "microseconds"},
    **{f"INT_{w}": {"Type": "Int", "bitWidth": w, "isSigned": True} for w in (8, 16, 32, 64)},
    **{f"UINT_{w}": {"Type": "Int", "bitWidth": w, "isSigned": False} for w in (8, 16, 32, 64)},
}


@dataclass(frozen=True)
class ColumnType:
    """Physical type, logical type (``{"Type": ..., ...}`` as pyarrow's ``to_json``),
    decimal precision/scale and fixed length of one leaf column, and whether it is repeated."""

    path: str
    physical: str
    logical: dict[str, Any]
    precision: int
    scale: int
    length: int
    repeated: bool = False  # inside a list or map: many values per row

    @property
    def kind(self) -> str:
        """The logical type name (``Int``, ``Decimal``, ``String``, ...), ``None`` if unannotated."""
        return str(self.logical.get("Type", "None"))

    @property
    def hashable(self) -> bool:
        """Whether the spec defines a bloom filter hash for the column (not BOOLEAN, INT96)."""
        return self.physical not in ("BOOLEAN", "INT96")

    def describe(self) -> str:
        """``INT32 (Int(bitWidth=8, ...))``-style text for messages and reports."""
        if self.kind == "None":
            return self.physical + (f"({self.length})" if self.physical == "FIXED_LEN_BYTE_ARRAY" else "")
        extra = ", ".join(f"{k}={v}" for k, v in self.logical.items() if k != "Type" and not k.endswith("_type"))
        return f"{self.physical} {self.kind}{f'({extra})' if extra else ''}"


def column_type(schema: pq.ParquetSchema, index: int) -> ColumnType:
    """The :class:`ColumnType` of leaf column ``index``."""
    col = schema.column(index)
    logical = json.loads(col.logical_type.to_json())
    if logical.get("Type") in (None, "None") and col.converted_type in _CONVERTED:
        logical = {**_CONVERTED[col.converted_type]}
    if logical.get("Type") in (None, "None") and col.converted_type == "DECIMAL":
        logical = {"Type": "Decimal", "precision": col.precision, "scale": col.scale}
    if logical.get("Type") == "Decimal":
        return ColumnType(
            col.path,
            col.physical_type,
            logical,
            int(logical["precision"]),
            int(logical["scale"]),
            col.length,
            col.max_repetition_level > 0,
        )
    return ColumnType(col.path, col.physical_type, logical, -1, -1, col.length, col.max_repetition_level > 0)
