"""Differential: the value classes where Spark's own Parquet pushdown has lost
rows, through every bloomparquet route (plan, task, SQL on the path) with
``bloom.sparkPushdown`` safe and none, against Spark's ``parquet`` with
pushdown off. Strings whose bytes are not UTF-8 (written by Spark from a
binary cast, or a binary column read as string), a top-level ``a.b`` next to
struct ``a`` with field ``b``, float -0.0 and NaN, millisecond timestamps
compared with sub-millisecond literals; and, as evidence for what ``safe``
does pass on, integral, decimal, date and boolean comparisons. Each file is one
row group holding one class, so a wrong skip loses rows."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bloomparquet as bp

from .spark_conf import spark_conf

pytestmark = pytest.mark.spark

# Per file (= row group): the bytes of `s` (hex, None = null) and the values of `f`, cycled over its 10 rows.
GROUPS = [
    (["C328"], ["-0.0"]),  # only bytes that are not UTF-8; only -0.0
    (["FF", "FE"], ["NaN"]),
    (["6162", "C3A9"], ["0.0"]),  # 'ab', 'é'
    (["C328", "6162"], ["1.5", "-0.0"]),
    ([None, "EFBFBD28"], [None]),  # a genuine U+FFFD followed by '('
    (["7A7A"], ["-1.0", "2.0"]),  # 'zz'
]
ROWS_PER_GROUP = 10
STRINGS = ["C328", "FF", "FE", "EFBFBD28", "6162", "C3A9", "7A7A", "71"]  # hex; '71' = 'q' is absent
DOUBLES = ["0.0", "-0.0", "NaN", "1.5", "-1.0", "3.0"]
BLOOM = "s, f, `a.b`, a.b"
ROUTES = ["plan", "task", "sql"]


def _write(spark, out: Path, fmt: str) -> None:
    rows = []
    for g, (hexes, doubles) in enumerate(GROUPS):
        for i in range(ROWS_PER_GROUP):
            rows.append((g * ROWS_PER_GROUP + i, hexes[i % len(hexes)], doubles[i % len(doubles)]))
    df = spark.createDataFrame(rows, "id BIGINT, hex STRING, fs STRING").selectExpr(
        "id",
        "CAST(unhex(hex) AS STRING) AS s",
        "CAST(fs AS DOUBLE) AS f",
        "id + 1000 AS `a.b`",
        "named_struct('b', id) AS a",
        "timestamp_millis(id) AS ts",
        # What `safe` does hand to Spark: integral, decimal (long and fixed-length storage), date, boolean.
        "CAST(id - 30 AS TINYINT) AS i",
        "CAST(id / 4 AS DECIMAL(20, 2)) AS d",
        "CAST(id / 8 AS DECIMAL(9, 3)) AS e",
        "date_add(DATE'1969-12-25', CAST(id AS INT)) AS dt",
        "id % 3 = 0 AS flag",
    )
    with spark_conf(spark, {"spark.sql.parquet.outputTimestampType": "TIMESTAMP_MILLIS"}):
        for g in range(len(GROUPS)):
            writer = df.where(f"id DIV {ROWS_PER_GROUP} = {g}").coalesce(1).write.mode("append")
            if fmt == "bloomparquet":
                writer.format("bloomparquet").option("bloom.columns", BLOOM).save(str(out))
            else:  # Spark's writer with parquet-java's filters
                for c in ("s", "f", "`a.b`", "a.b"):
                    writer = writer.option(f"parquet.bloom.filter.enabled#{c.strip('`')}", "true")
                writer.parquet(str(out))


@pytest.fixture(scope="module", params=["bloomparquet", "spark"])
def data(request, spark, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp(f"classes-{request.param}") / "t"
    _write(spark, out, request.param)
    return out


def _ids(df) -> list[int]:
    return sorted(r.id for r in df.select("id").collect())


def _bloom(spark, path: Path, route: str, pushdown: str, schema: str | None = None):
    if route == "sql":
        if pushdown == "safe" and schema is None:  # the default, as a user writes it
            return spark.sql(f"SELECT * FROM bloomparquet.`{path}`")
        # A catalog table (a temporary view USING bloomparquet would take the V2 route).
        columns = f"({schema})" if schema else ""
        spark.sql("DROP TABLE IF EXISTS bp_classes")  # external: its files stay
        spark.sql(
            f"CREATE TABLE bp_classes {columns} USING bloomparquet "
            f"OPTIONS ('bloom.sparkPushdown' '{pushdown}') LOCATION '{path}'"
        )
        return spark.table("bp_classes")
    reader = spark.read.format("bloomparquet").option("bloom.mode", route).option("bloom.sparkPushdown", pushdown)
    return (reader.schema(schema) if schema else reader).load(str(path))


def _check(spark, oracle, path: Path, where: str, route: str, pushdown: str, schema: str | None = None) -> list[int]:
    want = sorted(r[0] for r in oracle(path, where, query=lambda df: df.select("id"), schema=schema))
    assert _ids(_bloom(spark, path, route, pushdown, schema).where(where)) == want, (where, route, pushdown)
    return want


def _string(hex_: str) -> str:
    return f"CAST(unhex('{hex_}') AS STRING)"


@st.composite
def _leaf(draw) -> str:
    kind = draw(st.sampled_from(["s", "f", "top", "nested", "ts", "i", "d", "e", "dt", "flag", "null"]))
    op = draw(st.sampled_from(["=", "<=>", "IN", "<", "<=", ">", ">="]))
    if kind == "null":
        return f"{draw(st.sampled_from(['s', 'f', 'ts', 'd', 'a.b']))} IS {draw(st.sampled_from(['', 'NOT ']))}NULL"
    if kind in ("i", "d", "e", "dt", "flag"):
        n = st.integers(-40, 70)
        literal = {
            "i": lambda v: f"CAST({v} AS TINYINT)",
            "d": lambda v: f"CAST('{v / 4}' AS DECIMAL(20, 2))",
            "e": lambda v: f"{v / 8}",
            "dt": lambda v: f"date_add(DATE'1969-12-25', {v})",
            "flag": lambda v: "true" if v % 2 else "false",
        }[kind]
        values = [literal(v) for v in draw(st.lists(n, min_size=1, max_size=3))]
        column = kind
    elif kind == "s":
        values = [_string(h) for h in draw(st.lists(st.sampled_from(STRINGS), min_size=1, max_size=3))]
        column = "s"
    elif kind == "f":
        values = [f"CAST('{v}' AS DOUBLE)" for v in draw(st.lists(st.sampled_from(DOUBLES), min_size=1, max_size=3))]
        column = "f"
    elif kind == "ts":  # stored in milliseconds; literals between two of them
        values = [
            f"TIMESTAMP'1970-01-01 00:00:00.{ms:03d}5'"
            for ms in draw(st.lists(st.integers(0, 62), min_size=1, max_size=3))
        ]
        column = "ts"
    else:  # top-level `a.b` holds id + 1000, field b of struct a holds id
        values = [
            str(v) for v in draw(st.lists(st.sampled_from([0, 5, 25, 59, 1005, 1025, 1059]), min_size=1, max_size=3))
        ]
        column = "`a.b`" if kind == "top" else "a.b"
    if op == "IN":
        return f"{column} IN ({', '.join(values)})"
    return f"{column} {op} {values[0]}"


def _predicate() -> st.SearchStrategy[str]:
    leaf = _leaf()
    pair = st.tuples(leaf, leaf)
    return st.one_of(
        leaf, leaf, pair.map(lambda p: f"({p[0]} OR {p[1]})"), pair.map(lambda p: f"({p[0]} AND NOT {p[1]})")
    )


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(where=_predicate(), route=st.sampled_from(ROUTES), pushdown=st.sampled_from(["safe", "safe", "none"]))
def test_random_predicates_on_risky_classes_match_spark(
    spark, oracle, data: Path, where: str, route: str, pushdown: str
) -> None:
    _check(spark, oracle, data, where, route, pushdown)


@pytest.mark.parametrize("pushdown", ["safe", "none"])
@pytest.mark.parametrize("route", ROUTES)
def test_each_class_hits(spark, oracle, data: Path, route: str, pushdown: str) -> None:
    """The lookups that lost rows before, each with rows to find."""
    for where in [
        f"s = {_string('C328')}",
        f"s IN ({_string('FF')}, 'zz')",
        f"s >= {_string('C328')}",
        f"s = {_string('EFBFBD28')}",
        "f = 0.0",
        "f = -0.0",
        "f = CAST('NaN' AS DOUBLE)",
        "f > 1.0",
        "`a.b` = 1005",
        "a.b = 5",
        "`a.b` < 1003 AND a.b > 0",
        "ts < TIMESTAMP'1970-01-01 00:00:00.0015'",
    ]:
        assert _check(spark, oracle, data, where, route, pushdown), where


@pytest.mark.parametrize("route", ROUTES)
def test_literal_taken_from_the_column(spark, oracle, data: Path, route: str) -> None:
    """The query's value comes from the stored bytes themselves: a subquery, and a literal
    built from the same bytes (which the V1 route receives as a Java String with U+FFFD)."""
    spark.read.parquet(str(data)).where("id = 0").createOrReplaceTempView("bad_utf8")
    for where in ["s IN (SELECT s FROM bad_utf8)", f"s = {_string('C328')} AND id < 10"]:
        assert _check(spark, oracle, data, where, route, "none"), where
        assert _check(spark, oracle, data, where, route, "safe"), where


def test_strings_still_pruned_by_us(spark, data: Path) -> None:
    """Withheld from Spark's pushdown, string filters still prune in ours (bloom filters, statistics)."""
    df = _bloom(spark, data, "plan", "safe").where("s = 'q'")
    assert df.collect() == []  # on df itself: its execution's metrics are read
    m = bp.scan_metrics(df)
    assert m["bloomRowGroupsPrunedByBloom"] + m["bloomRowGroupsPrunedByStats"] + m["bloomFilesPruned"] > 0, m


