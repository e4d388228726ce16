"""Lake-scale planning with a table's bloom digest, on a simulated object store: cold point lookups
over 10,000 to 100,000 files planned with the digest and without it (every file judged on its own),
in one session. The figures behind "Bloom digest" in docs/benchmarks.md.

    .venv/bin/python bench/digest_planning.py                                   # 10,000 and 100,000 files
    .venv/bin/python bench/digest_planning.py --files 1000 --per-file-files 1000  # a quick look
    .venv/bin/python bench/digest_planning.py --files 100000 --distinct 10000 --row-groups 10  # 1,000,000 entries

Needs the test jar (bin/sbt jvm/Test/package): queries read through its ``slow:`` file system
(SlowFileSystem), which waits --latency-ms per GET (and per open without the caller's status) and
streams at --mbps, and counts GETs and bytes; listings cost nothing and are not counted (Spark's
listing is the same either way).

Data: files written by Spark's ``parquet`` (parquet-java's filters, sized for the rows of a row group
at its default 1 %), ``k`` a shuffled high-cardinality key (even values; odd ones inside the range
are absent), ``--row-groups`` row groups of --rows-per-group rows each. With --distinct < --files,
each distinct file appears under files / distinct names (hard links): a present key is then in that
many files. The digest is built once per table (``bp.build_digest``, default bound 1e-4: filters
sized at 1 % are not folded) and its build reported: files/s, bytes read against the filters' bytes,
digest bytes.

Queries, cold (``bloom.cache=false``: nothing held in the JVM): a point miss, an IN of 10 absent keys,
a point hit; each with the digest, the files it keeps judged in their tasks (``bloom.digestSurvivors``
task, the default) and on the driver (plan), and without it (``bloom.digest=false``). Reported:
planning time and GETs (the scan's splits made, no task run), the whole query's time and GETs, the
pruning time the scan's metrics sum (planning's and the tasks'), files left to tasks, and the physics
bound of what survives: a file without the values is kept with probability 1 - (1 - p)^(n x row
groups) for n values and filters of rate p. Each query first runs once unreported, so every way meets
alike what tasks keep across queries (their page index verdicts per split).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import bloomparquet as bp

ROOT = Path(__file__).resolve().parents[1]
TEST_JAR = ROOT / "jvm" / "target" / "bloomparquet-tests.jar"
FPP = 0.01  # parquet-java's default rate for a filter sized by its NDV


def _key(i: int) -> int:
    return (i * 2654435761 % 4294967296) * 2


def _write(spark, out: Path, files: int, row_groups: int, rows_per_group: int) -> None:
    """``files`` files by Spark's parquet writer, each of ``row_groups`` row groups with a filter on k."""
    if (out / "_SUCCESS").exists():
        return
    rows = files * row_groups * rows_per_group
    per_file = row_groups * rows_per_group
    df = spark.range(rows).selectExpr(
        "(id * 2654435761 % 4294967296) * 2 AS k", "concat('p', id) AS payload", f"id div {per_file} AS f"
    )
    (
        df.repartition(2, "f")
        .sortWithinPartitions("f")
        .drop("f")
        .write.mode("overwrite")
        .option("maxRecordsPerFile", per_file)
        .option("parquet.block.size", rows_per_group * 20)
        .option("parquet.page.size.row.check.min", min(100, rows_per_group))
        .option("parquet.page.size.row.check.max", rows_per_group)
        .option("parquet.bloom.filter.enabled#k", "true")
        .option("parquet.bloom.filter.expected.ndv#k", rows_per_group)
        .parquet(str(out))
    )


def _linked(distinct: Path, out: Path, files: int) -> Path:
    """``files`` names for the distinct files (hard links), in one directory."""
    if out.exists():
        return out
    out.mkdir(parents=True)
    sources = sorted(distinct.glob("*.parquet"))
    for i in range(files):
        os.link(sources[i % len(sources)], out / f"part-{i:07d}.parquet")
    return out


def _query(spark, store, df, where: str, digest: bool, survivors: str) -> dict[str, Any]:
    """One cold query, planned alone first (its splits made, no task run), then run (planned again)."""
    settings = {
        "spark.bloomparquet.read.cache": "false",
        "spark.bloomparquet.read.digest": str(digest).lower(),
        "spark.bloomparquet.read.digestSurvivors": survivors,
    }
    with _conf(spark, settings):
        planned = df.where(where)
        planned._jdf.queryExecution().executedPlan()  # physical planning: the scan's runtime-filter columns
        store.reset()
        t = time.perf_counter()
        planned._jdf.queryExecution().toRdd().getNumPartitions()
        planning = time.perf_counter() - t
        _, _, planning_gets, _ = store.totals()
        q = df.where(where)
        store.reset()
        t = time.perf_counter()
        q.collect()
        wall = time.perf_counter() - t
    m = bp.scan_metrics(q)
    _, opens, gets, got_bytes = store.totals()
    return {
        "planning_s": round(planning, 3),
        "planning_gets": int(planning_gets),
        "pruning_s": m["bloomPruningTimeMs"] / 1000,
        "query_s": round(wall, 3),
        "gets": int(gets),
        "bytes": int(got_bytes),
        "files_left": m["bloomFilesTotal"] - m["bloomFilesPruned"],
        "tasks": m.get("bloomTasksPlanned", 0),
        "footers_read": m["bloomFootersRead"],
        "digest_entries": m["bloomDigestEntries"],
        "digest_entries_pruned": m["bloomDigestEntriesPruned"],
        "digest_requests": m["bloomDigestRequests"],
        "digest_bytes_read": m["bloomDigestBytesRead"],
    }


