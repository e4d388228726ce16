"""Differential: plan-time pruning by dictionaries, on chunks without bloom filters whose data pages
are all dictionary-encoded, judged with Spark's equality on the classes Spark's own pushdown has
lost rows on (strings whose bytes are not UTF-8, -0.0 next to 0.0, NaN bit patterns, millisecond
timestamps against sub-millisecond literals) and the ordinary ones (ints, decimals, dates), on
every route, against Spark's ``parquet`` with pushdown off. Files from pyarrow, Spark and DuckDB;
one pyarrow file and one Spark file fall back from their dictionary to plain pages part-way
through a chunk, where a value missing from the dictionary still has rows. The differential tests
also run with executors in JVMs of their own (the ``task`` route judges dictionaries there)."""

from __future__ import annotations

import struct
from decimal import Decimal
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bloomparquet as bp

from .decoded import decoded
from .routes import bloom_routes
from .spark_conf import PUSHDOWN_OFF, rows, spark_conf

pytestmark = [pytest.mark.spark, pytest.mark.long]

GROUPS, ROWS_PER_GROUP = 6, 2_048  # DuckDB rounds row groups to 2,048 rows
# Value pools; row group g holds the values whose index i has (i + g) % 3 != 0: each value is
# missing from a third of the row groups while statistics (min, max over the pool) keep them all.
STRINGS = ["C328", "FF", "FE", "EFBFBD28", "6162", "C3A9", "7A7A", "00", "6162FF"]  # hex bytes
DOUBLES = [0.0, -0.0, 1.5, -1.0, 2.5, 1e300]
NAN_BITS = [0x7FF8000000000000, 0x7FF0000000000001]  # the canonical NaN and another
MILLIS = [0, 1, 7, 250, 999, 1000]
INTS = [-5, 0, 3, 17, 99, 1000]
ABSENT_STRINGS = ["71", "6163", "C3", "FE01"]  # in no row group, between the chunks' min and max
FALLBACK_ONLY = "zz-after-the-dictionary"  # in the plain pages of the fallback chunks alone


def _holds(g: int, i: int) -> bool:
    return (i + g) % 3 != 0


def _pick(pool: list, g: int, r: int):
    held = [v for i, v in enumerate(pool) if _holds(g, i)]
    return held[(r * 7 + g) % len(held)]


