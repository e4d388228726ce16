"""JVM scalar == JVM vector (where in use) == parquet-java == Python reference, byte for byte (via py4j)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bloomparquet.reference import SplitBlockBloomFilter, digest, xxh64_plain
from bloomparquet.tools import estimate

from .plain import plain_bytes

pytestmark = pytest.mark.spark

KERNELS = ("scalar", "vector", "parquet-java")


def _skip_unless_vector(bridge) -> None:
    """Where this JVM did not choose the vector kernel (no jdk.incubator.vector,
    no 256-bit lanes, -Dbloomparquet.kernel=scalar), vector checks skip, saying why."""
    if bridge.kernelName() != "vector":
        pytest.skip(f"the session JVM uses the {bridge.kernelName()} kernel: {bridge.kernelReason()}")


@pytest.fixture(scope="module", params=KERNELS)
def kernel(request, bridge) -> str:
    if request.param == "vector":
        _skip_unless_vector(bridge)
    return request.param


def test_the_session_jvm_uses_the_vector_kernel(bridge) -> None:
    _skip_unless_vector(bridge)
    assert bridge.kernelReason() == "jdk.incubator.vector with native 256-bit int lanes"


@pytest.mark.parametrize("num_bytes", [32, 64, 32 * 37, 4096, 32 * 1001, 1 << 20, 3 * (1 << 20) + 160, 8 << 20])
def test_bitsets_and_answers_identical(bridge, kernel: str, num_bytes: int) -> None:
    rng = np.random.default_rng(num_bytes)
    inserted = rng.integers(0, 2**64, max(1, num_bytes // 16), dtype=np.uint64)
    probes = np.concatenate([inserted[:500], rng.integers(0, 2**64, 20_000, dtype=np.uint64)])

    ref = SplitBlockBloomFilter(num_bytes)
    ref.insert_hashes(inserted)
    expected_bits = ref.to_bytes()
    expected_answers = ref.check_hashes(probes)
    assert expected_answers[: min(500, len(inserted))].all()

    assert bytes(bridge.buildFilter(kernel, num_bytes, inserted.tobytes())) == expected_bits
    answers = np.frombuffer(bytes(bridge.checkWith(kernel, expected_bits, probes.tobytes())), np.uint8)
    assert np.array_equal(answers.astype(bool), expected_answers)


def test_product_check_uses_the_jvm_kernel(bridge) -> None:
    """PythonBridge.checkHashes, the demo's check, answers like the reference."""
    rng = np.random.default_rng(3)
    inserted = rng.integers(0, 2**64, 300, dtype=np.uint64)
    probes = np.concatenate([inserted, rng.integers(0, 2**64, 5000, dtype=np.uint64)])
    ref = SplitBlockBloomFilter(1024)
    ref.insert_hashes(inserted)
    answers = np.frombuffer(bytes(bridge.checkHashes(ref.to_bytes(), probes.tobytes())), np.uint8)
    assert np.array_equal(answers.astype(bool), ref.check_hashes(probes))


@given(
    blocks=st.integers(1, 300),
    hashes=st.lists(st.integers(0, 2**64 - 1), min_size=0, max_size=200),
)
def test_property_random_sizes_and_hashes(bridge, kernel: str, blocks: int, hashes: list[int]) -> None:
    h = np.array(hashes, dtype=np.uint64)
    ref = SplitBlockBloomFilter(blocks * 32)
    ref.insert_hashes(h)
    assert bytes(bridge.buildFilter(kernel, blocks * 32, h.tobytes())) == ref.to_bytes()


@pytest.mark.parametrize(
    ("physical_type", "values"),
    [
        ("INT32", np.array([0, 1, -1, 2**31 - 1, -(2**31), 42], np.int32)),
        ("INT64", np.array([0, 1, -1, 2**63 - 1, -(2**63), -42], np.int64)),
        ("FLOAT", np.array([0.0, -0.0, np.nan, np.inf, -1.5, 1e-45], np.float32)),
        ("DOUBLE", np.array([0.0, -0.0, np.nan, -np.inf, 2.5, 5e-324], np.float64)),
        ("BYTE_ARRAY", [b"", "ü".encode(), "日本語".encode(), "\U0001f600".encode(), b"x" * 1000, b"\x00\xff"]),
        ("FIXED_LEN_BYTE_ARRAY", [b"abcd", b"\x00\x00\x00\x00", b"\xff\xfe\xfd\xfc"]),
    ],
)
def test_jvm_hash_matches_reference(bridge, physical_type: str, values) -> None:
    type_length = 4 if physical_type == "FIXED_LEN_BYTE_ARRAY" else 0
    jvm = np.frombuffer(bytes(bridge.hashPlain(physical_type, plain_bytes(values, physical_type), type_length)), "<u8")
    assert np.array_equal(jvm, xxh64_plain(values, physical_type))


@given(st.lists(st.text(max_size=30), max_size=30))
def test_property_string_hashes(bridge, values: list[str]) -> None:
    encoded = [v.encode("utf-8") for v in values]
    jvm = np.frombuffer(bytes(bridge.hashPlain("BYTE_ARRAY", plain_bytes(encoded, "BYTE_ARRAY"), 0)), "<u8")
    assert np.array_equal(jvm, xxh64_plain(encoded, "BYTE_ARRAY"))


