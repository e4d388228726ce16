"""The fault matrix: every kind of broken bloom filter (and every valid but
unusual header) × every read route (plan mode, task mode, SQL on a path).

A broken filter costs no row: the rows equal Spark's ``parquet`` with pushdown
off, the filter is counted in ``bloomBrokenFilters``, nothing throws, and no
length a footer or header states is allocated (a 2 GiB claim would end the
driver in ``OutOfMemoryError``). A valid header, however unusual, is read and
prunes. Run with ``-s`` to see the matrix; it is also written to
``target/fault-matrix.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import bloomparquet as bp
from bloomparquet.reference import read_bloom_filters, xxh64_plain

from .result_table import publish
from .spark_conf import PUSHDOWN_OFF, spark_conf
from .test_broken_filters import (  # noqa: F401
    _keys_of,
    _overwrite_bitset,
    _varint,
    _zigzag,
    copy,
    edit_footer,
    set_header_num_bytes,
    written,
)

pytestmark = pytest.mark.spark

RG = 1  # the row group whose filter each kind damages
MATRIX: dict[str, dict[str, str]] = {}
ROUTES = ("plan", "task", "sql")
_I32, _STRUCT = 5, 12


# --- header bytes: just the BloomFilterHeader, for the unusual-but-valid kinds ---


def _field(ttype: int, fid: int, last: int, long_form: bool) -> bytes:
    """A compact-protocol field header; ids that don't ascend by 1..15 need the long form."""
    if not long_form and 0 < fid - last <= 15:
        return bytes([((fid - last) << 4) | ttype])
    return bytes([ttype]) + _varint(_zigzag(fid))


def bloom_header(
    num_bytes: int, order: tuple[int, ...] = (1, 2, 3, 4), long_form: bool = False, extra: bytes = b""
) -> bytes:
    """numBytes (1) and the single-member unions BLOCK (2), XXHASH (3), UNCOMPRESSED (4),
    in ``order``; ``extra`` is appended before the stop byte (unknown fields)."""
    out, last = bytearray(), 0
    for fid in order:
        if fid == 1:
            out += _field(_I32, 1, last, long_form) + _varint(_zigzag(num_bytes))
        else:  # a union holding its member 1, an empty struct
            out += _field(_STRUCT, fid, last, long_form) + _field(_STRUCT, 1, 0, long_form) + b"\x00\x00"
        last = fid
    return bytes(out + extra + b"\x00")


def _footer_start(path: Path) -> int:
    data = path.read_bytes()
    return len(data) - 8 - int.from_bytes(data[-8:-4], "little")


def relocate_filter(spark, path: Path, header: bytes, keep_length: bool = True) -> None:
    """Writes ``header`` + row group RG's true bitset just before the footer and points the footer at it."""
    bitset = read_bloom_filters(path)[(RG, "k")].to_bytes()
    data = path.read_bytes()
    start = _footer_start(path)
    path.write_bytes(data[:start] + header + bitset + data[start:])
    length = len(header) + len(bitset)

    def point(m) -> None:
        m.setBloom_filter_offset(start)
        if keep_length:
            m.setBloom_filter_length(length)
        else:
            m.unsetBloom_filter_length()

    edit_footer(spark, path, RG, point)


def patch_header_byte(path: Path, index_after_num_bytes: int, value: int) -> None:
    """Overwrites one byte of RG's header, counted from the end of numBytes' varint
    (our writer's header: 1C 1C 00 00  1C 1C 00 00  1C 1C 00 00  00 after it)."""
    offset = pq.ParquetFile(path).metadata.row_group(RG).column(0).bloom_filter_offset
    data = bytearray(path.read_bytes())
    end = offset + 1
    while data[end] & 0x80:
        end += 1
    tail = bytes(data[end + 1 : end + 14])
    assert tail == bytes.fromhex("1c1c00001c1c00001c1c000000"), tail.hex()
    data[end + 1 + index_after_num_bytes] = value
    path.write_bytes(bytes(data))


def _chunk(path: Path, rg: int = RG):
    return pq.ParquetFile(path).metadata.row_group(rg).column(0)


