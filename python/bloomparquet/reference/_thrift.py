"""Just enough of thrift's compact protocol to read a ``BloomFilterHeader``.

Python has no parquet-format thrift classes; this decoder reads any struct into
``{field_id: value}`` (nested structs as dicts) and skips what it doesn't need.
"""

from __future__ import annotations

from typing import Any

_STOP, _TRUE, _FALSE, _BYTE, _I16, _I32, _I64, _DOUBLE, _BINARY, _LIST, _SET, _MAP, _STRUCT = range(13)
_MAX_DEPTH = 16


class ThriftError(ValueError):
    """Bytes that are not a valid compact-protocol struct."""


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def byte(self) -> int:
        if self.pos >= len(self.data):
            raise ThriftError("truncated")
        b = self.data[self.pos]
        self.pos += 1
        return b

    def varint(self) -> int:
        shift = result = 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                return result
            shift += 7
            if shift > 63:
                raise ThriftError("varint too long")

    def zigzag(self) -> int:
        n = self.varint()
        return (n >> 1) ^ -(n & 1)

    def skip(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise ThriftError("truncated")
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def value(self, ttype: int, depth: int) -> Any:
        if depth > _MAX_DEPTH:
            raise ThriftError("nesting too deep")
        if ttype in (_TRUE, _FALSE):
            return ttype == _TRUE
        if ttype == _BYTE:
            return self.byte()
        if ttype in (_I16, _I32, _I64):
            return self.zigzag()
        if ttype == _DOUBLE:
            return self.skip(8)
        if ttype == _BINARY:
            return self.skip(self.varint())
        if ttype in (_LIST, _SET):
            head = self.byte()
            size = head >> 4 if head >> 4 != 15 else self.varint()
            return [self.element(head & 0x0F, depth + 1) for _ in range(size)]
        if ttype == _MAP:
            size = self.varint()
            if size == 0:
                return {}
            kv = self.byte()
            return {self.element(kv >> 4, depth + 1): self.element(kv & 0x0F, depth + 1) for _ in range(size)}
        if ttype == _STRUCT:
            return self.struct(depth + 1)
        raise ThriftError(f"unknown type {ttype}")

    def element(self, ttype: int, depth: int) -> Any:
        """A list, set or map element: there a bool is a byte of its own (1 true, 2 false), as in
        a ColumnIndex's null_pages; a field's bool is in its header instead."""
        if ttype in (_TRUE, _FALSE):
            b = self.byte()
            if b not in (_TRUE, _FALSE):
                raise ThriftError(f"bad bool {b}")
            return b == _TRUE
        return self.value(ttype, depth)

    def struct(self, depth: int = 0) -> dict[int, Any]:
        fields: dict[int, Any] = {}
        last = 0
        while True:
            head = self.byte()
            ttype = head & 0x0F
            if ttype == _STOP:
                return fields
            delta = head >> 4
            last = last + delta if delta else self.zigzag()
            fields[last] = self.value(ttype, depth)


def read_struct(data: bytes) -> tuple[dict[int, Any], int]:
    """Decode one struct at the start of ``data``; return it and its size in bytes."""
    reader = _Reader(data)
    return reader.struct(), reader.pos
