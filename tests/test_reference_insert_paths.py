"""The reference's two insert paths (dense bitmap, np.bitwise_or.at) build identical bitsets."""

from __future__ import annotations

import numpy as np
import pytest

from bloomparquet.reference import SplitBlockBloomFilter, sbbf


def _via_ufunc_at(num_bytes: int, h: np.ndarray) -> bytes:
    f = SplitBlockBloomFilter(num_bytes)
    block, mask = f._locate(h)
    np.bitwise_or.at(f._words, block, mask)
    return f.to_bytes()


@pytest.mark.parametrize("num_bytes", [32, 96, 32 * 37, 1 << 16])
@pytest.mark.parametrize("n", [1, 15, 5000])
def test_dense_equals_ufunc_at(num_bytes: int, n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    h = np.random.default_rng(num_bytes + n).integers(0, 2**64, n, dtype=np.uint64)
    h[n // 2 :: 3] = h[0]  # duplicates, several per batch
    want = _via_ufunc_at(num_bytes, h)
    # Force the dense path with several passes over the filter and several hash chunks.
    monkeypatch.setattr(sbbf, "_DENSE_BYTES_PER_HASH", 1 << 30)
    monkeypatch.setattr(sbbf, "_DENSE_BITS", 512 if num_bytes < 4096 else 1 << 13)
    monkeypatch.setattr(sbbf, "_CHUNK", 7 if n < 100 else 1001)
    f = SplitBlockBloomFilter(num_bytes)
    f.insert_hashes(h)
    assert f.to_bytes() == want
    # Inserting into a non-empty filter ORs into what is there.
    f.insert_hashes(h[::-1].copy())
    assert f.to_bytes() == want


def test_both_paths_chosen_by_size() -> None:
    h = np.random.default_rng(3).integers(0, 2**64, 100, dtype=np.uint64)
    for num_bytes in (32 * 10, 1 << 20):  # dense, then sparse (ufunc.at)
        f = SplitBlockBloomFilter(num_bytes)
        f.insert_hashes(h)
        assert f.to_bytes() == _via_ufunc_at(num_bytes, h)
        assert f.check_hashes(h).all()


def test_check_equals_mask_formula() -> None:
    rng = np.random.default_rng(9)
    f = SplitBlockBloomFilter(32 * 53)
    f.insert_hashes(rng.integers(0, 2**64, 2000, dtype=np.uint64))
    probes = rng.integers(0, 2**64, 50_000, dtype=np.uint64)
    block, mask = f._locate(probes)
    want = np.all((f._words[block] & mask) == mask, axis=1)
    assert 0 < want.sum() < want.size
    assert np.array_equal(f.check_hashes(probes), want)
    assert f.check_hashes(probes[:0]).shape == (0,)
