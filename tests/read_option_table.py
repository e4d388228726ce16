"""Test helper: every read option of the registry x every route a query reaches bloomparquet by.

``TABLE[key][route]`` says what a read option given at a non-default value does on a route:
``EFFECT`` (checked by the option's observation below) or ``Inert("why")``, a route where the
option by design changes nothing observable (then the rows must still be Spark's and the scan
must read as many rows as at the default). On every cell a bad value fails the query with an
error naming the option. The keys come from the generated registry mirror
(``python/bloomparquet/_options.json``, ``bin/gen-options``), so a new read option (or deprecated
key) without a row here fails the tests (tests/test_read_option_routes.py, tests/connect)."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

import bloomparquet

from .spark_conf import PUSHDOWN_OFF, spark_conf

OPTIONS_JSON = Path(bloomparquet.__file__).with_name("_options.json")
SESSION_READ = "spark.bloomparquet.read."  # + a read option's key without "bloom.": the session's default of it

# The data (``write_data``): FILES files of ROWS_PER_FILE rows in 9 row groups each. ``k`` carries bloom
# filters and is shuffled (statistics can't prune it), its keys even (odd ones are absent); ``d`` (even ints
# 0..20) and ``s`` ('a', 'c', 'e') are dictionary-encoded without filters: only parquet-java's dictionary
# filtering inside Spark's reader skips their row groups, and only for what ``bloom.sparkPushdown`` passes it.
FILES, ROWS_PER_FILE = 4, 4000
ROWS = FILES * ROWS_PER_FILE
MISS = "k = 1000000003"  # odd: absent, inside every chunk's min/max; a value no filter of this data lets through
# 1,000 absent keys: filters at 1 % keep every row group (each with chance 1 - 0.99^1000), so reading
# them cannot pay off (bloom.earlyStop).
BIG_IN = "k IN ({})".format(", ".join(str(2 * i + 1) for i in range(5 * 10**8, 5 * 10**8 + 1000)))


def write_data(spark, out: Path) -> Path:
    from pyspark.sql import functions as F

    (
        spark.range(ROWS)
        .repartition(FILES, "id")
        .select(
            (F.col("id") * 2654435761 % 1_000_000_007 * 2).alias("k"),
            (F.col("id") % 11 * 2).cast("int").alias("d"),
            F.element_at(F.array(F.lit("a"), F.lit("c"), F.lit("e")), (F.col("id") % 3 + 1).cast("int")).alias("s"),
        )
        .write.format("bloomparquet")
        .option("parquet.block.size", 8 * 1024)
        .option("bloom.columns", "k")
        .save(str(out))
    )
    assert len(list(out.glob("*.parquet"))) == FILES
    return out


def registry_read_keys() -> list[str]:
    """Every read option's key and every deprecated key of one, from the registry's generated mirror."""
    options = json.loads(OPTIONS_JSON.read_text())["options"]
    read = [o for o in options if "read" in o["scopes"]]
    return [o["key"] for o in read] + registry_deprecated_read_keys()


def registry_deprecated_read_keys() -> list[str]:
    """The deprecated keys of read options: they keep working as read options, and have no session form."""
    options = json.loads(OPTIONS_JSON.read_text())["options"]
    return [d["key"] for o in options if "read" in o["scopes"] for d in o["deprecatedKeys"]]


EFFECT = "effect"


@dataclass(frozen=True)
class Inert:
    why: str


@dataclass
class Route:
    """One way to query: ``frame(spark, path, options, where)`` builds the DataFrame, run under session
    ``confs``. What the table expects of it goes by its name: ``*_v1`` is Spark's V1 file scan, a name
    holding ``task`` prunes in tasks, ``connect_*`` runs over Spark Connect."""

    frame: Callable
    confs: dict[str, str]
    session: bool = (
        False  # the options are given as the session's defaults (spark.bloomparquet.read.*), not to the read
    )

    def given_key(self, key: str) -> str:
        """The name ``key`` is given under on this route."""
        return SESSION_READ + key.removeprefix("bloom.") if self.session else key

    def given(self, options: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
        """(the read's options, session confs) giving ``options`` on this route."""
        return ({}, {self.given_key(k): v for k, v in options.items()}) if self.session else (options, {})


@dataclass
class Cell:
    """One (option, route) of the table: runs queries over ``path`` (a ``slow:`` copy where asked)."""

    spark: object
    route: Route
    path: Path
    metrics: Callable  # DataFrame (after an action) -> dict of scan metrics
    copy: Callable  # () -> a fresh copy of the data (files no cache has seen)
    slow: object = None  # the test jar's SlowFileSystem (classic only), or None
    held: Callable | None = None  # () -> files in the driver JVM's footer and filter cache (classic, local only)

    def run(
        self, options: dict[str, str], where: str, confs: dict[str, str] | None = None, path: str | None = None
    ) -> tuple[list, dict[str, int]]:
        read_options, session = self.route.given(options)
        with spark_conf(self.spark, {**self.route.confs, **session, **(confs or {})}):
            df = self.route.frame(self.spark, path or str(self.path), read_options, where)
            rows = sorted(map(tuple, df.collect()))
            return rows, self.metrics(df)

    def oracle(self, where: str, path: str | None = None) -> list:
        with spark_conf(self.spark, PUSHDOWN_OFF):
            return sorted(map(tuple, self.spark.read.parquet(path or str(self.path)).where(where).collect()))


# --- each option's observation, where it has an effect ---


def _enabled(cell: Cell) -> None:
    # Spark's own pushdown off: parquet-java's filters would skip the same row groups.
    assert cell.run({}, MISS, PUSHDOWN_OFF)[1]["numOutputRows"] == 0
    rows, m = cell.run({"bloom.enabled": "false"}, MISS, PUSHDOWN_OFF)
    assert rows == [] and m["numOutputRows"] == ROWS, m


def _mode(cell: Cell) -> None:
    _, plan = cell.run({"bloom.mode": "plan"}, MISS, PUSHDOWN_OFF)
    assert plan["tasks"] == 0, plan  # pruned while planning: no task at all
    _, task = cell.run({"bloom.mode": "task"}, MISS, PUSHDOWN_OFF)
    assert task["tasks"] > 0 and task["numOutputRows"] == 0, task  # tasks start, then prune everything
    assert task["bloomFilesJudgedInTasks"] == FILES and plan["bloomFilesJudgedInTasks"] == 0, (task, plan)
    assert (
        task["bloomRowGroupsPrunedByBloom"] + task["bloomRowGroupsPrunedByStats"] == task["bloomRowGroupsTotal"] > 0
    ), task


def _cache_of(option: str, off: str, on: str) -> Callable[[Cell], None]:
    def check(cell: Cell) -> None:
        if cell.held is not None:  # the JVM's own cache: tasks of local[n] share it with the driver
            for value, grows in ((off, 0), (on, FILES)):
                fresh = str(cell.copy())
                before = cell.held()
                cell.run({option: value}, MISS, PUSHDOWN_OFF, path=fresh)
                assert cell.held() - before == grows, (option, value)
            return
        # Over Connect, from the metrics: a second run reads no footer from a cache it may use.
        for value, footers in ((off, FILES), (on, 0)):
            cell.run({option: value}, MISS, PUSHDOWN_OFF)
            _, m = cell.run({option: value}, MISS, PUSHDOWN_OFF)
            assert m["bloomFootersRead"] == footers, (option, value, m)

    return check


GET_MS = 250


def _planning_parallelism(cell: Cell) -> None:
    """With every GET taking GET_MS (the footer's tail read is one; an open with the listed status is none, as
    on S3A), one file at a time plans in at least FILES GETs; FILES at once in far less."""
    cell.slow.setLatencyMs(GET_MS, 0)
    try:
        path = f"slow://{cell.path}"
        times = {}
        for n in (1, FILES):
            rows, m = cell.run(
                {"bloom.planningParallelism": str(n), "bloom.cache": "false"}, MISS, PUSHDOWN_OFF, path=path
            )
            assert rows == [] and m["numOutputRows"] == 0, m
            times[n] = m["bloomPruningTimeMs"]
    finally:
        cell.slow.setLatencyMs(0, 0)
    assert times[1] >= FILES * GET_MS, times
    assert times[FILES] < (FILES - 1) * GET_MS, times


def _early_stop(cell: Cell) -> None:
    # Every file in one split's reach: in task mode one task prunes all of them (the gate needs a
    # file or two of evidence before it stops, so the files after those are the ones spared).
    packed = {"spark.sql.files.openCostInBytes": "0", "spark.sql.files.minPartitionNum": "1"}
    unprobed = {}
    for value in ("true", "false"):
        rows, m = cell.run({"bloom.earlyStop": value, "bloom.cache": "false"}, BIG_IN, packed)
        assert rows == [], m
        assert m["bloomRowGroupsPrunedByBloom"] == 0, m  # nothing could be pruned
        unprobed[value] = m["bloomRowGroupsUnprobed"]
    assert unprobed["true"] > 0 and unprobed["false"] == 0, unprobed


def _spark_pushdown(cell: Cell) -> None:
    def read(value: str, where: str) -> int:
        # Dictionaries off: they would skip these row groups at planning whatever Spark's reader is given.
        rows, m = cell.run({"bloom.sparkPushdown": value, "bloom.dictionaries": "false"}, where)
        assert rows == [], m
        return m["numOutputRows"]

    # Integers and strings that were UTF-8 reach parquet-java unless none; a string literal whose
    # bytes are not UTF-8 only with all (safe withholds it).
    assert (read("safe", "d = 7"), read("none", "d = 7")) == (0, ROWS)
    assert (read("safe", "s = 'b'"), read("none", "s = 'b'")) == (0, ROWS)
    not_utf8 = "s = CAST(unhex('62FF') AS STRING)"  # 'b' then a byte no UTF-8 holds: inside the chunks' min and max
    assert (read("safe", not_utf8), read("all", not_utf8)) == (ROWS, 0)


def _dictionaries(cell: Cell) -> None:
    # With Spark's pushdown off its reader skips nothing by dictionary: only ours can, before the tasks.
    # (A literal whose bytes are not UTF-8 reaches the V1 route as a Java String: tests/test_dictionary_pruning.py.)
    for where in ("s = 'b'", "d IN (7, 9)"):
        decoded = {}
        for value in ("true", "false"):
            rows, m = cell.run({"bloom.dictionaries": value}, where, PUSHDOWN_OFF)
            assert rows == [], m
            decoded[value] = m["numOutputRows"]
        assert decoded == {"true": 0, "false": ROWS}, (where, decoded)


def _filter_reads(cell: Cell) -> None:
    # The same decisions from whole filters and from the blocks the probed value hashes to.
    seen = {}
    for value in ("whole", "blocks"):
        rows, m = cell.run({"bloom.filterReads": value, "bloom.cache": "false"}, MISS, PUSHDOWN_OFF)
        assert rows == [] and m["numOutputRows"] == 0, m
        seen[value] = (m["bloomFiltersReadInBlocks"], m["bloomRowGroupsPrunedByBloom"], m["bloomFilterBytesRead"])
    assert seen["whole"][0] == 0 and seen["blocks"][0] > 0, seen
    assert seen["whole"][1] == seen["blocks"][1] > 0, seen
    assert seen["blocks"][2] < seen["whole"][2], seen


def _digest(cell: Cell) -> None:
    # A fresh copy given a digest of its filters (folded to no more than their own rate: the same
    # decisions as the files'): every file is ruled out by it, none of their footers is read; off, each is.
    fresh = str(cell.copy())
    bloomparquet.build_digest(cell.spark, fresh, "k", fpp=1e-6)
    seen = {}
    for value in ("true", "false"):
        rows, m = cell.run({"bloom.digest": value, "bloom.cache": "false"}, MISS, PUSHDOWN_OFF, path=fresh)
        assert rows == [] and m["numOutputRows"] == 0, m
        seen[value] = (m["bloomFootersRead"], m["bloomDigestEntries"] > 0, m["bloomFilesPruned"])
    assert seen == {"true": (0, True, FILES), "false": (FILES, False, FILES)}, seen


def _digest_survivors(cell: Cell) -> None:
    # A fresh copy given a digest; a present key, whose file the digest keeps. Left to its task, that file is
    # judged there and planning reads no byte of any data file (the digest alone; classic, where the test
    # jar's slow file system counts reads); judged on the driver, planning reads its footer.
    fresh = cell.copy()
    bloomparquet.build_digest(cell.spark, str(fresh), "k", fpp=1e-6)
    hit = f"k = {5 * 2654435761 % 1_000_000_007 * 2}"  # row 5's key (write_data)
    planning_gets, judged_in_tasks = {}, {}
    for value in ("task", "plan"):
        options = {"bloom.digestSurvivors": value, "bloom.cache": "false"}
        if cell.slow is not None:
            read_options, session = cell.route.given(options)
            with spark_conf(cell.spark, {**cell.route.confs, **session}):
                df = cell.route.frame(cell.spark, f"slow://{fresh}", read_options, hit)
                df._jdf.queryExecution().executedPlan()  # the scan's runtime-filter columns read two footers
                cell.slow.reset()
                df._jdf.queryExecution().toRdd().getNumPartitions()  # the scan's splits made: planning alone
                planning_gets[value] = sum(int(cell.slow.of(str(f))[1]) for f in fresh.glob("*.parquet"))
        rows, m = cell.run(options, hit, PUSHDOWN_OFF, path=str(fresh))
        assert rows == cell.oracle(hit, path=str(fresh)) and len(rows) == 1, (value, rows)
        assert m["bloomDigestEntries"] > 0 and m["bloomFilesPruned"] == FILES - 1, (value, m)
        judged_in_tasks[value] = m["bloomFilesJudgedInTasks"]
    assert judged_in_tasks == {"task": 1, "plan": 0}, judged_in_tasks
    assert not planning_gets or planning_gets["task"] == 0 < planning_gets["plan"], planning_gets


OBSERVE: dict[str, Callable[[Cell], None]] = {
    "bloom.enabled": _enabled,
    "bloom.mode": _mode,
    "bloom.cache": _cache_of("bloom.cache", "false", "true"),
    "bloom.cacheMb": _cache_of("bloom.cacheMb", "0", "512"),
    "bloom.planningParallelism": _planning_parallelism,
    "bloom.earlyStop": _early_stop,
    "bloom.filterReads": _filter_reads,
    "bloom.sparkPushdown": _spark_pushdown,
    "bloom.dictionaries": _dictionaries,
    "bloom.digest": _digest,
    "bloom.digestSurvivors": _digest_survivors,
}

# Values an inert cell is run with (the default first), the query, and a bad value of every key.
VALUES: dict[str, tuple[list[str], str, str]] = {
    "bloom.enabled": (["true", "false"], MISS, "yes"),
    "bloom.mode": (["plan", "task"], MISS, "everywhere"),
    "bloom.cache": (["true", "false"], MISS, "0"),
    "bloom.cacheMb": (["512", "0"], MISS, "-1"),
    "bloom.planningParallelism": (["0", "1"], MISS, "-1"),
    "bloom.earlyStop": (["true", "false"], BIG_IN, "off"),
    "bloom.filterReads": (["auto", "whole"], MISS, "partly"),
    "bloom.readCost.latencyMicros": (["0", "100000000"], MISS, "-1"),
    "bloom.readCost.megabytesPerSecond": (["0", "1"], MISS, "fast"),
    "bloom.readCost.driverMegabytesPerSecond": (["0", "1"], MISS, "-5"),
    "bloom.readCost.parallelRanges": (["0", "4"], MISS, "2000"),
    "bloom.sparkPushdown": (["safe", "none"], "d = 7", "some"),
    "bloom.dictionaries": (["true", "false"], "s = 'b'", "maybe"),
    "bloom.digest": (["true", "false"], MISS, "1"),
    "bloom.digestSurvivors": (["task", "plan"], MISS, "driver"),
}

# The cost model weighs filter reads beyond each footer's tail read; our writer's small filters of this data
# lie inside it. Its figures' effect on large filters: FilterBlockReadsSuite and bench/filter_reads.py.
TAIL_HOLDS_FILTERS = Inert("this data's filters lie in each footer's tail read: no filter read is left to weigh")
V1_PRUNES_IN_TASKS = Inert("Spark plans V1 scans itself: pruning always runs inside each task")
NO_PLANNING_READS = Inert("no footer is read while planning; a task reads its files one at a time")
NO_BLOOM_METRICS = Inert("the V1 scan node shows no bloom metrics; its decisions are the same either way")
ONE_FILE_PER_CALL = Inert("the V1 reader prunes each file on its own: no later file for the gate to spare")
# Not by design but a gap of this table: the classic table shows the effect on the same server code.
NOT_SHOWN_OVER_CONNECT = Inert(
    "not shown over Connect: timing it needs the test jar's slow file system, which a "
    "Connect client can't slow; rows and rows read are still checked"
)


def row(v1: Inert | None = None, task: Inert | None = None, connect: Inert | None = None) -> Callable[[str], object]:
    """A table row: EFFECT on every route but where ``v1`` (V1 routes), ``task`` (task-mode routes) or
    ``connect`` (routes named connect_*) say."""

    def cell(route: str) -> object:
        if route.endswith("_v1") and v1 is not None:
            return v1
        if "task" in route and task is not None:
            return task
        if route.startswith("connect_") and connect is not None:
            return connect
        return EFFECT

    return cell


TABLE: dict[str, Callable[[str], object]] = {
    "bloom.enabled": row(),
    "bloom.mode": row(v1=V1_PRUNES_IN_TASKS),
    "bloom.cache": row(),
    "bloom.cacheMb": row(),
    "bloom.planningParallelism": row(v1=NO_PLANNING_READS, task=NO_PLANNING_READS, connect=NOT_SHOWN_OVER_CONNECT),
    "bloom.earlyStop": row(v1=ONE_FILE_PER_CALL),
    "bloom.filterReads": row(v1=NO_BLOOM_METRICS),
    "bloom.readCost.latencyMicros": lambda route: TAIL_HOLDS_FILTERS,
    "bloom.readCost.megabytesPerSecond": lambda route: TAIL_HOLDS_FILTERS,
    "bloom.readCost.driverMegabytesPerSecond": lambda route: TAIL_HOLDS_FILTERS,
    "bloom.readCost.parallelRanges": lambda route: TAIL_HOLDS_FILTERS,
    "bloom.sparkPushdown": row(),
    "bloom.dictionaries": row(),
    "bloom.digest": row(v1=V1_PRUNES_IN_TASKS, task=NO_PLANNING_READS),
    "bloom.digestSurvivors": row(v1=V1_PRUNES_IN_TASKS, task=NO_PLANNING_READS),
}


def check_cell(cell: Cell, key: str, route_name: str, bad_error: type[BaseException]) -> None:
    """The cell (key, route): its bad value fails naming the key, then its effect or its inertness."""
    values, where, bad = VALUES[key]
    with pytest.raises(bad_error) as failed:
        cell.run({key: bad}, where)
    given = cell.route.given_key(key)
    assert re.search(rf"option '{re.escape(given)}' = '{re.escape(bad)}'", str(failed.value), re.IGNORECASE), (
        route_name,
        str(failed.value)[:500],
    )
    expected = TABLE[key](route_name)
    if expected == EFFECT:
        OBSERVE[key](cell)
        return
    assert isinstance(expected, Inert), expected
    oracle = cell.oracle(where)
    read = set()
    for value in values:
        rows, m = cell.run({key: value}, where, PUSHDOWN_OFF)
        assert rows == oracle, (key, value)
        read.add(m["numOutputRows"])
    assert len(read) == 1, (key, route_name, expected.why, read)


def route_readers(table_prefix: str) -> dict[str, Callable]:
    """The read of each route kind, shared by the classic and the Connect table: DataFrame (with base
    options), a catalog table named ``<table_prefix><n>`` (external: the files stay), SQL on a path,
    plain ``parquet``."""
    names = itertools.count()

    def sql_options(options: dict[str, str]) -> str:
        return ", ".join(f"'{k}' = '{v}'" for k, v in options.items())

    def dataframe(base: dict[str, str]):
        def frame(spark, path: str, options: dict[str, str], where: str):
            return spark.read.format("bloomparquet").options(**{**base, **options}).load(path).where(where)

        return frame

    def table(spark, path: str, options: dict[str, str], where: str):
        name = f"{table_prefix}{next(names)}"
        clause = f"OPTIONS ({sql_options(options)})" if options else ""
        spark.sql(f"CREATE TABLE {name} USING bloomparquet {clause} LOCATION '{path}'")
        return spark.table(name).where(where)

    def sql_path(spark, path: str, options: dict[str, str], where: str):
        clause = f"WITH ({sql_options(options)})" if options else ""
        return spark.sql(f"SELECT * FROM bloomparquet.`{path}` {clause} WHERE {where}")

    def parquet(spark, path: str, options: dict[str, str], where: str):
        return spark.read.options(**options).parquet(path).where(where)

    return {
        "dataframe_plan": dataframe({}),
        "dataframe_task": dataframe({"bloom.mode": "task"}),
        "sql_table": table,
        "sql_path": sql_path,
        "parquet": parquet,
    }