@given(
    log_blocks=st.integers(0, 12),
    values=st.integers(0, 3000),
    max_fpp=st.sampled_from([0.001, 0.01, 0.1]),
    seed=st.integers(0, 2**32 - 1),
)
def test_right_sized_filters_identical(bridge, log_blocks: int, values: int, max_fpp: float, seed: int) -> None:
    """A digest's entries: the JVM's halving (sbbf.FilterFolding) == the reference's, and no value is lost."""
    h = np.random.default_rng(seed).integers(0, 2**64, values, dtype=np.uint64)
    ref = SplitBlockBloomFilter(32 << log_blocks)
    ref.insert_hashes(h)
    sized = digest.right_sized(ref, max_fpp)
    assert bytes(bridge.rightSized(ref.to_bytes(), max_fpp)) == sized.to_bytes()
    assert sized.check_hashes(h).all()
    if sized.num_blocks > 1:
        assert estimate.fpp(digest.fold(sized)) > max(max_fpp, estimate.fpp(ref))


@pytest.mark.parametrize("kernel_name", ["scalar", "vector"])
@given(blocks=st.integers(1, 64), entries=st.integers(1, 40), seed=st.integers(0, 2**32 - 1))
def test_block_major_probe_identical(bridge, kernel_name: str, blocks: int, entries: int, seed: int) -> None:
    """One row of a block-major class answers, per entry, what the entry's own filter answers: JVM kernels and
    reference alike."""
    if kernel_name == "vector":
        _skip_unless_vector(bridge)
    rng = np.random.default_rng(seed)
    filters = []
    for _ in range(entries):
        f = SplitBlockBloomFilter(blocks * 32)
        f.insert_hashes(rng.integers(0, 2**64, blocks * 20, dtype=np.uint64))
        filters.append(f)
    rows = digest.block_major(filters)
    bitsets = b"".join(f.to_bytes() for f in filters)
    for h in rng.integers(0, 2**64, 20, dtype=np.uint64):
        own = np.array([f.check_hashes(np.array([h]))[0] for f in filters])
        assert np.array_equal(digest.probe(rows, int(h)), own)
        jvm = np.frombuffer(
            bytes(bridge.probeBlockMajor(kernel_name, bitsets, entries, int(h.astype(np.int64)))), np.uint8
        )
        assert np.array_equal(jvm.astype(bool), own)


@pytest.mark.parametrize("kernel_name", ["scalar", "vector"])
@given(
    row_groups=st.lists(st.integers(1, 4), min_size=1, max_size=8),
    log_blocks=st.lists(st.integers(0, 9), min_size=1, max_size=4),
    fpp=st.sampled_from([0.001, 0.01, 0.1]),
    seed=st.integers(0, 2**32 - 1),
)
def test_digest_written_by_the_jvm_reads_as_the_reference_says(
    bridge, kernel_name: str, row_groups: list[int], log_blocks: list[int], fpp: float, seed: int
) -> None:
    """A digest the JVM writes (Puffin, block-major classes, index) read by the reference: each entry is its
    filter right-sized, every value is found, and the JVM's probe of the digest answers as the reference's."""
    if kernel_name == "vector":
        _skip_unless_vector(bridge)
    rng = np.random.default_rng(seed)
    entries, filters, values = [], [], {}
    for f, n in enumerate(row_groups):
        for rg in range(n):
            column = "k" if rg % 3 else "email"
            h = rng.integers(0, 2**64, int(rng.integers(1, 300)), dtype=np.uint64)
            filt = SplitBlockBloomFilter(32 << log_blocks[(f + rg) % len(log_blocks)])
            filt.insert_hashes(h)
            entries.append((column, f, rg))
            filters.append(filt)
            values[(column, f, rg)] = h

    def ints(xs: list[int]) -> bytes:
        return np.array(xs, dtype="<i4").tobytes()

    data = bytes(
        bridge.writeDigest(
            "\n".join(c for c, _, _ in entries),
            ints([f for _, f, _ in entries]),
            ints([rg for _, _, rg in entries]),
            ints([x.num_bytes for x in filters]),
            b"".join(x.to_bytes() for x in filters),
            ints(row_groups),
            fpp,
        )
    )
    read = digest.read_digest(data)
    assert [len(rgs) for *_, rgs in read.files] == row_groups and read.fpp == fpp
    sized = {e: digest.right_sized(x, fpp) for e, x in zip(entries, filters, strict=True)}
    for c in read.classes:
        for i, (f, rg) in enumerate(c.entries):
            stored = SplitBlockBloomFilter.from_bytes(c.rows[:, i, :].astype("<u4").tobytes())
            assert stored == sized[(c.column, f, rg)]
    for (column, f, rg), h in values.items():
        for x in h[:5]:
            assert (f, rg) in read.may_hold(column, int(x))
    for x in rng.integers(0, 2**64, 30, dtype=np.uint64):
        for column in ("k", "email"):
            expected = {(f, rg) for (c, f, rg), s in sized.items() if c == column and s.check_hashes(np.array([x]))[0]}
            assert read.may_hold(column, int(x)) == expected
            jvm = np.frombuffer(bytes(bridge.digestMayHold(kernel_name, data, column, int(x.astype(np.int64)))), "<i4")
            assert {(int(a), int(b)) for a, b in jvm.reshape(-1, 2)} == expected
