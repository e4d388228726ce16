"""Differential, property-based: every query through ``bloomparquet`` returns
exactly the rows of Spark's own ``parquet`` reader with Parquet filter
pushdown off (Spark's semantics without its pushdown). Data from Spark's and
pyarrow's writers, 15 column types, random =, <=>, IN (0..5,000 values), OR
and AND mixes, present and absent values, null literals."""

from __future__ import annotations

import datetime as dt
import decimal
import random
import shutil
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pyspark.sql import DataFrame

import bloomparquet as bp

from .datagen import Column, make_table, sql_literal, write_bloomparquet, write_pyarrow, write_spark
from .routes import Routes, bloom_routes
from .spark_conf import PUSHDOWN_OFF, rows, spark_conf

pytestmark = [pytest.mark.spark, pytest.mark.long]

TABLE, COLUMNS = make_table()
_totals: Counter[str] = Counter()


SQL_ROUTES = ["sql", "sql_v1", "table", "table_task", "view", "parquet_opt_in", "parquet_table"]


@dataclass(frozen=True)
class Dataset:
    path: Path
    oracle: DataFrame  # Spark's parquet; queried with filter pushdown off
    routes: Routes  # route -> (what is queried, session confs held while it runs): see routes.bloom_routes


@pytest.fixture(scope="module", params=["spark", "pyarrow", "bloomparquet"])
def dataset(request, spark, tmp_path_factory) -> Iterator[Dataset]:
    out = tmp_path_factory.mktemp(f"diff-{request.param}") / "data"
    micros = {"spark.sql.parquet.outputTimestampType": "TIMESTAMP_MICROS"}  # INT96 is never probed
    if request.param == "spark":
        with spark_conf(spark, micros):
            write_spark(spark, TABLE, out)
    elif request.param == "bloomparquet":  # our own writer: filters sized per row group
        with spark_conf(spark, micros):
            write_bloomparquet(spark, TABLE, out)
    else:
        write_pyarrow(TABLE, out)
    # The same files again with a bloom digest of every column: the files it keeps judged in their tasks
    # (the default) or on the driver.
    digested = out.parent / "digested"
    shutil.copytree(out, digested)
    bp.build_digest(spark, str(digested), [c.name for c in COLUMNS])
    with bloom_routes(spark, out, f"diff_{request.param}") as (oracle, routes):
        routes["digest"] = (bp.read_bloom(spark, str(digested)), {})
        routes["digest_plan"] = (bp.read_bloom(spark, str(digested), **{"bloom.digestSurvivors": "plan"}), {})
        yield Dataset(out, oracle, routes)


def _absent(sql_type: str) -> st.SearchStrategy:
    ints = {"TINYINT": 7, "SMALLINT": 15, "INT": 31, "BIGINT": 63}
    if sql_type in ints:
        b = ints[sql_type]
        return st.integers(-(2**b), 2**b - 1)
    if sql_type == "FLOAT":
        return st.floats(width=32)
    if sql_type == "DOUBLE":
        return st.floats()
    if sql_type.startswith("DECIMAL"):
        p, s = (int(x) for x in sql_type[8:-1].split(","))
        bound = decimal.Decimal(10 ** (p - s)) - decimal.Decimal(1).scaleb(-s)
        return st.decimals(min_value=-bound, max_value=bound, places=s, allow_nan=False, allow_infinity=False)
    if sql_type == "STRING":
        return st.text(max_size=12)
    if sql_type == "BINARY":
        return st.binary(max_size=12)
    if sql_type == "DATE":
        return st.dates(dt.date(1600, 1, 1), dt.date(2200, 1, 1))
    if sql_type == "TIMESTAMP":
        return st.datetimes(dt.datetime(1700, 1, 1), dt.datetime(2200, 1, 1), timezones=st.just(dt.UTC))
    return st.datetimes(dt.datetime(1700, 1, 1), dt.datetime(2200, 1, 1))