def _nan(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def _group(g: int) -> pa.Table:
    ids = range(g * ROWS_PER_GROUP, (g + 1) * ROWS_PER_GROUP)
    strings = [bytes.fromhex(_pick(STRINGS, g, r)) for r in range(ROWS_PER_GROUP)]
    doubles = [_pick(DOUBLES, g, r) if r % 5 else _nan(NAN_BITS[g % 2]) for r in range(ROWS_PER_GROUP)]
    return pa.table(
        {
            "id": pa.array(list(ids), pa.int64()),
            # Bytes that are not UTF-8 in a string column: a view, as a binary column read as string.
            "s": pa.array(strings, pa.binary()).view(pa.string()),
            "f": pa.array(doubles, pa.float64()),
            "ts": pa.array([_pick(MILLIS, g, r) for r in range(ROWS_PER_GROUP)], pa.timestamp("ms", tz="UTC")),
            "i": pa.array([_pick(INTS, g, r) for r in range(ROWS_PER_GROUP)], pa.int32()),
            "d": pa.array(
                [Decimal(_pick(INTS, g, r) * 25).scaleb(-2) for r in range(ROWS_PER_GROUP)], pa.decimal128(12, 2)
            ),
            "dt": pa.array([_pick(INTS, g, r) for r in range(ROWS_PER_GROUP)], pa.int32()).cast(pa.date32()),
        }
    )


def _fallback_strings() -> pa.Table:
    """A string chunk whose dictionary fills up: later pages are plain and hold ``FALLBACK_ONLY``."""
    n = 4_000
    values = [f"v{r:05d}-{'x' * 40}" for r in range(n - 10)] + [FALLBACK_ONLY] * 10
    return pa.table({"id": pa.array(range(10_000, 10_000 + n), pa.int64()), "s": pa.array(values, pa.string())})


def _write_pyarrow(out: Path) -> None:
    """``out/groups``: one file of ``GROUPS`` row groups; ``out/fallback``: the fallback chunk."""
    for sub in ("groups", "fallback"):
        (out / sub).mkdir(parents=True)
    table = pa.concat_tables([_group(g) for g in range(GROUPS)])
    pq.write_table(table, out / "groups" / "part-0.parquet", row_group_size=ROWS_PER_GROUP)
    pq.write_table(
        _fallback_strings(), out / "fallback" / "part-0.parquet", dictionary_pagesize_limit=4_096, data_page_size=2_048
    )


def _write_spark(spark, out: Path) -> None:
    source = out.parent / "source"
    _write_pyarrow(source)
    with spark_conf(spark, {"spark.sql.parquet.outputTimestampType": "TIMESTAMP_MILLIS"}):
        df = spark.read.parquet(str(source / "groups"))
        for g in range(GROUPS):  # one file per row group: Spark's writer keeps the group's values together
            df.where(f"id DIV {ROWS_PER_GROUP} = {g}").coalesce(1).write.mode("append").parquet(str(out / "groups"))
        spark.read.parquet(str(source / "fallback")).coalesce(1).write.option(
            "parquet.dictionary.page.size", "4096"
        ).option("parquet.page.size", "2048").parquet(str(out / "fallback"))


def _write_duckdb(out: Path) -> None:
    """DuckDB's writer, from the same rows; DuckDB refuses strings that are not UTF-8: ``s`` holds their hex."""
    (out / "groups").mkdir(parents=True)
    table = pa.concat_tables([_group(g) for g in range(GROUPS)])
    table = table.set_column(1, "s", pa.array([v.hex().upper() for v in table["s"].cast(pa.binary()).to_pylist()]))
    con = duckdb.connect()
    con.register("source", table)
    con.execute(
        f"COPY (SELECT * FROM source ORDER BY id) "
        f"TO '{out / 'groups' / 'part-0.parquet'}' (FORMAT PARQUET, ROW_GROUP_SIZE {ROWS_PER_GROUP})"
    )


@pytest.fixture(scope="module", params=["pyarrow", "spark", "duckdb"])
def corpus(request, spark, tmp_path_factory) -> tuple[str, Path]:
    out = tmp_path_factory.mktemp(f"dictionaries-{request.param}") / "t"
    {"pyarrow": _write_pyarrow, "spark": lambda o: _write_spark(spark, o), "duckdb": _write_duckdb}[request.param](out)
    return request.param, out


def _string(hex_: str) -> str:
    return f"CAST(unhex('{hex_}') AS STRING)"


def _double(v: float) -> str:
    return f"CAST('{v!r}' AS DOUBLE)"


@st.composite
def _leaf(draw) -> str:
    kind = draw(st.sampled_from(["s", "f", "ts", "i", "d", "dt"]))
    op = draw(st.sampled_from(["=", "<=>", "IN", "IN", "NOT IN", "<"]))
    pools = {
        "s": [_string(h) for h in STRINGS + ABSENT_STRINGS] + [f"'{FALLBACK_ONLY}'"],
        "f": [_double(v) for v in [*DOUBLES, 3.0, float("nan")]],
        # Stored in milliseconds: a literal with microseconds matches nothing.
        "ts": [
            f"TIMESTAMP'1970-01-01 00:00:0{ms // 1000}.{ms % 1000:03d}{us}+00:00'"
            for ms in MILLIS + [5]
            for us in ("", "5")
        ],
        "i": [str(v) for v in [*INTS, 4]],
        "d": [f"CAST({v * 0.25} AS DECIMAL(12, 2))" for v in [*INTS, 4]],
        "dt": [f"date_add(DATE'1970-01-01', {v})" for v in [*INTS, 4]],
    }
    values = draw(st.lists(st.sampled_from(pools[kind]), min_size=1, max_size=4))
    if op.endswith("IN"):
        return f"{kind} {op} ({', '.join(values)})"
    return f"{kind} {op} {values[0]}"


def _predicate() -> st.SearchStrategy[str]:
    leaf = _leaf()
    pair = st.tuples(leaf, leaf)
    return st.one_of(leaf, leaf, pair.map(lambda p: f"({p[0]} OR {p[1]})"), pair.map(lambda p: f"({p[0]} AND {p[1]})"))


ROUTES = ["plan", "task", "sql", "sql_v1", "view", "parquet_opt_in"]


@pytest.fixture(scope="module")
def routes(spark, corpus):
    """(corpus name, oracle, routes) over the corpus's groups, made once for its examples."""
    name, path = corpus
    with bloom_routes(spark, path / "groups", f"dict_{name}") as (oracle, each):
        yield name, oracle, each


@pytest.mark.cluster
@settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(where=_predicate(), route=st.sampled_from(ROUTES))
def test_random_predicates_match_spark(spark, routes, where: str, route: str) -> None:
    name, oracle, each = routes
    with spark_conf(spark, PUSHDOWN_OFF):
        want = _ids(oracle.where(where))
    df, confs = each[route]
    with spark_conf(spark, confs):
        assert _ids(df.where(where)) == want, (name, route, where)


def _ids(df) -> list[tuple]:
    """The rows' ids: NaN is not equal to itself, so whole rows holding one never compare equal."""
    return rows(df.select("id"))


def _metrics(spark, path: Path, where: str, **options: str) -> tuple[list, int, dict]:
    df = bp.read_bloom(spark, str(path), **options).where(where).select("id")
    got, decoded_rows = decoded(df)
    return got, decoded_rows, bp.scan_metrics(df)


@pytest.mark.parametrize(
    "where",
    [
        f"s = {_string('6163')}",  # absent, valid UTF-8
        f"s = {_string('FE01')}",  # absent, not UTF-8: withheld from Spark's reader, judged here
        f"s IN ({_string('C3')}, {_string('71')})",
        "i = 4",
        "d = 1.00",
        "dt = DATE'1970-01-05'",
        "ts = TIMESTAMP'1970-01-01 00:00:00.0075+00:00'",  # sub-millisecond: no stored value
        "f = 3.0",
    ],
)
def test_absent_values_get_no_task(spark, oracle, corpus, where: str) -> None:
    """A value in no dictionary prunes every row group of the groups file before any task starts."""
    name, path = corpus
    got, decoded_rows, m = _metrics(spark, path / "groups", where)
    assert got == oracle(path / "groups", where, query=lambda df: df.select("id")) == []
    # DuckDB writes bloom filters on dictionary-encoded chunks: theirs prune there.
    pruned = m["bloomRowGroupsPrunedByDictionary"] + (m["bloomRowGroupsPrunedByBloom"] if name == "duckdb" else 0)
    assert decoded_rows == 0 and m["tasks"] == 0 and pruned + m["bloomRowGroupsPrunedByStats"] == GROUPS, (name, m)
    # A sub-millisecond literal has no stored value: statistics prune. DuckDB's s holds hex text: so do they.
    assert pruned > 0 or "ts" in where or (name == "duckdb" and where.startswith("s ")), (name, m)


@pytest.mark.parametrize(
    "where,groups",
    [
        (f"s = {_string('C328')}", [g for g in range(GROUPS) if _holds(g, 0)]),
        (f"s = {_string('FF')}", [g for g in range(GROUPS) if _holds(g, 1)]),
        ("f = 0.0", [g for g in range(GROUPS) if _holds(g, 0) or _holds(g, 1)]),  # -0.0 = 0.0 in Spark
        ("f = -0.0", [g for g in range(GROUPS) if _holds(g, 0) or _holds(g, 1)]),
        ("f = CAST('NaN' AS DOUBLE)", list(range(GROUPS))),  # not judged: NaN bit patterns vary
        ("ts = TIMESTAMP'1970-01-01 00:00:00.007+00:00'", [g for g in range(GROUPS) if _holds(g, 2)]),
        ("i = 17", [g for g in range(GROUPS) if _holds(g, 3)]),
    ],
)
def test_present_values_keep_their_row_groups(spark, oracle, corpus, where: str, groups: list[int]) -> None:
    """The row groups kept are exactly those holding a value Spark's equality matches."""
    name, path = corpus
    if name == "duckdb" and where.startswith("s "):
        pytest.skip("DuckDB's s holds hex text")
    got, _, m = _metrics(spark, path / "groups", where)
    assert got == oracle(path / "groups", where, query=lambda df: df.select("id")) and got, where
    kept = m["bloomRowGroupsTotal"] - m["bloomRowGroupsPrunedByDictionary"] - m["bloomRowGroupsPrunedByStats"]
    kept -= m["bloomRowGroupsPrunedByBloom"]  # DuckDB's filters, at their false-positive rate
    assert kept == len(groups), (name, where, m)


@pytest.mark.cluster
def test_fallback_to_plain_pages_is_never_judged_by_its_dictionary(spark, oracle, corpus) -> None:
    """A chunk whose dictionary filled up holds values only its plain pages have: no dictionary prunes it."""
    name, path = corpus
    if name == "duckdb":
        pytest.skip("the DuckDB corpus has no fallback file")
    for where in [f"s = '{FALLBACK_ONLY}'", f"s IN ('{FALLBACK_ONLY}', 'v00001')"]:
        got, decoded_rows, m = _metrics(spark, path / "fallback", where)
        assert got == oracle(path / "fallback", where, query=lambda df: df.select("id")) and len(got) >= 10, m
        assert decoded_rows > 0 and m.get("bloomRowGroupsPrunedByDictionary", 0) == 0, m


def test_switched_off(spark, corpus) -> None:
    """``bloom.dictionaries=false`` reads no dictionary and prunes by none."""
    _, path = corpus
    _, _, m = _metrics(spark, path / "groups", f"s = {_string('6163')}", **{"bloom.dictionaries": "false"})
    assert m.get("bloomRowGroupsPrunedByDictionary", 0) == 0 and m.get("bloomDictionaryBytesRead", 0) == 0, m
