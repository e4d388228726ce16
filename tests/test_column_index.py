"""Differential: files whose column index lies. parquet-java drops pages with a
file's column index without checking it against anything, and writers have
shipped wrong ones (parquet-testing's ``datapage_v1-*-checksum.parquet`` marks
every page all-null while the chunk's statistics count values). Spark's own
``parquet`` with pushdown on loses those rows; every bloomparquet route must
return what Spark returns with pushdown off (column-index filtering is withheld
from Spark's reader in scans we prune, ``InTaskParquet``).

The files are real: written by Spark's writer and by ours (several pages a
chunk), then their ColumnIndex rewritten in place at the same length
(``tests/corpus/column_index.py``; ``tests/test_file_classes.py`` checks with
parquet-java that the rewritten indexes lie as intended). The file classes of
``tests/corpus`` (pyarrow's, DuckDB's) run through the same routes in
``tests/test_file_classes.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

import bloomparquet as bp

from .corpus import column_index
from .spark_conf import rows, spark_conf

pytestmark = [pytest.mark.spark, pytest.mark.cluster]

ROWS = 4_000
PRESENT, ABSENT = 3 * 1_234, 3 * 1_234 + 1  # k = 3 * id
WHERES = [f"k = {PRESENT}", f"k IN ({PRESENT}, {ABSENT}, {3 * 3_999})", f"k <=> {PRESENT} OR s = 'v17'"]


def _write(spark, out: Path, writer: str) -> Path:
    df = spark.range(ROWS).selectExpr("id", "id * 3 AS k", "concat('v', id) AS s").coalesce(1)
    w = (
        df.write.option("parquet.page.size", "2048")
        .option("parquet.enable.dictionary", "false")
        .option("compression", "none")
    )
    if writer == "bloomparquet":
        w.format("bloomparquet").option("bloom.columns", "k, s").save(str(out))
    else:
        w.option("parquet.bloom.filter.enabled#k", "true").parquet(str(out))
    return next(out.glob("*.parquet"))


# The two lies (tests/corpus/column_index.py rewrites the index in place, at its length).
LIES = {
    "all_null_pages": column_index.all_pages_null,
    "bounds_exclude_values": column_index.bounds_beyond(column_index.int64_high),
}


@pytest.fixture(
    scope="module", params=[(w, lie) for w in ("bloomparquet", "spark") for lie in LIES], ids=lambda p: f"{p[0]}-{p[1]}"
)
def lying(request, spark, tmp_path_factory) -> Path:
    writer, lie = request.param
    table = tmp_path_factory.mktemp(f"colindex-{writer}-{lie}") / "t"
    file = _write(spark, table, writer)
    column_index.rewrite(file, "k", LIES[lie])
    for crc in table.glob(".*.crc"):
        crc.unlink()  # Hadoop's local checksums would (rightly) reject the rewritten file
    return table


def _compared(df):
    return df.select("id", "k", "s")


def _rows(df) -> list[tuple]:
    return rows(_compared(df))


ROUTES = ["plan", "task", "sql_path", "sql_table", "view", "parquet_opt_in"]


def _route(spark, table: Path, route: str):
    if route in ("plan", "task"):
        return bp.read_bloom(spark, str(table), **{"bloom.mode": route})
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


def test_spark_pushdown_loses_rows_on_these_files(spark, oracle, lying: Path) -> None:
    """The class is real: Spark's own reader with pushdown on (column index on) drops the present key."""
    where = f"k = {PRESENT}"
    assert len(oracle(lying, where, query=_compared)) == 1
    with spark_conf(spark, {"spark.sql.parquet.filterPushdown": "true"}):
        assert _rows(spark.read.parquet(str(lying)).where(where)) == []


@pytest.mark.parametrize("route", ROUTES)
def test_every_route_equals_spark_without_pushdown(spark, oracle, lying: Path, route: str) -> None:
    opt_in = {"spark.bloomparquet.parquet.enabled": "true"} if route == "parquet_opt_in" else {}
    for where in WHERES:
        want = oracle(lying, where, query=_compared)
        with spark_conf(spark, opt_in):
            assert _rows(_route(spark, lying, route).where(where)) == want, (route, where)


def test_sparkpushdown_all_hands_spark_the_column_index(spark, lying: Path) -> None:
    """`bloom.sparkPushdown=all` is documented to give Spark everything, page skipping included (and its risk)."""
    where = f"k = {PRESENT}"
    got = _rows(bp.read_bloom(spark, str(lying), **{"bloom.sparkPushdown": "all"}).where(where))
    assert got == []


@pytest.fixture(scope="module", params=["bloomparquet", "spark"])
def honest(request, spark, tmp_path_factory) -> Path:
    table = tmp_path_factory.mktemp(f"colindex-honest-{request.param}") / "t"
    _write(spark, table, request.param)
    return table


@pytest.mark.parametrize("route", ROUTES)
def test_an_index_that_agrees_with_its_footer_skips_pages_as_sparks_reader_does(
    spark, oracle, honest: Path, route: str
) -> None:
    """Page skipping is judged, not given up: on a file whose column index agrees with its chunk's
    statistics every route decodes the rows Spark's own reader decodes (one page, not the row group)."""
    where = f"k = {PRESENT}"
    want = oracle(honest, where, query=_compared)
    spark_default = _compared(spark.read.parquet(str(honest)).where(where))
    assert rows(spark_default) == want
    sparks = bp.scan_metrics(spark_default)["numOutputRows"]
    assert 0 < sparks < ROWS  # several pages, one read
    opt_in = {"spark.bloomparquet.parquet.enabled": "true"} if route == "parquet_opt_in" else {}
    with spark_conf(spark, opt_in):
        df = _compared(_route(spark, honest, route).where(where))
        assert rows(df) == want
        assert bp.scan_metrics(df)["numOutputRows"] == sparks, route