@st.composite
def _values(draw, column: Column, max_size: int) -> list:
    present = st.sampled_from(column.pool)
    one = st.one_of(present, present, _absent(column.sql_type), st.none() if max_size > 1 else present)
    return draw(st.lists(one, min_size=0 if max_size > 1 else 1, max_size=max_size))


@st.composite
def _leaf(draw) -> str:
    column = draw(st.sampled_from(COLUMNS))
    kind = draw(st.sampled_from(["=", "<=>", "IN", "IN", "NULL="]))
    if kind == "NULL=":
        return f"{column.name} = {sql_literal(column.sql_type, None)}"
    if kind in ("=", "<=>"):
        (v,) = draw(_values(column, 1))
        lit = sql_literal(column.sql_type, v)
        return f"{column.name} {kind} {lit}" if draw(st.booleans()) else f"{lit} {kind} {column.name}"
    values = draw(_values(column, 12))
    if not values:
        values = [draw(st.sampled_from(column.pool))]
    return f"{column.name} IN ({', '.join(sql_literal(column.sql_type, v) for v in values)})"


def _predicate(depth: int = 2) -> st.SearchStrategy[str]:
    if depth == 0:
        return _leaf()
    sub = _predicate(depth - 1)
    return st.one_of(
        _leaf(),
        _leaf(),
        st.builds(lambda a, b: f"({a} OR {b})", sub, sub),
        st.builds(lambda a, b: f"({a} AND {b})", sub, sub),
    )


def _rows(df) -> list[tuple[int, int]]:
    # (row id, hash of every column): the rows selected and what was read, without moving rows to Python.
    return sorted((r[0], r[1]) for r in df.collect())


def _check(spark, data: Dataset, predicate: str, via: str = "plan") -> None:
    source, conf = data.routes[via]
    got_df = source.where(predicate).selectExpr("row_id", "xxhash64(*)")
    with spark_conf(spark, conf):
        got = _rows(got_df)
    with spark_conf(spark, PUSHDOWN_OFF):
        want = _rows(data.oracle.where(predicate).selectExpr("row_id", "xxhash64(*)"))
    assert got == want, predicate
    metrics = bp.scan_metrics(got_df)
    _totals["queries"] += 1
    _totals[f"queries_{via}"] += 1
    _totals[f"rg_pruned_{via}"] += metrics.get("bloomRowGroupsPrunedByBloom", 0) + metrics.get(
        "bloomRowGroupsPrunedByStats", 0
    )
    _totals["rg_total"] += metrics.get("bloomRowGroupsTotal", 0)
    _totals["rg_bloom"] += metrics.get("bloomRowGroupsPrunedByBloom", 0)
    _totals["rg_stats"] += metrics.get("bloomRowGroupsPrunedByStats", 0)
    _totals[f"rg_gaps_{via}"] += metrics.get("bloomRowGroupsReadInGaps", 0)
    _totals["matches"] += bool(want)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    predicate=_predicate(),
    via=st.sampled_from(
        [
            "plan",
            "plan",
            "task",
            "plan_no_gap_reads",
            "task_no_gap_reads",
            "plan_blocks",
            "task_blocks",
            "digest",
            "digest_plan",
            *SQL_ROUTES,
        ]
    ),
)
# A zero on the left of <=>: Spark's reader is to get both zeros however the equality is written.
@example(predicate="CAST('0.0' AS FLOAT) <=> f", via="plan")
def test_random_predicates_match_spark(spark, dataset: Dataset, predicate: str, via: str) -> None:
    _check(spark, dataset, predicate, via)


