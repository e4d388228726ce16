"""xxHash64 known answers per physical type: the numpy kernels vs the xxhash package."""

from __future__ import annotations

import struct

import numpy as np
import pytest
import xxhash
from hypothesis import given
from hypothesis import strategies as st

from bloomparquet.reference import xxh64_plain


def _xx(b: bytes) -> int:
    return xxhash.xxh64_intdigest(b)


def test_known_answers() -> None:
    assert _xx(b"") == 0xEF46DB3751D8E999
    assert xxh64_plain([b""], "BYTE_ARRAY")[0] == 0xEF46DB3751D8E999
    assert xxh64_plain(["abc"], "BYTE_ARRAY")[0] == 0x44BC2CF5AD770999
    assert xxh64_plain(np.array([1], np.int32), "INT32")[0] == _xx(b"\x01\x00\x00\x00")
    assert xxh64_plain(np.array([-2], np.int64), "INT64")[0] == _xx(b"\xfe" + b"\xff" * 7)


@pytest.mark.parametrize(
    ("physical_type", "fmt", "values"),
    [
        ("INT32", "<i", [0, 1, -1, 2**31 - 1, -(2**31), 123456789]),
        ("INT64", "<q", [0, 1, -1, 2**63 - 1, -(2**63), -123456789012345]),
        ("FLOAT", "<f", [0.0, -0.0, 1.5, -3.25, float("inf"), float("-inf"), 1e-45]),
        ("DOUBLE", "<d", [0.0, -0.0, 1.5, -3.25, float("inf"), 5e-324, 1e300]),
    ],
)
def test_fixed_width_special_values(physical_type: str, fmt: str, values: list) -> None:
    got = xxh64_plain(np.array(values), physical_type)
    assert got.dtype == np.uint64
    assert list(got) == [_xx(struct.pack(fmt, v)) for v in values]


def test_nan_hashes_its_bits_and_zero_signs_differ() -> None:
    nan = np.array([np.nan], np.float64)
    assert xxh64_plain(nan, "DOUBLE")[0] == _xx(nan.tobytes())
    nan32 = np.array([np.nan], np.float32)
    assert xxh64_plain(nan32, "FLOAT")[0] == _xx(nan32.tobytes())
    assert xxh64_plain([0.0], "DOUBLE")[0] != xxh64_plain([-0.0], "DOUBLE")[0]


def test_unsigned_inputs_keep_their_bits() -> None:
    assert (
        xxh64_plain(np.array([2**32 - 1], np.uint32), "INT32")[0] == xxh64_plain(np.array([-1], np.int32), "INT32")[0]
    )
    assert (
        xxh64_plain(np.array([2**64 - 1], np.uint64), "INT64")[0] == xxh64_plain(np.array([-1], np.int64), "INT64")[0]
    )


def test_strings_are_utf8_bytes_without_length_prefix() -> None:
    for s in ["", "ü", "日本語", "emoji \U0001f600", "x" * 1000]:
        b = s.encode("utf-8")
        assert xxh64_plain([s], "BYTE_ARRAY")[0] == _xx(b)
        assert xxh64_plain([b], "FIXED_LEN_BYTE_ARRAY")[0] == _xx(b)
        assert xxh64_plain([b], "BYTE_ARRAY")[0] != _xx(struct.pack("<i", len(b)) + b)


def test_unknown_physical_type_is_rejected() -> None:
    with pytest.raises(ValueError, match="INT96"):
        xxh64_plain([b"x" * 12], "INT96")  # type: ignore[arg-type]


@given(st.lists(st.integers(-(2**31), 2**31 - 1), max_size=50))
def test_int32_property(values: list[int]) -> None:
    assert list(xxh64_plain(np.array(values, np.int32), "INT32")) == [_xx(struct.pack("<i", v)) for v in values]


@given(st.lists(st.integers(-(2**63), 2**63 - 1), max_size=50))
def test_int64_property(values: list[int]) -> None:
    assert list(xxh64_plain(np.array(values, np.int64), "INT64")) == [_xx(struct.pack("<q", v)) for v in values]


@given(st.lists(st.floats(allow_nan=False, width=64), max_size=50))
def test_double_property(values: list[float]) -> None:
    assert list(xxh64_plain(np.array(values, np.float64), "DOUBLE")) == [_xx(struct.pack("<d", v)) for v in values]


@given(st.lists(st.floats(allow_nan=False, width=32), max_size=50))
def test_float_property(values: list[float]) -> None:
    assert list(xxh64_plain(np.array(values, np.float32), "FLOAT")) == [_xx(struct.pack("<f", v)) for v in values]
