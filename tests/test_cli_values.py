"""Probe values parsed by the column's logical type into the physical value the
column stores (whose PLAIN encoding the filter hashes)."""

from __future__ import annotations

import uuid

import numpy as np
import pytest

from bloomparquet.reference import xxh64_plain
from bloomparquet.tools import BadInput
from bloomparquet.tools.types import ColumnType
from bloomparquet.tools.values import MAY_CONTAIN, hash_values, parse_value


def _col(
    physical: str, logical: dict | None = None, precision: int = -1, scale: int = -1, length: int = 0
) -> ColumnType:
    return ColumnType("c", physical, logical or {"Type": "None"}, precision, scale, length)


def _int(width: int, signed: bool = True) -> ColumnType:
    return _col("INT32" if width <= 32 else "INT64", {"Type": "Int", "bitWidth": width, "isSigned": signed})


def _dec(physical: str, precision: int, scale: int, length: int = 0) -> ColumnType:
    return _col(physical, {"Type": "Decimal", "precision": precision, "scale": scale}, precision, scale, length)


def _ts(unit: str, utc: bool = True) -> ColumnType:
    return _col("INT64", {"Type": "Timestamp", "timeUnit": unit, "isAdjustedToUTC": utc})


@pytest.mark.parametrize(
    "col, text, value",
    [
        (_int(8), "-128", -128),
        (_int(32, signed=False), "4294967295", 4294967295),
        (_int(64, signed=False), "18446744073709551615", 18446744073709551615),
        (_col("INT64"), " 42 ", 42),
        (_dec("INT32", 9, 2), "12.3", 1230),
        (_dec("INT64", 18, 3), "-0.001", -1),
        (_dec("FIXED_LEN_BYTE_ARRAY", 30, 2, 13), "-1.00", (-100).to_bytes(13, "big", signed=True)),
        (_dec("BYTE_ARRAY", 20, 0), "128", b"\x00\x80"),
        (_dec("BYTE_ARRAY", 20, 0), "-129", b"\xff\x7f"),
        (_dec("BYTE_ARRAY", 20, 0), "-128", b"\x80"),
        (_col("INT32", {"Type": "Date"}), "1970-01-31", 30),
        (_col("INT32", {"Type": "Date"}), "-1", -1),
        (_ts("milliseconds"), "1970-01-01T00:00:01.5", 1500),
        (_ts("microseconds"), "1970-01-01 01:00:00+01:00", 0),
        (_ts("microseconds", utc=False), "2000-01-01T00:00:00Z", 946684800_000_000),
        (_ts("nanoseconds"), "1970-01-01T00:00:00.000000001", 1),
        (_ts("nanoseconds"), "-5", -5),
        (_col("INT32", {"Type": "Time", "timeUnit": "milliseconds"}), "01:00:00.25", 3_600_250),
        (_col("INT64", {"Type": "Time", "timeUnit": "nanoseconds"}), "00:00:01", 1_000_000_000),
        (_col("BYTE_ARRAY", {"Type": "String"}), " 0xab ", b" 0xab "),
        (_col("BYTE_ARRAY"), "0xABcd", b"\xab\xcd"),
        (_col("BYTE_ARRAY"), "plain", b"plain"),
        (_col("FIXED_LEN_BYTE_ARRAY", length=2), "0x0102", b"\x01\x02"),
        (
            _col("FIXED_LEN_BYTE_ARRAY", {"Type": "UUID"}, length=16),
            "12345678-1234-5678-1234-567812345678",
            uuid.UUID("12345678-1234-5678-1234-567812345678").bytes,
        ),
        (_col("FIXED_LEN_BYTE_ARRAY", {"Type": "Float16"}, length=2), "1.5", np.float16(1.5).tobytes()),
        (_col("FLOAT"), "0.1", float(np.float32(0.1))),
        (_col("DOUBLE"), "-inf", float("-inf")),
    ],
)
def test_parse(col: ColumnType, text: str, value: object) -> None:
    assert parse_value(text, col) == value


@pytest.mark.parametrize("text", ["nan", "NaN", "0", "-0.0", "0e10"])
@pytest.mark.parametrize("physical", ["FLOAT", "DOUBLE"])
def test_nan_and_zero_may_contain(physical: str, text: str) -> None:
    assert parse_value(text, _col(physical)) is MAY_CONTAIN


@pytest.mark.parametrize(
    "col, text, message",
    [
        (_int(8), "128", "outside"),
        (_int(16, signed=False), "-1", "outside"),
        (_col("INT32"), "2147483648", "outside"),
        (_col("INT32"), "1e3", "cannot read"),
        (_dec("INT32", 5, 2), "1.234", "decimal places"),
        (_dec("INT32", 5, 2), "1234.5", "digits"),
        (_dec("INT64", 5, 2), "inf", "cannot read"),
        (_ts("milliseconds"), "1970-01-01T00:00:00.0001", "finer"),
        (_ts("microseconds"), "yesterday", "cannot read"),
        (_col("INT32", {"Type": "Date"}), "2024-02-30", "cannot read"),
        (_col("FIXED_LEN_BYTE_ARRAY", length=4), "0x0102", "4-byte"),
        (_col("BYTE_ARRAY"), "0xzz", "cannot read"),
        (_col("BOOLEAN"), "true", "no bloom filter hash"),
        (_col("INT96"), "1", "no bloom filter hash"),
    ],
)
def test_bad_values(col: ColumnType, text: str, message: str) -> None:
    with pytest.raises(BadInput, match=message):
        parse_value(text, col)


def test_hashes_are_the_plain_encoding() -> None:
    """Unsigned values hash their bits as the signed physical type; floats their IEEE bits."""
    u32 = _int(32, signed=False)
    assert hash_values([parse_value("4294967295", u32)], u32)[0] == xxh64_plain(np.array([-1], np.int32), "INT32")[0]
    u64 = _int(64, signed=False)
    big = 2**63 + 5
    expect = xxh64_plain(np.array([big], np.uint64).view(np.int64), "INT64")[0]
    assert hash_values([parse_value(str(big), u64)], u64)[0] == expect
    f = _col("FLOAT")
    assert hash_values([parse_value("0.1", f)], f)[0] == xxh64_plain(np.array([0.1], np.float32), "FLOAT")[0]
    s = _col("BYTE_ARRAY", {"Type": "String"})
    assert hash_values([parse_value("ü", s)], s)[0] == xxh64_plain(["ü".encode()], "BYTE_ARRAY")[0]