def _true_num_bytes(path: Path) -> int:
    return len(read_bloom_filters(path)[(RG, "k")].to_bytes())


def _footer(edit: Callable) -> Callable:
    return lambda spark, p: edit_footer(spark, p, RG, lambda m: edit(m, p))


def _num_bytes(n: Callable[[Path], int], unset_length: bool = False) -> Callable:
    def apply(spark, p: Path) -> None:
        set_header_num_bytes(p, RG, n(p))
        if unset_length:
            edit_footer(spark, p, RG, lambda m: m.unsetBloom_filter_length())

    return apply


def _garbage_header(spark, p: Path) -> None:
    offset = _chunk(p).bloom_filter_offset
    data = bytearray(p.read_bytes())
    data[offset : offset + 16] = b"\xff" * 16
    p.write_bytes(bytes(data))


def _shared_with_rg0(spark, p: Path) -> None:
    c0 = _chunk(p, 0)
    edit_footer(
        spark,
        p,
        RG,
        lambda m: (m.setBloom_filter_offset(c0.bloom_filter_offset), m.setBloom_filter_length(c0.bloom_filter_length)),
    )


def _into_footer(spark, p: Path) -> None:
    start = _footer_start(p)  # the data before the footer does not move: the new footer starts here too
    edit_footer(spark, p, RG, lambda m: (m.setBloom_filter_offset(start), m.setBloom_filter_length(64)))


# kind -> (edit of the file, expected: "broken" (ignored, counted) or "valid" (read, prunes))
KINDS: dict[str, tuple[Callable, str]] = {
    "garbage header": (_garbage_header, "broken"),
    "numBytes 0": (_num_bytes(lambda p: 0), "broken"),
    "numBytes negative": (_num_bytes(lambda p: -32), "broken"),
    "numBytes 33 (not x32)": (_num_bytes(lambda p: 33), "broken"),
    "numBytes over 128 MiB": (_num_bytes(lambda p: 256 << 20), "broken"),
    "numBytes past end of file": (_num_bytes(lambda p: 1 << 20, unset_length=True), "broken"),
    "numBytes 2x (truncated bitset)": (_num_bytes(lambda p: 2 * _true_num_bytes(p)), "broken"),
    "unknown algorithm": (lambda s, p: patch_header_byte(p, 1, 0x2C), "broken"),
    "unknown hash": (lambda s, p: patch_header_byte(p, 5, 0x2C), "broken"),
    "unknown compression": (lambda s, p: patch_header_byte(p, 9, 0x2C), "broken"),
    "offset negative": (_footer(lambda m, p: m.setBloom_filter_offset(-5)), "broken"),
    "offset past end of file": (_footer(lambda m, p: m.setBloom_filter_offset(10**12)), "broken"),
    "offset + length overflows": (
        _footer(lambda m, p: (m.setBloom_filter_offset(2**63 - 16), m.setBloom_filter_length(4096))),
        "broken",
    ),
    "offset into a data page": (_footer(lambda m, p: m.setBloom_filter_offset(_chunk(p).data_page_offset)), "broken"),
    "offset into the footer": (_into_footer, "broken"),
    "length shorter": (_footer(lambda m, p: m.setBloom_filter_length(m.getBloom_filter_length() - 16)), "broken"),
    "length negative": (_footer(lambda m, p: m.setBloom_filter_length(-7)), "broken"),
    "length past end of file": (
        _footer(lambda m, p: m.setBloom_filter_length(p.stat().st_size - m.getBloom_filter_offset() + 64)),
        "broken",
    ),
    "length over 128 MiB": (_footer(lambda m, p: m.setBloom_filter_length(128 * 2**20 + 4096)), "broken"),
    "length 2 GiB": (_footer(lambda m, p: m.setBloom_filter_length(2**31 - 1)), "broken"),
    "two chunks share one filter": (_shared_with_rg0, "broken"),
    "all-zero bitset": (lambda s, p: _overwrite_bitset(p, RG, lambda old: bytes(len(old))), "broken"),
    "length longer (within file)": (
        _footer(lambda m, p: m.setBloom_filter_length(m.getBloom_filter_length() + 64)),
        "valid",
    ),
    "no bloom_filter_length": (_footer(lambda m, p: m.unsetBloom_filter_length()), "valid"),
    "unknown extra fields": (
        lambda s, p: relocate_filter(s, p, bloom_header(_true_num_bytes(p), extra=b"\x15\x0e" + b"\x18\x03abc")),
        "valid",
    ),
    "fields out of order": (
        lambda s, p: relocate_filter(s, p, bloom_header(_true_num_bytes(p), (4, 3, 2, 1))),
        "valid",
    ),
    "long-form field headers": (
        lambda s, p: relocate_filter(s, p, bloom_header(_true_num_bytes(p), long_form=True)),
        "valid",
    ),
    "unusual header, no length": (
        lambda s, p: relocate_filter(
            s,
            p,
            bloom_header(_true_num_bytes(p), (2, 1, 4, 3), extra=b"\x05" + _varint(_zigzag(9)) + b"\x0e"),
            keep_length=False,
        ),
        "valid",
    ),
}