def _random_values(sql_type: str, rnd: random.Random, n: int) -> list:
    """n values of ``sql_type`` from a seeded generator (hypothesis can't draw thousands cheaply)."""
    ints = {"TINYINT": 7, "SMALLINT": 15, "INT": 31, "BIGINT": 63}
    if sql_type in ints:
        b = ints[sql_type]
        return [rnd.randint(-(2**b), 2**b - 1) for _ in range(n)]
    if sql_type in ("FLOAT", "DOUBLE"):
        return [rnd.uniform(-1e6, 1e6) for _ in range(n)]
    if sql_type.startswith("DECIMAL"):
        p, sc = (int(x) for x in sql_type[8:-1].split(","))
        return [decimal.Decimal(rnd.randint(-(10 ** (p - 1)), 10 ** (p - 1))).scaleb(-sc) for _ in range(n)]
    if sql_type == "STRING":
        return [f"absent-{rnd.getrandbits(40)}-ü" for _ in range(n)]
    if sql_type == "BINARY":
        return [rnd.getrandbits(64).to_bytes(8, "little") for _ in range(n)]
    if sql_type == "DATE":
        return [dt.date(1900, 1, 1) + dt.timedelta(days=rnd.randint(0, 80000)) for _ in range(n)]
    tz = dt.UTC if sql_type == "TIMESTAMP" else None
    return [dt.datetime(1950, 1, 1, tzinfo=tz) + dt.timedelta(microseconds=rnd.getrandbits(50)) for _ in range(n)]


@settings(max_examples=8, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    column=st.sampled_from(COLUMNS),
    size=st.integers(1000, 5000),
    seed=st.integers(0, 2**32),
    hit=st.booleans(),
    via=st.sampled_from(["plan", "task", "sql", "plan_blocks", "digest"]),
)
def test_big_in_lists_match_spark(
    spark, dataset: Dataset, column: Column, size: int, seed: int, hit: bool, via: str
) -> None:
    rnd = random.Random(seed)
    values = _random_values(column.sql_type, rnd, size)
    if hit:
        values[rnd.randrange(size)] = rnd.choice(column.pool)
    _check(spark, dataset, f"{column.name} IN ({', '.join(sql_literal(column.sql_type, v) for v in values)})", via)


@pytest.mark.parametrize("column", COLUMNS, ids=lambda c: c.name)
def test_every_column_point_hit_and_miss(spark, dataset: Dataset, column: Column) -> None:
    absent = _random_values(column.sql_type, random.Random(column.name), 1)  # almost surely not in the data
    for v in [*column.pool[:1], *column.pool[-1:], *absent]:
        _check(spark, dataset, f"{column.name} = {sql_literal(column.sql_type, v)}")
        _check(spark, dataset, f"{column.name} <=> {sql_literal(column.sql_type, v)}", via="task")
        _check(spark, dataset, f"{column.name} IN ({sql_literal(column.sql_type, v)}, NULL)", via="sql")
        _check(spark, dataset, f"{column.name} = {sql_literal(column.sql_type, v)}", via="plan_blocks")
        _check(spark, dataset, f"{column.name} = {sql_literal(column.sql_type, v)}", via="digest")


