"""The session extension's SQL routes: catalog tables ``USING bloomparquet`` (with and without
LOCATION, partitioned, CTAS), SQL on a path and views plan through the V2 scan (plan-time
pruning, its metrics, runtime filters); writes through SQL keep writing filters; plain Parquet
prunes only when opted in; and no other plan changes. Rows are compared with Spark's ``parquet``
with pushdown off (the random-predicate differential over every route is in
test_read_differential.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyspark.sql import DataFrame

import bloomparquet as bp
from bloomparquet.reference import read_bloom_filters, xxh64_plain

from .spark_conf import PUSHDOWN_OFF, spark_conf

pytestmark = pytest.mark.spark

ROWS, FILES = 40_000, 4
V1_ROUTE = {"spark.bloomparquet.sql.planTimePruning": "false"}
PARQUET_OPT_IN = {"spark.bloomparquet.parquet.enabled": "true"}
# A high-cardinality key (a permutation of 0..ROWS-1 scaled), 4 partitions, many small row groups per file.
SOURCE = f"SELECT id, (id * 7919) % {ROWS} * 3 AS k, CAST(id % 4 AS INT) AS p, repeat(cast(id AS string), 4) AS pad FROM range({ROWS})"
BLOOM = "'bloom.columns' = 'k', 'bloom.fpp' = '0.01', 'parquet.block.size' = '16384'"


@pytest.fixture(scope="module")
def tables(spark, tmp_path_factory) -> Iterator[dict[str, str]]:
    """Query text per route over the same rows; the oracle is ``parquet`` over the LOCATION files."""
    root = tmp_path_factory.mktemp("sqlroutes")
    loc = root / "loc"
    src = spark.sql(SOURCE).repartition(FILES)
    (src.write.format("bloomparquet").option("bloom.columns", "k").option("parquet.block.size", 16384).save(str(loc)))
    spark.sql(f"CREATE TABLE sr_loc USING bloomparquet LOCATION '{loc}'")
    spark.sql(f"CREATE TABLE sr_ctas USING bloomparquet OPTIONS ({BLOOM}) AS SELECT * FROM sr_loc")
    spark.sql(f"CREATE TABLE sr_part USING bloomparquet PARTITIONED BY (p) OPTIONS ({BLOOM}) AS SELECT * FROM sr_loc")
    spark.sql("CREATE VIEW sr_view AS SELECT id, k, p FROM sr_part")
    spark.sql("CREATE TEMPORARY VIEW sr_temp AS SELECT * FROM sr_loc")
    yield {
        "loc": "sr_loc",
        "ctas": "sr_ctas",
        "part": "sr_part",
        "view": "sr_view",
        "temp": "sr_temp",
        "path": f"bloomparquet.`{loc}`",
        "oracle": f"parquet.`{loc}`",
    }
    spark.sql("DROP VIEW sr_view")
    spark.sql("DROP VIEW sr_temp")
    for t in ("sr_loc", "sr_ctas", "sr_part"):
        spark.sql(f"DROP TABLE {t}")


ROUTES = ["loc", "ctas", "part", "view", "temp", "path"]


def _rows(df: DataFrame) -> list[tuple]:
    """The rows of ``df`` itself (so that ``scan_metrics(df)`` describes this execution)."""
    return sorted(tuple(r) for r in df.collect())


def _oracle(spark, tables: dict[str, str], where: str) -> list[tuple]:
    with spark_conf(spark, PUSHDOWN_OFF):
        return _rows(spark.sql(f"SELECT id, k, p FROM {tables['oracle']} WHERE {where}"))


def _plan(df: DataFrame) -> str:
    return df._jdf.queryExecution().executedPlan().toString()


@pytest.mark.parametrize("route", ROUTES)
def test_point_miss_plans_no_task_and_hit_prunes(spark, tables: dict[str, str], route: str) -> None:
    miss = spark.sql(f"SELECT id, k, p FROM {tables[route]} WHERE k = 1")  # keys are multiples of 3
    assert miss.collect() == []
    assert "BloomParquetScan" in _plan(miss)
    m = bp.scan_metrics(miss)
    assert m["bloomTasksPlanned"] == 0 and m["tasks"] == 0, m
    assert m["bloomFilesPruned"] == m["bloomFilesTotal"] > 0, m
    assert m["bloomRowGroupsPrunedByBloom"] > 0, m

    key = (1234 * 7919) % ROWS * 3
    hit = spark.sql(f"SELECT id, k, p FROM {tables[route]} WHERE k = {key}")
    assert _rows(hit) == _oracle(spark, tables, f"k = {key}") == [(1234, key, 1234 % 4)]
    m = bp.scan_metrics(hit)
    survivors = m["bloomRowGroupsTotal"] - m["bloomRowGroupsPrunedByBloom"] - m["bloomRowGroupsPrunedByStats"]
    # The hit's row group, and those without it passing their filter (fpp 1 %: a handful of ~100s).
    assert 1 <= survivors <= 1 + max(3, m["bloomRowGroupsTotal"] // 20), m
    assert 1 <= m["bloomTasksPlanned"] == m["tasks"] <= survivors, m
    assert "BloomProbes" in "\n".join(
        r[0] for r in spark.sql(f"EXPLAIN SELECT * FROM {tables[route]} WHERE k = 1").collect()
    )


@pytest.mark.parametrize("route", ["loc", "path"])
def test_switched_off_keeps_sparks_v1_route(spark, tables: dict[str, str], route: str) -> None:
    key = (77 * 7919) % ROWS * 3
    df = spark.sql(f"SELECT id, k, p FROM {tables[route]} WHERE k = {key}")
    with spark_conf(spark, V1_ROUTE):
        assert _rows(df) == [(77, key, 1)]
        plan = _plan(df)
    assert "BloomParquetScan" not in plan and "FileScan bloomparquet" in plan, plan
    assert "bloomTasksPlanned" not in bp.scan_metrics(df)


_KEYS = st.one_of(st.integers(0, ROWS * 3), st.integers(0, ROWS - 1).map(lambda i: (i * 7919) % ROWS * 3))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    route=st.sampled_from(ROUTES),
    mode=st.sampled_from(["plan", "task"]),
    keys=st.lists(_KEYS, min_size=1, max_size=6),
    part=st.sampled_from([None, 0, 3]),
)
def test_routes_match_spark(
    spark, tables: dict[str, str], route: str, mode: str, keys: list[int], part: int | None
) -> None:
    where = f"k IN ({', '.join(map(str, keys))})" + ("" if part is None else f" AND p = {part}")
    if mode == "task" and route in ("loc", "ctas", "part"):  # read options reach a catalog table's relation
        df = spark.read.option("bloom.mode", "task").table(tables[route]).select("id", "k", "p")
    else:
        df = spark.sql(f"SELECT id, k, p FROM {tables[route]}")
    assert _rows(df.where(where)) == _oracle(spark, tables, where), (route, mode, where)


def test_dynamic_pruning_prunes_a_catalog_table(spark, tables: dict[str, str], tmp_path: Path) -> None:
    keys = [(i * 7919) % ROWS * 3 for i in (5, 6)]
    dim = str(tmp_path / "dim")
    spark.sql(f"SELECT explode(array({keys[0]}, {keys[1]}, 2, 5)) AS key, 'x' AS tag").selectExpr(
        "key", "IF(key % 3 = 0, 'x', 'y') AS tag"
    ).write.parquet(dim)
    query = f"SELECT f.id, f.k, f.p FROM {{fact}} f JOIN parquet.`{dim}` d ON f.k = d.key WHERE d.tag = 'x'"
    got = spark.sql(query.format(fact=tables["loc"]))
    assert (
        _rows(got)
        == _oracle_join(spark, query.format(fact=tables["oracle"]))
        == sorted((i, k, i % 4) for i, k in zip((5, 6), keys))
    )
    assert "dynamicpruningexpression" in _plan(got)
    m = bp.scan_metrics(got)
    # The two keys' row groups, and those the runtime keys pass as false positives (fpp 1 %, 2 keys).
    survivors = m["bloomRowGroupsTotal"] - m["bloomRowGroupsPrunedByBloom"] - m["bloomRowGroupsPrunedByStats"]
    assert 2 <= survivors <= 2 + max(4, m["bloomRowGroupsTotal"] // 10), m


def test_dynamic_partition_pruning_keeps_working(spark, tables: dict[str, str], tmp_path: Path) -> None:
    """A join on a partition column drops the other partitions' files at runtime, as Spark's V1 scan does."""
    dim = str(tmp_path / "dimp")
    spark.sql("SELECT explode(array(1, 2)) AS pp").selectExpr("pp", "IF(pp = 1, 'x', 'y') AS tag").write.parquet(dim)
    query = f"SELECT f.id, f.k, f.p FROM {{fact}} f JOIN parquet.`{dim}` d ON f.p = d.pp WHERE d.tag = 'x'"
    got = spark.sql(query.format(fact=tables["part"]))
    want = _oracle_join(spark, query.format(fact=tables["oracle"]))
    assert _rows(got) == want and len(want) == ROWS // 4
    assert "dynamicpruningexpression" in _plan(got)
    assert bp.scan_metrics(got)["numOutputRows"] == ROWS // 4 + 2  # partition p = 1 only, and the dimension's 2 rows


def _oracle_join(spark, query: str) -> list[tuple]:
    with spark_conf(spark, PUSHDOWN_OFF):
        return _rows(spark.sql(query))


def _filtered_keys(location: Path) -> set[tuple[str, int]]:
    """(file, row group) of every data file whose row groups all carry a filter on k that holds its keys."""
    import pyarrow.parquet as pq

    seen = set()
    for f in sorted(location.rglob("*.parquet")):
        filters = read_bloom_filters(f)
        pf = pq.ParquetFile(f)
        for rg in range(pf.metadata.num_row_groups):
            ks = pf.read_row_group(rg, columns=["k"]).column("k").to_numpy()
            assert filters[(rg, "k")].check_hashes(xxh64_plain(ks.astype(np.int64), "INT64")).all(), (f, rg)
            seen.add((f.name, rg))
    return seen


def test_sql_writes_keep_writing_filters(spark, tables: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "w"
    spark.sql(
        f"CREATE TABLE sr_write (id BIGINT, k BIGINT, p INT) USING bloomparquet LOCATION '{out}' OPTIONS ({BLOOM})"
    )
    try:
        spark.sql("INSERT INTO sr_write SELECT id, k, p FROM sr_loc WHERE id < 3000")
        spark.sql("INSERT INTO sr_write SELECT id, k, p FROM sr_loc WHERE id >= 3000 AND id < 5000")
        assert _filtered_keys(out)
        assert _rows(spark.table("sr_write")) == _oracle(spark, tables, "id < 5000")
        spark.sql("INSERT OVERWRITE sr_write SELECT id, k, p FROM sr_part WHERE id >= 30000")
        assert _filtered_keys(out)
        assert _rows(spark.table("sr_write")) == _oracle(spark, tables, "id >= 30000")
        key = (31000 * 7919) % ROWS * 3
        m_df = spark.sql(f"SELECT id, k, p FROM sr_write WHERE k = {key}")
        assert _rows(m_df) == [(31000, key, 0)]
        assert bp.scan_metrics(m_df)["bloomRowGroupsPrunedByBloom"] > 0
    finally:
        spark.sql("DROP TABLE sr_write")
    # CTAS: the managed tables of the fixture were written through SQL too.
    ctas = Path(spark.sql("DESCRIBE TABLE EXTENDED sr_part").where("col_name = 'Location'").first()[1][len("file:") :])
    assert len(_filtered_keys(ctas)) > FILES


def _normalized(df: DataFrame) -> tuple[str, str]:
    qe = df._jdf.queryExecution()
    strip = lambda s: re.sub(r"#\d+L?|\[plan_id=\d+\]|codegen id : \d+|\*\(\d+\)", "#", s)  # noqa: E731
    return strip(qe.optimizedPlan().toString()), strip(qe.executedPlan().toString())


def test_no_other_plan_changes(spark, tmp_path: Path) -> None:
    """The rule leaves plans without bloomparquet scans alone, and plain Parquet too unless opted in."""
    pq_dir, csv_dir = tmp_path / "pq", tmp_path / "csv"
    spark.range(100).selectExpr("id", "id % 3 AS g").write.parquet(str(pq_dir))
    spark.range(100).selectExpr("id", "id % 3 AS g").write.csv(str(csv_dir))
    spark.sql(f"CREATE TABLE sr_plain USING parquet LOCATION '{pq_dir}'")
    try:
        queries = [
            f"SELECT g, count(*) FROM parquet.`{pq_dir}` WHERE id = 5 GROUP BY g",
            f"SELECT * FROM csv.`{csv_dir}` WHERE _c0 = '5'",
            "SELECT id FROM range(10) WHERE id IN (1, 2)",
            "SELECT a.id FROM sr_plain a JOIN range(5) b ON a.id = b.id WHERE a.g = 1",
        ]
        off = {**V1_ROUTE, "spark.bloomparquet.parquet.enabled": "false"}  # the rule returns every plan as it is
        for q in queries:
            with_rule = _normalized(spark.sql(q))
            with spark_conf(spark, off):
                without = _normalized(spark.sql(q))
            assert with_rule == without, q
            assert "BloomParquet" not in with_rule[1], q
        want = sorted(spark.sql(queries[3]).collect())
        with spark_conf(spark, PARQUET_OPT_IN):
            opted = spark.sql(queries[3])
            assert "BloomParquetScan" in _normalized(opted)[1]
            assert sorted(opted.collect()) == want
    finally:
        spark.sql("DROP TABLE sr_plain")


def test_parquet_opt_in_prunes_and_honours_read_options(spark, tmp_path: Path) -> None:
    a, b = tmp_path / "m" / "x=1", tmp_path / "m" / "x=2"
    spark.sql(SOURCE).selectExpr("id", "k").write.option("parquet.bloom.filter.enabled#k", "true").option(
        "parquet.block.size", 16384
    ).parquet(str(a))
    spark.range(10).selectExpr("id", "id * 3 AS k", "'extra' AS e").write.parquet(str(b))
    key = (99 * 7919) % ROWS * 3

    def read() -> DataFrame:  # a new DataFrame per run: a DataFrame keeps the plan of its first run
        return spark.read.option("mergeSchema", "true").parquet(str(tmp_path / "m")).where(f"k IN ({key}, 27)")

    with spark_conf(spark, PUSHDOWN_OFF):
        want = sorted(read().collect())
    with spark_conf(spark, PARQUET_OPT_IN):
        df = read()
        got = sorted(df.collect())
        plan = _plan(df)
    assert got == want and len(want) == 3 and "e" in df.columns  # k = 27 is in both directories
    assert "BloomParquetScan" in plan
    m = bp.scan_metrics(df)
    assert m["bloomRowGroupsPrunedByBloom"] > 0, m


@pytest.mark.parametrize("mode", ["LEGACY", "CORRECTED"])
def test_parquet_opt_in_honours_datetime_rebase_options(spark, tmp_path: Path, mode: str) -> None:
    """Dates and INT96 timestamps before 1582 from a writer that is not Spark: the rebase read options
    (``datetimeRebaseMode``, ``int96RebaseMode``) reach Spark's reader inside the converted scan."""
    import datetime as dt

    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = 2000
    day = [dt.date(1000, 1, 1) + dt.timedelta(days=i) for i in range(rows)]
    ts = [dt.datetime(1000, 1, 1, 12) + dt.timedelta(hours=i) for i in range(rows)]
    table = pa.table(
        {"k": pa.array(range(rows), pa.int64()), "d": pa.array(day, pa.date32()), "t": pa.array(ts, pa.timestamp("us"))}
    )
    path = tmp_path / "ancient.parquet"
    # Filters on k: the lookup plans through the converted (V2) scan even over one small file.
    pq.write_table(
        table, path, row_group_size=250, use_deprecated_int96_timestamps=True, bloom_filter_options={"k": {"ndv": 250}}
    )

    def read() -> DataFrame:
        return (
            spark.read.option("datetimeRebaseMode", mode)
            .option("int96RebaseMode", mode)
            .parquet(str(path))
            .where("k IN (7, 1500)")
        )

    with spark_conf(spark, PUSHDOWN_OFF):
        want = sorted(read().collect())
    with spark_conf(spark, PARQUET_OPT_IN):
        df = read()
        got = sorted(df.collect())
        assert "BloomParquetScan" in _plan(df)
    assert got == want and len(want) == 2
    # The modes read different days: a test that cannot tell them apart would prove nothing.
    shifted = want[0].d != dt.date(1000, 1, 8)
    assert shifted == (mode == "LEGACY"), want
