"""Differential over a generated corpus of real-world file classes (tests/corpus, after
apache/parquet-testing): wrong column indexes, checksummed v1/v2 pages, DELTA, BYTE_STREAM_SPLIT
and dictionary-fallback encodings, nulls-only chunks, legacy and 2-level lists, INT96, decimals
in every physical type, files from pyarrow, DuckDB, Spark and raw parquet-java. For every class,
point hits and misses, IN lists and null-safe equality on the bloom-filtered columns and on the
class's odd columns, through every route, return exactly the rows of Spark's ``parquet`` with
filter pushdown off; a miss on the filtered keys prunes row groups by bloom filter; the wrong
column indexes are wrong as intended; and the classes Spark cannot read fail through bloomparquet
with Spark's own error."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyspark.sql import DataFrame

import bloomparquet as bp

from .corpus import BY_NAME, CLASSES, KEY_PREDICATES, FileClass, write_all, write_class
from .corpus.rows import K_MISS, ROWS, S_MISS, key
from .jvm_errors import root_cause
from .result_table import publish
from .routes import Routes, bloom_routes
from .spark_conf import PUSHDOWN_OFF, spark_conf

pytestmark = pytest.mark.spark

# The routes a user reaches bloomparquet by: DataFrame (plan, task), SQL on the path, a catalog
# table, a view over it, and plain parquet opted in.
ROUTES = ["plan", "task", "sql", "table", "view", "parquet_opt_in"]
READABLE = [c for c in CLASSES if c.spark_reads]
# The classes whose metadata the reading task judges also run with executors in JVMs of their own.
READABLE_PARAMS = [
    pytest.param(c, id=c.name, marks=[pytest.mark.cluster] if c.judged_in_task else []) for c in READABLE
]
_results: dict[tuple[str, str], str] = {}


class _Classes:
    """Per class: its files (written on first use, so a selection of tests writes only its
    classes), the oracle and routes (catalog tables made on first use, dropped at the end), and
    the oracle's rows per predicate (asked once, whatever the route)."""

    def __init__(self, spark, root: Path) -> None:
        self.spark, self.root = spark, root
        self._paths: dict[str, Path] = {}
        self._open: dict[str, tuple[DataFrame, Routes]] = {}
        self.tables = ExitStack()  # drops the catalog tables of every class opened
        self._want: dict[tuple[str, str], list[str]] = {}

    def path(self, name: str) -> Path:
        if name not in self._paths:
            self._paths[name] = write_class(BY_NAME[name], self.root, self.spark)
        return self._paths[name]

    def routes(self, name: str) -> tuple[DataFrame, Routes]:
        if name not in self._open:
            self._open[name] = self.tables.enter_context(bloom_routes(self.spark, self.path(name), f"fc_{name}"))
        return self._open[name]

    def want(self, name: str, predicate: str) -> list[str]:
        if (name, predicate) not in self._want:
            oracle, _ = self.routes(name)
            with spark_conf(self.spark, PUSHDOWN_OFF):
                self._want[(name, predicate)] = _rows(oracle.where(predicate))
        return self._want[(name, predicate)]


@pytest.fixture(scope="module")
def classes(spark, tmp_path_factory) -> Iterator[_Classes]:
    c = _Classes(spark, tmp_path_factory.mktemp("file-classes"))
    with c.tables:
        yield c


def _rows(df: DataFrame) -> list[str]:
    # Every column, as text: lists, structs, decimals and nulls compare exactly and sort.
    return sorted(repr(tuple(r)) for r in df.collect())


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("fc", READABLE_PARAMS)
def test_file_class_matches_spark(spark, classes: _Classes, fc: FileClass, route: str) -> None:
    _, routes = classes.routes(fc.name)
    source, conf = routes[route]
    wrong = []
    for predicate in [*KEY_PREDICATES, *fc.predicates]:
        want = classes.want(fc.name, predicate)
        with spark_conf(spark, conf):
            got = _rows(source.where(predicate))
        if got != want:
            wrong.append(f"{predicate}: {len(got)} rows, Spark {len(want)}")
    _results[(fc.name, route)] = "ok" if not wrong else f"WRONG {len(wrong)}"
    assert not wrong, wrong


@pytest.mark.parametrize("fc", READABLE_PARAMS)
def test_every_route_reads_the_schema_spark_infers(classes: _Classes, fc: FileClass) -> None:
    """Spark's files carry their schema, read from the first footer on the driver; the others'
    Parquet types Spark converts in its schema job: either way, the schema of Spark's ``parquet``."""
    oracle, routes = classes.routes(fc.name)
    wrong = {route: source.schema for route, (source, _) in routes.items() if source.schema != oracle.schema}
    assert not wrong, (oracle.schema, wrong)


@st.composite
def _leaf(draw) -> str:
    """=, <=> or IN on k or s, each value a key (hit) or a key plus 1 or 2 (miss, inside the min/max)."""
    column = draw(st.sampled_from(["k", "s"]))
    values = [
        key(draw(st.integers(0, ROWS - 1))) + draw(st.sampled_from([0, 0, 1, 2]))
        for _ in range(draw(st.integers(1, 5)))
    ]
    literals = [str(v) if column == "k" else f"'s-{v:06d}'" for v in values]
    op = draw(st.sampled_from(["=", "<=>", "IN"]))
    return f"{column} IN ({', '.join(literals)})" if op == "IN" else f"{column} {op} {literals[0]}"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fc=st.sampled_from(READABLE), route=st.sampled_from(ROUTES), leaves=st.lists(_leaf(), min_size=1, max_size=2))