def _absent_key(path: Path) -> int:
    """An odd key (keys are even) inside RG's range that RG's true filter rejects: valid kinds must prune it."""
    odd = _keys_of(path, RG)[:64] + 1
    rejected = odd[~read_bloom_filters(path)[(RG, "k")].check_hashes(xxh64_plain(odd, "INT64"))]
    return int(rejected[0])


def _routes(spark, d: str) -> dict:
    return {
        "plan": bp.read_bloom(spark, d),
        "task": bp.read_bloom(spark, d, **{"bloom.mode": "task"}),
        "sql": spark.sql(f"SELECT * FROM bloomparquet.`{d}`"),
    }


def _metric(df, name: str) -> int | None:
    return bp.scan_metrics(df).get(name)


@pytest.mark.parametrize("kind", list(KINDS))
def test_fault_matrix(spark, copy: Path, kind: str) -> None:  # noqa: F811
    edit, expected = KINDS[kind]
    present, absent = int(_keys_of(copy, RG)[3]), _absent_key(copy)
    edit(spark, copy)
    d = str(copy.parent)
    with spark_conf(spark, PUSHDOWN_OFF):
        oracle = spark.read.parquet(d).where(f"k = {present}").collect()
    assert len(oracle) == 1
    row, failures = MATRIX.setdefault(kind, {}), []
    for route, df in _routes(spark, d).items():
        q = df.where(f"k = {present}")
        rows_equal = q.collect() == oracle
        broken = _metric(q, "bloomBrokenFilters")
        # SQL on a path plans through the extension's V2 scan, so its node counts like the others.
        if expected == "broken":
            ok = rows_equal and broken == 1
            row[route] = f"rows {'=' if rows_equal else '≠'}, counted {broken}"
        else:
            miss = df.where(f"k = {absent}")
            none_found = miss.collect() == []
            pruned = _metric(miss, "bloomRowGroupsPrunedByBloom")
            ok = rows_equal and none_found and broken == 0 and (pruned or 0) >= 1
            row[route] = f"rows {'=' if rows_equal and none_found else '≠'}, pruned {pruned}, broken {broken}"
        if not ok:
            failures.append(f"{route}: {row[route]}")
    assert not failures, failures


def test_verify_without_rebuild_reports_an_impossible_filter(copy: Path) -> None:  # noqa: F811
    from bloomparquet.tools import verify

    assert verify.run([str(copy)])["ok"]
    _overwrite_bitset(copy, RG, lambda old: bytes(len(old)))
    report = verify.run([str(copy)])
    kinds = [(x["row_group"], x["kind"]) for x in report["files"][0]["findings"]]
    assert kinds == [(RG, "impossible")], kinds


@pytest.fixture(scope="module", autouse=True)
def _print_matrix() -> None:
    yield
    publish("fault-matrix", ["kind", *ROUTES], [[k, *(r.get(x, "") for x in ROUTES)] for k, r in MATRIX.items()])