@pytest.fixture(scope="module")
def binary_as_string(tmp_path_factory) -> Path:
    """pyarrow's binary column (no UTF-8 annotation) with filters, read with a string schema."""
    out = tmp_path_factory.mktemp("binary") / "t"
    out.mkdir()
    for g, values in enumerate([[b"\xc3\x28"], [b"\xff", b"ab"], [b"zz"]]):
        ids = list(range(g * 10, g * 10 + 10))
        table = pa.table(
            {"id": pa.array(ids, pa.int64()), "s": pa.array([values[i % len(values)] for i in ids], pa.binary())}
        )
        pq.write_table(table, out / f"part-{g}.parquet", bloom_filter_options={"s": {"ndv": 10, "fpp": 0.01}})
    return out


@pytest.mark.parametrize("pushdown", ["safe", "none", "all"])
@pytest.mark.parametrize("route", ROUTES)
def test_binary_read_as_string_matches_spark(spark, oracle, binary_as_string: Path, route: str, pushdown: str) -> None:
    schema = "id BIGINT, s STRING"
    for where in [f"s = {_string('C328')}", f"s IN ({_string('FF')}, 'q')", "s = 'ab'", "s > 'a'", "s = 'q'"]:
        _check(spark, oracle, binary_as_string, where, route, pushdown, schema)