def test_random_keys_match_spark(spark, classes: _Classes, fc: FileClass, route: str, leaves: list[str]) -> None:
    predicate = " OR ".join(f"({leaf})" for leaf in leaves)
    source, conf = classes.routes(fc.name)[1][route]
    with spark_conf(spark, conf):
        got = _rows(source.where(predicate))
    assert got == classes.want(fc.name, predicate), (fc.name, route, predicate)


@pytest.mark.parametrize("fc", READABLE_PARAMS)
def test_hits_are_found_and_misses_pruned_by_bloom(spark, classes: _Classes, fc: FileClass) -> None:
    """Not vacuous: the key's hit row exists in every class, and its misses (within some row
    group's min/max) prune every row group, some by bloom filter."""
    assert classes.want(fc.name, KEY_PREDICATES[0]) and classes.want(fc.name, KEY_PREDICATES[5])
    _, routes = classes.routes(fc.name)
    by_bloom = 0
    for predicate in (f"k = {K_MISS}", f"s = '{S_MISS}'"):
        miss = routes["plan"][0].where(predicate)
        assert miss.collect() == []
        m = bp.scan_metrics(miss)
        pruned = m["bloomRowGroupsPrunedByBloom"] + m["bloomRowGroupsPrunedByStats"]
        assert pruned == m["bloomRowGroupsTotal"] > 0, (predicate, m)
        by_bloom += m["bloomRowGroupsPrunedByBloom"]
    assert by_bloom > 0


@pytest.mark.cluster
def test_wrong_column_indexes_are_what_they_claim(spark, classes: _Classes) -> None:
    """The rewritten indexes, read back by parquet-java (an independent decoder), are wrong as
    intended, while the chunk statistics still count the values: all pages null, or bounds above
    every value."""
    import pyarrow.parquet as pq

    jvm = spark._jvm
    conf = spark._jsc.hadoopConfiguration()
    for name, check in (("column_index_all_null_pages", "null"), ("column_index_bounds_exclude_values", "bounds")):
        path = classes.path(name) / "part-0.parquet"
        meta = pq.ParquetFile(path).metadata
        reader = jvm.org.apache.parquet.hadoop.ParquetFileReader.open(
            jvm.org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(jvm.org.apache.hadoop.fs.Path(str(path)), conf)
        )
        try:
            for rg, block in enumerate(reader.getRowGroups()):
                for chunk in block.getColumns():
                    column = chunk.getPath().toDotString()
                    if column not in ("k", "s"):
                        continue
                    index = reader.readColumnIndex(chunk)
                    stats = meta.row_group(rg).column(["id", "k", "s"].index(column)).statistics
                    assert stats.num_values > 0 and stats.min is not None, (name, rg, column)
                    pages = list(index.getNullPages())
                    assert len(pages) > 1, (name, rg, column)
                    if check == "null":
                        assert all(pages), (name, rg, column)
                    else:
                        assert not any(pages)
                        low = bytes(
                            jvm.org.apache.parquet.io.api.Binary.fromConstantByteBuffer(
                                index.getMinValues()[0]
                            ).getBytes()
                        )
                        assert low in (struct.pack("<q", 2**62), b"~" * len(low)), (name, rg, column, low)
        finally:
            reader.close()


UNREADABLE = [c for c in CLASSES if not c.spark_reads]


@pytest.mark.parametrize("fc", UNREADABLE, ids=lambda c: c.name)
def test_what_spark_cannot_read_bloomparquet_refuses_too(spark, classes: _Classes, fc: FileClass) -> None:
    """A class Spark's reader refuses (a type it has no mapping for) fails through every route
    with Spark's own error: no rows made up, no crash of another kind."""
    path = str(classes.path(fc.name))
    with pytest.raises(Exception) as spark_error:  # noqa: PT011 - whichever Spark raises, compared below
        spark.read.parquet(path).collect()
    reads = {
        "plan": lambda: bp.read_bloom(spark, path).where("k = 3"),
        "sql": lambda: spark.sql(f"SELECT * FROM bloomparquet.`{path}` WHERE k = 3"),
    }
    for route, read in reads.items():
        with pytest.raises(Exception) as ours:  # noqa: PT011
            read().collect()
        assert type(ours.value) is type(spark_error.value), route
        assert root_cause(ours.value) == root_cause(spark_error.value), route


def test_write_all_without_spark_gives_filtered_files(tmp_path: Path) -> None:
    """The corpus other suites (the CLI's) take: without a SparkSession, every pyarrow and DuckDB
    class, each file with bloom filters on k and s in every row group."""
    import pyarrow.parquet as pq

    from bloomparquet.reference import read_bloom_filters

    written = write_all(tmp_path)
    assert set(written) == {c.name for c in CLASSES if not c.needs_spark}
    for name, directory in written.items():
        files = sorted(directory.glob("*.parquet"))
        assert files, name
        for f in files:
            filters = read_bloom_filters(f)
            groups = pq.ParquetFile(f).metadata.num_row_groups
            assert {(rg, c) for rg in range(groups) for c in ("k", "s")} <= set(filters), (name, f.name)


def test_publish_results() -> None:
    if not _results:
        pytest.skip("run with the differential tests")
    names = sorted({n for n, _ in _results})
    publish("file_classes", ["class", *ROUTES], [[n, *(_results.get((n, r), "-") for r in ROUTES)] for n in names])
