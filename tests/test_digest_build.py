"""A Parquet directory's bloom digest, built by the JVM's Spark job from the files' footers and filters
only, read back by the reference: it covers every file at the version listed, holds an entry for each
row group's filter (none where a file has no filter), finds every value of every row group, and is
smaller than the filters it holds where writers oversize them (parquet-java's default is 1 MiB)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import bloomparquet as bp
from bloomparquet.reference import read_bloom_filters, xxh64_plain
from bloomparquet.reference._thrift import read_struct
from bloomparquet.reference.digest import read_digest

from .spark_conf import spark_conf

pytestmark = pytest.mark.spark


def _build(spark, path: Path, columns: list[str], fpp: float) -> dict:
    return bp.build_digest(spark, str(path), columns, fpp=fpp, full=True)


@pytest.fixture(scope="module")
def table(spark, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Files of three writers: ours (right-sized filters), Spark's parquet-java (1 MiB filters), pyarrow (none)."""
    root = tmp_path_factory.mktemp("digest") / "t"
    keys = spark.range(40_000).selectExpr("(id * 2654435761 % 4294967296) * 2 AS k", "id")
    (
        keys.where("id < 20000")
        .repartition(2)
        .write.format("bloomparquet")
        .option("bloom.columns", "k")
        .option("parquet.block.size", str(64 * 1024))
        .save(str(root))
    )
    with spark_conf(spark, {"parquet.bloom.filter.enabled#k": "true"}):
        keys.where("id >= 20000 AND id < 30000").repartition(2).write.mode("append").parquet(str(root))
    k = np.arange(30_000, 40_000, dtype=np.int64) * 2654435761 % 4294967296 * 2
    pq.write_table(pa.table({"k": k, "id": np.arange(30_000, 40_000)}), root / "pyarrow.parquet")
    return root


def test_the_digest_covers_every_file_and_finds_every_value(spark, table: Path) -> None:
    built = _build(spark, table, ["k"], 0.01)
    # The pointer: the digest's name, its length and where its index starts (planning reads the index and
    # the footer in one request, with no status call).
    name, length, index_start = (table / "_bloomparquet" / "digest").read_text().split()
    assert built["path"].endswith(name)
    data = (table / "_bloomparquet" / name).read_bytes()
    assert int(length) == len(data) == built["digest_bytes"]
    digest = read_digest(data)
    assert int(index_start) == digest.index_offset
    files = sorted(p for p in table.glob("*.parquet"))
    assert [f[0] for f in digest.files] == [p.name for p in files]
    assert built["files"] == len(files) and built["files_skipped"] == 0
    for (name, length, mtime, _, row_groups), p in zip(digest.files, files, strict=True):
        st = os.stat(p)
        assert (length, mtime) == (st.st_size, st.st_mtime_ns // 1_000_000), name
        assert len(row_groups) == pq.ParquetFile(p).metadata.num_row_groups
    assert {c.parquet_type for c in digest.classes} == {"optional int64 v"}
    covered = {e for c in digest.classes for e in c.entries}
    with_filters = {(i, rg) for i, p in enumerate(files) for (rg, col) in read_bloom_filters(p) if col == "k"}
    assert covered == with_filters and built["entries"] == len(covered)
    assert not any(i == [p.name for p in files].index("pyarrow.parquet") for i, _ in covered)
    for i, p in enumerate(files):
        meta = pq.ParquetFile(p)
        for rg in range(meta.metadata.num_row_groups):
            if (i, rg) not in covered:
                continue
            values = meta.read_row_group(rg, columns=["k"]).column("k").to_numpy()
            for h in xxh64_plain(values[:200], "INT64"):
                assert (i, rg) in digest.may_hold("k", int(h)), (p.name, rg)


def test_oversized_filters_fold_and_misses_stay_under_the_bound(spark, table: Path) -> None:
    fpp = 0.01
    built = _build(spark, table, ["k"], fpp)
    digest = read_digest(Path(built["path"].removeprefix("file:")).read_bytes())
    class_bytes = sum(c.rows.nbytes for c in digest.classes)
    # parquet-java's 1 MiB default filters fold to what their values need.
    assert class_bytes < built["filter_bytes"] / 10, (class_bytes, built["filter_bytes"])
    assert built["digest_bytes"] < built["filter_bytes"] / 10
    # An entry without an absent value answers yes with probability at most its bound (here fpp, or the
    # rate its own filter had); 2,000 odd keys (never written) over every entry: well under 2 x fpp.
    entries = sum(len(c.entries) for c in digest.classes)
    odd = np.arange(2000, dtype=np.int64) * 2 + 1
    hits = sum(len(digest.may_hold("k", int(h))) for h in xxh64_plain(odd, "INT64"))
    assert hits / (2000 * entries) < 2 * fpp, hits / (2000 * entries)


def test_filters_planning_would_not_trust_get_no_entry(spark, table: Path, tmp_path: Path) -> None:
    """As planning judges a file's filters, the digest leaves out a filter that excludes its chunk's own min
    or max (a corrupt bitset that parses) and the filters of leaves sharing a dotted path (top-level `a.b`
    next to struct field a.b, which parquet-java's writer keys alike): their row groups are read."""
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    source = next(p for p in sorted(table.glob("part-*.parquet")) if (0, "k") in read_bloom_filters(p))
    target = damaged / source.name
    data = bytearray(source.read_bytes())
    offset = pq.ParquetFile(source).metadata.row_group(0).column(0).bloom_filter_offset
    _, header = read_struct(bytes(data[offset : offset + 64]))
    size = read_bloom_filters(source)[(0, "k")].num_bytes
    data[offset + header : offset + header + size] = bytes(size)  # all zero: excludes the chunk's min and max
    target.write_bytes(bytes(data))
    built = _build(spark, damaged, ["k"], 0.01)
    digest = read_digest(Path(built["path"].removeprefix("file:")).read_bytes())
    assert built["files"] == 1 and (0, 0) not in {e for c in digest.classes for e in c.entries}

    dotted = tmp_path / "dotted"
    rows = [(i, 2 * i, (2 * i + 1,)) for i in range(500)]
    (
        spark.createDataFrame(rows, "Id LONG, `a.b` LONG, a STRUCT<b: LONG>")
        .coalesce(1)
        .write.format("bloomparquet")
        .option("bloom.columns", "Id, `a.b`, a.b")
        .save(str(dotted))
    )
    built = _build(spark, dotted, ["Id", "`a.b`", "a.b"], 0.01)
    digest = read_digest(Path(built["path"].removeprefix("file:")).read_bytes())
    assert {c.column for c in digest.classes} == {"Id"}
