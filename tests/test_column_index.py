"""Differential: files whose column index lies. parquet-java drops pages with a
file's column index without checking it against anything, and writers have
shipped wrong ones (parquet-testing's ``datapage_v1-*-checksum.parquet`` marks
every page all-null while the chunk's statistics count values). Spark's own
``parquet`` with pushdown on loses those rows; every bloomparquet route must
return what Spark returns with pushdown off (column-index filtering is withheld
from Spark's reader in scans we prune, ``InTaskParquet``).

The files are real: written by Spark's writer and by ours (several pages a
chunk), then their ColumnIndex rewritten in place with parquet-java's own thrift
classes, at the same length."""

from __future__ import annotations

from pathlib import Path

import pytest

import bloomparquet as bp

from .spark_conf import PUSHDOWN_OFF, spark_conf

pytestmark = pytest.mark.spark

ROWS = 4_000
PRESENT, ABSENT = 3 * 1_234, 3 * 1_234 + 1  # k = 3 * id
WHERES = [f"k = {PRESENT}", f"k IN ({PRESENT}, {ABSENT}, {3 * 3_999})", f"k <=> {PRESENT} OR s = 'v17'"]
LIES = ["all_null_pages", "bounds_exclude_values"]


def _write(spark, out: Path, writer: str) -> Path:  # noqa: ANN001
    df = spark.range(ROWS).selectExpr("id", "id * 3 AS k", "concat('v', id) AS s").coalesce(1)
    w = (df.write.option("parquet.page.size", "2048").option("parquet.enable.dictionary", "false")
         .option("compression", "none"))
    if writer == "bloomparquet":
        w.format("bloomparquet").option("bloom.columns", "k, s").save(str(out))
    else:
        w.option("parquet.bloom.filter.enabled#k", "true").parquet(str(out))
    return next(out.glob("*.parquet"))


def _lie(spark, path: Path, lie: str) -> int:  # noqa: ANN001
    """Rewrites column `k`'s ColumnIndex of every row group in place; returns the pages it covers."""
    jvm = spark._jvm
    conf = spark._jsc.hadoopConfiguration()
    reader = jvm.org.apache.parquet.hadoop.ParquetFileReader.open(
        jvm.org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(jvm.org.apache.hadoop.fs.Path(str(path)), conf))
    try:
        refs = [c.getColumnIndexReference() for b in reader.getFooter().getBlocks()
                for c in b.getColumns() if c.getPath().toDotString() == "k"]
    finally:
        reader.close()
    data = bytearray(path.read_bytes())
    util = jvm.org.apache.parquet.format.Util
    pages = 0
    for ref in refs:
        assert ref is not None, "the writer wrote no column index"
        start, length = ref.getOffset(), ref.getLength()
        index = util.readColumnIndex(jvm.java.io.ByteArrayInputStream(bytes(data[start:start + length])))
        n = index.getNull_pagesSize()
        pages += n
        if lie == "all_null_pages":
            flags = jvm.java.util.ArrayList()
            for _ in range(n):
                flags.add(True)
            index.setNull_pages(flags)
        else:  # every page claims [-2, -1]: no value of k (>= 0) can be in it
            for name, value in (("min", -2), ("max", -1)):
                values = jvm.java.util.ArrayList()
                for _ in range(n):
                    values.add(jvm.java.nio.ByteBuffer.wrap(value.to_bytes(8, "little", signed=True)))
                getattr(index, f"set{name.capitalize()}_values")(values)
        out = jvm.java.io.ByteArrayOutputStream()
        util.writeColumnIndex(index, out)
        patched = bytes(out.toByteArray())
        assert len(patched) == length, "the rewritten index must keep its length"
        data[start:start + length] = patched
    path.write_bytes(bytes(data))
    return pages


@pytest.fixture(scope="module", params=[(w, lie) for w in ("bloomparquet", "spark") for lie in LIES],
                ids=lambda p: f"{p[0]}-{p[1]}")
def lying(request, spark, tmp_path_factory) -> Path:  # noqa: ANN001
    writer, lie = request.param
    table = tmp_path_factory.mktemp(f"colindex-{writer}-{lie}") / "t"
    file = _write(spark, table, writer)
    assert _lie(spark, file, lie) > 1, "several pages per chunk"
    for crc in table.glob(".*.crc"):
        crc.unlink()  # Hadoop's local checksums would (rightly) reject the rewritten file
    return table


def _rows(df) -> list[tuple]:  # noqa: ANN001
    return sorted(tuple(r) for r in df.select("id", "k", "s").collect())


def _expected(spark, table: Path, where: str) -> list[tuple]:  # noqa: ANN001
    with spark_conf(spark, PUSHDOWN_OFF):
        return _rows(spark.read.parquet(str(table)).where(where))


ROUTES = ["plan", "task", "sql_path", "sql_table", "view", "parquet_opt_in"]


def _route(spark, table: Path, route: str):  # noqa: ANN001, ANN202
    if route in ("plan", "task"):
        return bp.read_bloom(spark, str(table), bloom_mode=route)
    if route == "sql_path":
        return spark.sql(f"SELECT * FROM bloomparquet.`{table}`")
    if route == "sql_table":
        spark.sql("DROP TABLE IF EXISTS colindex_t")  # external: its files stay
        spark.sql(f"CREATE TABLE colindex_t USING bloomparquet LOCATION '{table}'")
        return spark.table("colindex_t")
    if route == "view":
        bp.read_bloom(spark, str(table)).createOrReplaceTempView("colindex_v")
        return spark.table("colindex_v")
    assert route == "parquet_opt_in"
    return spark.read.parquet(str(table))


def test_spark_pushdown_loses_rows_on_these_files(spark, lying: Path) -> None:  # noqa: ANN001
    """The class is real: Spark's own reader with pushdown on (column index on) drops the present key."""
    where = f"k = {PRESENT}"
    assert len(_expected(spark, lying, where)) == 1
    with spark_conf(spark, {"spark.sql.parquet.filterPushdown": "true"}):
        assert _rows(spark.read.parquet(str(lying)).where(where)) == []


@pytest.mark.parametrize("route", ROUTES)
def test_every_route_equals_spark_without_pushdown(spark, lying: Path, route: str) -> None:  # noqa: ANN001
    opt_in = {"spark.bloomparquet.parquet.enabled": "true"} if route == "parquet_opt_in" else {}
    for where in WHERES:
        want = _expected(spark, lying, where)
        with spark_conf(spark, opt_in):
            assert _rows(_route(spark, lying, route).where(where)) == want, (route, where)


def test_sparkpushdown_all_hands_spark_the_column_index(spark, lying: Path) -> None:  # noqa: ANN001
    """`bloom.sparkPushdown=all` is documented to give Spark everything, page skipping included (and its risk)."""
    where = f"k = {PRESENT}"
    got = _rows(bp.read_bloom(spark, str(lying), bloom_spark_pushdown="all").where(where))
    assert got == []