class _conf:
    def __init__(self, spark, settings: dict[str, str]) -> None:
        self.spark, self.settings = spark, settings

    def __enter__(self) -> None:
        for k, v in self.settings.items():
            self.spark.conf.set(k, v)

    def __exit__(self, *exc: object) -> None:
        for k in self.settings:
            self.spark.conf.unset(k)


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--files", type=int, nargs="+", default=[10_000, 100_000])
    args.add_argument("--distinct", type=int, default=0, help="distinct files (0: as many as --files)")
    args.add_argument("--row-groups", type=int, default=1)
    args.add_argument("--rows-per-group", type=int, default=200)
    args.add_argument(
        "--per-file-files", type=int, default=100_000, help="largest table also planned without the digest"
    )
    args.add_argument(
        "--no-build", dest="build", action="store_false", help="query with the table's digest as it is (not rebuilt)"
    )
    args.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="runs of each way with the digest; the one of median planning time is reported",
    )
    args.add_argument("--latency-ms", type=int, default=20)
    args.add_argument("--mbps", type=float, default=100.0)
    args.add_argument("--work", default=str(Path(tempfile.gettempdir()) / "bp-digest-planning"))
    args.add_argument("--out", default=str(ROOT / "bench-out" / "digest_planning"))
    a = args.parse_args()
    if not TEST_JAR.is_file():
        raise SystemExit(f"{TEST_JAR} not found: run bin/sbt jvm/Test/package")
    spark = bp.session(
        master="local[2]",
        **{
            "spark.driver.memory": "6g",
            "spark.jars": str(TEST_JAR),
            "spark.hadoop.fs.slow.impl": "io.bloomparquet.testing.SlowFileSystem",
            "spark.ui.enabled": "false",
        },
    )
    spark.sparkContext.setLogLevel("ERROR")
    store = spark._jvm.io.bloomparquet.testing.SlowFileSystem
    work = Path(a.work)
    results: list[dict[str, Any]] = []
    for files in a.files:
        distinct = a.distinct or files
        name = f"{distinct}x{a.row_groups}x{a.rows_per_group}"
        source = work / f"distinct-{name}"
        t = time.perf_counter()
        _write(spark, source, distinct, a.row_groups, a.rows_per_group)
        written = time.perf_counter() - t
        table = source if distinct == files else _linked(source, work / f"table-{files}-{name}", files)
        t = time.perf_counter()
        built = (
            bp.build_digest(spark, str(table), "k")
            if a.build
            else {"bytes_read": 0, "filter_bytes": 0, "digest_bytes": 0}
        )
        build_s = time.perf_counter() - t
        print(f"{files:,} files: written in {written:.0f} s; digest {built}", flush=True)
        store.setLatencyMs(a.latency_ms, a.latency_ms)
        store.setMegabytesPerSecond(a.mbps)
        df = spark.read.parquet(f"slow://{table}")  # listed once; every query plans (and prunes) anew
        df = spark.read.format("bloomparquet").schema(df.schema).load(f"slow://{table}")
        entries = files * a.row_groups
        queries = {
            "point miss": (f"k = {_key(17) + 1}", 1),
            "IN 10 (misses)": ("k IN ({})".format(", ".join(str(_key(i) + 1) for i in range(10))), 10),
            "point hit": (f"k = {_key(12_345)}", 1),
        }
        ways = [(True, "task"), (True, "plan")] + ([(False, "plan")] if files <= a.per_file_files else [])
        for query, (where, n) in queries.items():
            # Unreported: leaves each way below the same state of what tasks hold per split across queries
            # (page index verdicts), whichever runs first; planning stays cold (bloom.cache=false).
            _query(spark, store, df, where, True, "plan")
            for digest, survivors in ways:
                # A second of planning varies by a tenth from run to run (the JIT, the collector): the median run.
                runs = sorted(
                    (_query(spark, store, df, where, digest, survivors) for _ in range(a.rounds if digest else 1)),
                    key=lambda run: run["planning_s"],
                )
                r = {**runs[len(runs) // 2], "planning_s_runs": [run["planning_s"] for run in runs]}
                bound = 1 - (1 - FPP) ** n
                r.update(
                    files=files,
                    entries=entries,
                    query=query,
                    digest=digest,
                    survivors=survivors,
                    fpp=FPP,
                    row_group_kept_bound=round(bound, 4),
                    expected_absent_entries_kept=round(bound * entries, 1),
                )
                print(json.dumps(r), flush=True)
                results.append(r)
        store.setLatencyMs(0, 0)
        store.setMegabytesPerSecond(0.0)
        results.append(
            {
                "files": files,
                "entries": entries,
                "build": {
                    **built,
                    "seconds": round(build_s, 1),
                    "files_per_s": round(files / build_s, 1),
                    "read_over_filters": round(built["bytes_read"] / max(1, built["filter_bytes"]), 3),
                    "digest_over_filters": round(built["digest_bytes"] / max(1, built["filter_bytes"]), 4),
                },
            }
        )
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(results, indent=1))
    print(f"wrote {out / 'results.json'}")
    spark.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