_TOP_LEVEL = [c for c in COLUMNS if "." not in c.name]


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(column=st.sampled_from(_TOP_LEVEL), data=st.data())
def test_joins_prune_at_runtime_and_match_spark(
    spark, dataset: Dataset, tmp_path_factory, column: Column, data
) -> None:
    """A join on a selective dimension: Spark's dynamic pruning hands the scan the dimension's
    keys at runtime (``column IN (...)``), which bloomparquet probes; rows must equal Spark's."""
    keys = data.draw(_values(column, 8)) or [column.pool[0]]
    other = data.draw(_values(column, 4))  # rows the dimension's filter removes
    rows = [f"SELECT {sql_literal(column.sql_type, v)} AS k, 'x' AS tag" for v in keys]
    rows += [f"SELECT {sql_literal(column.sql_type, v)} AS k, 'y' AS tag" for v in other]
    dim_path = str(tmp_path_factory.mktemp("dim") / "dim")
    spark.sql(" UNION ALL ".join(rows)).write.parquet(dim_path)
    dim = spark.read.parquet(dim_path).where("tag = 'x'")  # a file scan: its filter survives to dynamic pruning

    def joined(fact: DataFrame) -> DataFrame:
        return fact.join(dim, fact[column.name] == dim["k"]).selectExpr("row_id", "xxhash64(*)")

    for via in ("plan", "task", "table"):
        fact, conf = dataset.routes[via]
        got_df = joined(fact)
        with spark_conf(spark, conf):
            got = _rows(got_df)
        with spark_conf(spark, PUSHDOWN_OFF):
            want = _rows(joined(dataset.oracle))
        assert got == want, (via, column.name, keys)
        if via in ("plan", "table"):
            plan = got_df._jdf.queryExecution().executedPlan().toString()
            metrics = bp.scan_metrics(got_df)
            if "dynamicpruningexpression" in plan:
                _totals["runtime_filtered"] += 1
                _totals["runtime_rg_pruned"] += metrics.get("bloomRowGroupsPrunedByBloom", 0) + metrics.get(
                    "bloomRowGroupsPrunedByStats", 0
                )


@pytest.fixture(scope="module")
def sorted_runs(spark, write_bloom_dir) -> Path:
    """One file of 40 row groups holding k = 0..39,999 in order (1,000 a row group), filters on k."""
    df = spark.range(40_000).selectExpr("id AS k", "id % 7 AS v").coalesce(1).sortWithinPartitions("k")
    return write_bloom_dir(df, "k", "sorted-runs", 16 * 1024)


@pytest.mark.parametrize("mode", ["plan", "task"])
def test_gaps_are_read_only_where_sparks_reader_reads_them_too(spark, oracle, sorted_runs: Path, mode: str) -> None:
    """Survivors every other row group: the pruned ones between them are read (rather than the file
    opened once more) for an IN longer than Spark's threshold (10), whose row groups Spark's reader
    decodes too, and opened around for 10 values, which Spark's reader answers from bloom filters."""
    read = {}
    for n in (10, 12):
        where = f"k IN ({', '.join(str(2_000 * i + 5) for i in range(n))})"
        df = bp.read_bloom(spark, str(sorted_runs), **{"bloom.mode": mode}).where(where)
        with spark_conf(spark, {"spark.sql.files.maxPartitionBytes": str(1 << 30)}):
            assert rows(df) == oracle(sorted_runs, where)
        read[n] = bp.scan_metrics(df).get("bloomRowGroupsReadInGaps", 0)
    assert read[10] == 0 and read[12] > 0, read


def test_pruning_happened_across_the_suite() -> None:
    """Guards against a vacuous suite: the differential queries did prune and did match."""
    if _totals["queries"] < 20:
        pytest.skip("run with the differential tests")
    assert _totals["rg_bloom"] > 0, _totals
    assert _totals["matches"] > 0, _totals
    # The SQL routes the extension converts report the V2 scan's pruning; Spark's V1 route has no such metrics.
    assert sum(_totals[f"rg_pruned_{via}"] for via in ("sql", "table", "view", "parquet_opt_in", "parquet_table")) > 0
    assert _totals["rg_pruned_sql_v1"] == 0, _totals
    # With gap reads off, no gap was read (where they are read: test_gaps_are_read_only_where_...).
    assert _totals["rg_gaps_plan_no_gap_reads"] + _totals["rg_gaps_task_no_gap_reads"] == 0, _totals
    if _totals["runtime_filtered"]:
        assert _totals["runtime_rg_pruned"] > 0, _totals


def test_runtime_pruning_happened_across_the_suite() -> None:
    """The join test is not vacuous: Spark did hand the scans runtime filters, and they pruned."""
    if _totals["queries"] < 20:
        pytest.skip("run with the differential tests")
    assert _totals["runtime_filtered"] > 0, _totals
    assert _totals["runtime_rg_pruned"] > 0, _totals
