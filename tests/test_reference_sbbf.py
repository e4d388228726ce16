"""The numpy SBBF: behaviour, sizing and the spec's false-positive figures."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bloomparquet.reference import (
    BloomFilterFormatError,
    SplitBlockBloomFilter,
    bits_per_value,
    optimal_num_bytes,
    parse_bloom_filter,
)


def _hashes(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 2**64, n, dtype=np.uint64)


def _fpp(num_blocks: int, inserted: int, probes: int, seed: int) -> float:
    f = SplitBlockBloomFilter(num_blocks * 32)
    f.insert_hashes(_hashes(inserted, seed))
    rng = np.random.default_rng(seed + 1)
    hits = sum(
        int(f.check_hashes(rng.integers(0, 2**64, 1_000_000, dtype=np.uint64)).sum())
        for _ in range(probes // 1_000_000)
    )
    return hits / probes


def test_no_false_negatives_and_round_trip() -> None:
    f = SplitBlockBloomFilter(32 * 37)
    h = _hashes(5000, 1)
    f.insert_hashes(h)
    assert f.check_hashes(h).all()
    back = SplitBlockBloomFilter.from_bytes(f.to_bytes())
    assert back == f and back.to_bytes() == f.to_bytes()
    assert f.num_blocks == 37 and f.num_bytes == 32 * 37
    assert f.check_hashes(h.view(np.int64)).all()


def test_single_known_insert() -> None:
    # Hash 0: block 0, key 0 -> every salt product is 0 -> bit 0 of every word.
    f = SplitBlockBloomFilter(64)
    f.insert_hashes(np.array([0], np.uint64))
    assert f.to_bytes() == (b"\x01\x00\x00\x00" * 8) + b"\x00" * 32


def test_invalid_sizes_and_inputs() -> None:
    for n in (0, 16, 33, 128 * 1024 * 1024 + 32):
        with pytest.raises(ValueError, match="num_bytes"):
            SplitBlockBloomFilter(n)
    with pytest.raises(TypeError):
        SplitBlockBloomFilter(32).insert_hashes(np.array([1.0]))


def test_optimal_num_bytes() -> None:
    assert optimal_num_bytes(0, 0.01) == 32
    assert optimal_num_bytes(1_000_000, 0.01) == math.ceil(1_000_000 * bits_per_value(0.01) / 256) * 32
    assert optimal_num_bytes(10**15, 0.01) == 128 * 1024 * 1024
    for bad in (0.0, 1.0, -0.1):
        with pytest.raises(ValueError, match="fpp"):
            optimal_num_bytes(10, bad)


@pytest.mark.parametrize(
    ("inserted", "expected", "tolerance"), [(26_214, 0.0126, 0.0015), (52_428, 0.18, 0.01), (13_107, 0.0004, 0.00015)]
)
def test_spec_figures_1024_blocks(inserted: int, expected: float, tolerance: float) -> None:
    assert abs(_fpp(1024, inserted, 2_000_000, inserted) - expected) <= tolerance


# The spec's bits-per-insert table. Measured here (4096 blocks): 9.99 %, 1.015 %,
# 0.100 %, 0.0099 %, 0.00108 %. Tolerance: 15 % relative where >= 2,000 hits are
# expected, 35 % for the 0.001 % row (~200 hits in 20 M probes).
@pytest.mark.parametrize(
    ("bits", "expected", "rel", "probes"),
    [
        (6.0, 0.10, 0.15, 2_000_000),
        (10.5, 0.01, 0.15, 2_000_000),
        (16.9, 0.001, 0.15, 2_000_000),
        (26.4, 0.0001, 0.15, 20_000_000),
        (41.0, 0.00001, 0.35, 20_000_000),
    ],
)
def test_spec_bits_per_value_table(bits: float, expected: float, rel: float, probes: int) -> None:
    blocks = 4096
    measured = _fpp(blocks, int(blocks * 256 / bits), probes, int(bits * 10))
    assert abs(measured - expected) <= rel * expected, measured


def test_parse_rejects_bad_headers() -> None:
    ok = bytes([0x15, 0xC0, 0x01, 0x1C, 0x1C, 0, 0, 0x1C, 0x1C, 0, 0, 0x1C, 0x1C, 0, 0, 0]) + b"\0" * 96
    f, used = parse_bloom_filter(ok)
    assert f.num_bytes == 96 and used == len(ok)
    with pytest.raises(BloomFilterFormatError, match="truncated"):
        parse_bloom_filter(ok[:-1])
    with pytest.raises(BloomFilterFormatError, match="hash"):
        parse_bloom_filter(bytes([0x15, 0xC0, 0x01, 0x1C, 0x1C, 0, 0, 0]) + b"\0" * 96)
    with pytest.raises(BloomFilterFormatError, match="numBytes"):
        parse_bloom_filter(bytes([0x15, 0xC8, 0x01]) + ok[3:])  # 100 bytes
    with pytest.raises(BloomFilterFormatError):
        parse_bloom_filter(b"\x7f" * 50)
