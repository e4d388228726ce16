"""Planning at scale, and on a simulated object store: the figures behind "Scale"
in docs/benchmarks.md.

    .venv/bin/python bench/scale.py                                  # 1,000 and 10,000 files (~10 min)
    .venv/bin/python bench/scale.py --files 1000 10000 50000         # adds 50,000 files
    .venv/bin/python bench/scale.py --files 1000 --store-files 1000  # a quick look

Needs the test jar (bin/sbt jvm/Test/package): files are read through its `slow:`
file system (SlowFileSystem), which counts requests per file and, for the object
store part, waits a set latency per open and per GET (a positioned read, or a
stream read after a seek: an object store's ranged GET). Listings cost nothing.

Data: one small file written by bloomparquet's writer (4,000 rows, a filter on
`id`), hard-linked under N names (the files are identical: planning reads each
one as a different file, and its cache keys them by path). The query is a point
miss: `count(*) WHERE id = <absent, inside every row group's min/max>`, which
every file's filter excludes, so nothing is left for tasks.

Per number of files, in one local[2] Spark application (driver 4g):
- bloomparquet cold: `bloom.cache=false`, every query reads every footer and
  filter; warm: the cache filled by a first query (`spark.bloomparquet.cache.maxMb`,
  default 256), median of --reps;
- planning time = wall time of `queryExecution.executedPlan` on a new DataFrame
  of the already-listed table (bloomparquet prunes here); query time = `count()`
  wall. Spark's `parquet` plans without reading a file (its footers are read in
  tasks), so its planning figure is small and its query time is what compares;
- driver heap held by the cache: heap used after GC with the cache filled minus
  with it emptied (MemoryMXBean);
- GETs per file: planning (ours) and the whole query (both), also for files
  written by pyarrow and by parquet-java (Spark's `parquet`, filters enabled).

Object store: --store-files files at --latency-ms per open and per GET, cold:
bloomparquet with --threads (spark.bloomparquet.planning.threads and
bloom.planningParallelism), bloomparquet with distributed planning
(spark.bloomparquet.planning.distributed=executors: a Spark job, whose 2 tasks
on local[2] are threads of the driver's JVM, each reading --threads[0] files at
once), and `parquet` on --store-parquet-files files (its tasks read every footer
at 2 cores; extrapolated linearly to --store-files).

Writes results.json and results.md under --out and the plot --png.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

import bloomparquet as bp

ROOT = Path(__file__).resolve().parents[1]
TEST_JAR = ROOT / "jvm" / "target" / "bloomparquet-tests.jar"
ROWS = 4_000


def _templates(spark, work: Path, rows: int, row_groups: int) -> dict[str, Path]:
    """One file per writer, ids even (0, 2, ...): odd ids inside the range are absent."""
    out = work / f"templates-{rows}"
    table = pa.table(
        {"id": pa.array(range(0, 2 * rows, 2), pa.int64()), "payload": pa.array([f"p{i:06d}" for i in range(rows)])}
    )
    df = spark.createDataFrame(table).coalesce(1)
    # Rows of ~28 bytes (id + payload), a row group every rows / row_groups of them.
    w = df.write.mode("overwrite").option("parquet.block.size", 24 * rows // row_groups)
    w.format("bloomparquet").option("bloom.columns", "id").save(str(out / "ours"))
    per_group = str(rows // row_groups)
    w.option("parquet.bloom.filter.enabled#id", "true").option(
        "parquet.bloom.filter.expected.ndv#id", per_group
    ).parquet(str(out / "parquet-java"))
    (out / "pyarrow").mkdir(parents=True, exist_ok=True)
    pq.write_table(
        table,
        out / "pyarrow" / "part-0.parquet",
        row_group_size=rows // row_groups,
        bloom_filter_options={"id": {"ndv": rows // row_groups, "fpp": 0.01}},
    )
    return {name: next((out / name).glob("*.parquet")) for name in ("ours", "pyarrow", "parquet-java")}


def _copies(template: Path, out: Path, n: int) -> Path:
    if not out.exists():
        out.mkdir(parents=True)
        for i in range(n):
            os.link(template, out / f"part-{i:06d}.parquet")
    return out


class Bench:
    def __init__(self, spark) -> None:
        self.spark = spark
        self.jvm = spark._jvm
        self.fs = self.jvm.io.bloomparquet.testing.SlowFileSystem
        self.cache = self.jvm.io.bloomparquet.planning.FileBloomIndexCache
        conf = spark._jsc.hadoopConfiguration()
        for k, v in self.fs.settings().items():
            conf.set(k, v)

    def miss(self, path: Path) -> int:
        """An odd id the bloom filter excludes in this file (found on one file, with the cache off)."""
        one = next(path.glob("*.parquet"))
        df = self.spark.read.format("bloomparquet").option("bloom.cache", "false").load(str(one))
        for odd in range(ROWS + 1, 2 * ROWS, 2):
            if df.where(f"id = {odd}").rdd.getNumPartitions() == 0:
                return odd
        raise RuntimeError("no odd id is excluded by the filter")

    def reader(self, fmt: str, path: Path, **options: str):
        return self.spark.read.format(fmt).options(**options).load(f"slow://{path}")

    def time_plan(self, df, where: str) -> float:
        qe = df.where(where)._jdf.queryExecution()
        t = time.perf_counter()
        qe.executedPlan()
        return time.perf_counter() - t

    def time_count(self, df, where: str) -> float:
        t = time.perf_counter()
        df.where(where).count()
        return time.perf_counter() - t

    def gets(self, run, files: int) -> tuple[float, float, int]:
        """(GETs, opens) per file of a dataset of `files` files by `run`, and how many files it read."""
        self.fs.reset()
        run()
        touched, opens, gets, _ = self.fs.totals()
        return gets / files, opens / files, int(touched)

    def heap_used(self) -> int:
        for _ in range(3):
            self.jvm.System.gc()
            time.sleep(0.3)
        return int(self.jvm.java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed())

    def clear_cache(self, budget_mb: int) -> None:
        self.cache.setBudget(0)
        self.cache.setBudget(budget_mb << 20)


def scale_row(b: Bench, path: Path, n: int, where: str, reps: int, budget_mb: int) -> dict[str, Any]:
    ours_cold = b.reader("bloomparquet", path, **{"bloom.cache": "false"})
    ours = b.reader("bloomparquet", path)
    theirs = b.reader("parquet", path)
    row: dict[str, Any] = {"files": n}
    row["ours_plan_cold_s"] = statistics.median(b.time_plan(ours_cold, where) for _ in range(reps))
    row["ours_gets_per_file_plan"], _, _ = b.gets(lambda: b.time_plan(ours_cold, where), n)
    b.clear_cache(budget_mb)
    before = b.heap_used()
    row["ours_plan_fill_s"] = b.time_plan(ours, where)
    row["ours_plan_warm_s"] = statistics.median(b.time_plan(ours, where) for _ in range(reps))
    row["ours_count_warm_s"] = statistics.median(b.time_count(ours, where) for _ in range(reps))
    row["cache_heap_mb"] = (b.heap_used() - before) / 2**20
    held = b.cache.held()
    row["cache_files"], row["cache_weight_mb"] = int(held._1()), int(held._2()) / 2**20
    # With more files than the cache's budget holds, a warm query reads the evicted ones again.
    row["warm_gets_per_file"], _, row["warm_files_read"] = b.gets(lambda: b.time_plan(ours, where), n)
    b.clear_cache(budget_mb)
    row["ours_count_cold_s"] = statistics.median(b.time_count(ours_cold, where) for _ in range(reps))
    row["parquet_plan_s"] = statistics.median(b.time_plan(theirs, where) for _ in range(reps))
    row["parquet_count_s"] = statistics.median(b.time_count(theirs, where) for _ in range(max(1, reps // 2)))
    row["parquet_gets_per_file_query"], _, _ = b.gets(lambda: b.time_count(theirs, where), n)
    return row


def writers_gets(b: Bench, templates: dict[str, Path], work: Path) -> list[dict[str, Any]]:
    rows = []
    for name, template in templates.items():
        path = _copies(template, work / f"gets-{template.stat().st_size}-{name}", 200)
        where = f"id = {b.miss(template.parent)}"
        ours = b.reader("bloomparquet", path, **{"bloom.cache": "false"})
        theirs = b.reader("parquet", path)
        plan_gets, _, _ = b.gets(lambda o=ours, w=where: b.time_plan(o, w), 200)
        query_gets, _, _ = b.gets(lambda o=ours, w=where: b.time_count(o, w), 200)
        parquet_gets, parquet_opens, _ = b.gets(lambda t=theirs, w=where: b.time_count(t, w), 200)
        meta = pq.ParquetFile(template).metadata
        rows.append(
            {
                "writer": name,
                "file_kib": template.stat().st_size // 1024,
                "query": where,
                "row_groups": meta.num_row_groups,
                "ours_plan_gets": plan_gets,
                "ours_query_gets": query_gets,
                "parquet_query_gets": parquet_gets,
                "parquet_query_opens": parquet_opens,
            }
        )
    return rows


def store_rows(
    b: Bench, path: Path, n: int, parquet_path: Path, parquet_n: int, where: str, threads: list[int], latency_ms: int
) -> list[dict[str, Any]]:
    b.fs.setLatencyMs(latency_ms, latency_ms)
    try:
        rows = []
        for t in threads:
            df = b.reader("bloomparquet", path, **{"bloom.cache": "false", "bloom.planningParallelism": str(t)})
            rows.append(
                {
                    "reader": f"bloomparquet, {t} threads",
                    "files": n,
                    "plan_s": b.time_plan(df, where),
                    "count_s": b.time_count(df, where),
                }
            )
        # Distributed planning: a Spark job; on local[2] its 2 tasks are threads of this JVM.
        key = "spark.bloomparquet.planning.distributed"
        b.spark.conf.set(key, "executors")
        try:
            df = b.reader(
                "bloomparquet", path, **{"bloom.cache": "false", "bloom.planningParallelism": str(threads[0])}
            )
            rows.append(
                {
                    "reader": f"bloomparquet, distributed (2 tasks x {threads[0]} threads)",
                    "files": n,
                    "plan_s": b.time_plan(df, where),
                    "count_s": b.time_count(df, where),
                }
            )
        finally:
            b.spark.conf.unset(key)
        theirs = b.reader("parquet", parquet_path)
        count = b.time_count(theirs, where)
        rows.append(
            {
                "reader": "parquet (2 cores)",
                "files": parquet_n,
                "plan_s": b.time_plan(theirs, where),
                "count_s": count,
                "count_s_at_store_files": count * n / parquet_n,
            }
        )
        return rows
    finally:
        b.fs.setLatencyMs(0, 0)


def markdown(result: dict[str, Any]) -> str:
    s = [
        "| files | ours planning cold | ours planning warm | ours query cold | ours query warm "
        "| parquet planning | parquet query | ours GETs/file (plan) | parquet GETs/file (query) | cache: heap after GC / own count / files "
        "| files read warm |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in result.get("scale", []):
        s.append(
            f"| {r['files']:,} | {r['ours_plan_cold_s']:.2f} s | {r['ours_plan_warm_s']:.2f} s "
            f"| {r['ours_count_cold_s']:.2f} s | {r['ours_count_warm_s']:.2f} s | {r['parquet_plan_s']:.2f} s "
            f"| {r['parquet_count_s']:.2f} s | {r['ours_gets_per_file_plan']:.2f} "
            f"| {r['parquet_gets_per_file_query']:.2f} | {r['cache_heap_mb']:.0f} MB / "
            f"{r.get('cache_weight_mb', float('nan')):.0f} MB / {r.get('cache_files', '?')} "
            f"| {r.get('warm_files_read', '?')} |"
        )
    s += [
        "",
        "| writer | file | row groups | ours: GETs/file planning | ours: GETs/file whole query "
        "| parquet: GETs/file whole query | parquet: opens/file |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in result.get("writers", []):
        s.append(
            f"| {r['writer']} | {r['file_kib']:,} KiB | {r['row_groups']} | {r['ours_plan_gets']:.3f} "
            f"| {r['ours_query_gets']:.3f} "
            f"| {r['parquet_query_gets']:.2f} | {r['parquet_query_opens']:.2f} |"
        )
    s += [
        "",
        f"Object store, {result['latency_ms']} ms per open and per GET, cold:",
        "",
        "| reader | files | planning | query | query scaled to the same files |",
        "|---|---:|---:|---:|---:|",
    ]
    for r in result.get("store", []):
        scaled = f"{r['count_s_at_store_files']:.0f} s (linear)" if "count_s_at_store_files" in r else ""
        s.append(f"| {r['reader']} | {r['files']:,} | {r['plan_s']:.2f} s | {r['count_s']:.2f} s | {scaled} |")
    return "\n".join(s) + "\n"


def plot(result: dict[str, Any], png: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = result.get("scale", [])
    xs = [r["files"] for r in rows]
    fig, ax = plt.subplots(figsize=(11, 4.8))
    for key, label, style in (
        ("ours_plan_cold_s", "bloomparquet planning, cold (cache off)", "o-"),
        ("ours_plan_warm_s", "bloomparquet planning, warm cache", "s-"),
        ("parquet_plan_s", "parquet planning (reads no file)", "^--"),
        ("parquet_count_s", "parquet point-miss query (footers read in tasks)", "v--"),
    ):
        ax.plot(xs, [r[key] for r in rows], style, label=label)
    for r in result.get("store", []):
        if r["reader"].startswith("bloomparquet"):
            ax.plot(
                [r["files"]],
                [r["plan_s"]],
                "*",
                markersize=11,
                label=f"{r['reader']}: planning at {result['latency_ms']} ms/GET",
            )
        else:
            n = max(x["files"] for x in result["store"])
            ax.plot(
                [n if "count_s_at_store_files" in r else r["files"]],
                [r.get("count_s_at_store_files", r["count_s"])],
                "X",
                markersize=9,
                label=f"{r['reader']}: query at {result['latency_ms']} ms/GET (linear from {r['files']:,} files)",
            )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("files")
    ax.set_ylabel("seconds (log)")
    ax.set_title("Planning time vs number of files (local[2], point miss)")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    Path(png).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=120)
    print(f"wrote {png}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--store-files", type=int, default=10000)
    ap.add_argument("--store-parquet-files", type=int, default=200)
    ap.add_argument("--latency-ms", type=int, default=30)
    ap.add_argument("--threads", type=int, nargs="+", default=[16, 64])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--cache-mb", type=int, default=256)
    ap.add_argument(
        "--sections", nargs="+", default=["writers", "scale", "store"], choices=["writers", "scale", "store"]
    )
    ap.add_argument("--writer-rows", type=int, default=400_000, help="rows of the larger files of the writers section")
    ap.add_argument("--writer-row-groups", type=int, default=8)
    ap.add_argument("--work", default=None, help="where the files go (default: a new temporary directory)")
    ap.add_argument("--out", default="bench-out/scale")
    ap.add_argument("--png", default=str(ROOT / "docs" / "img" / "planning_vs_files.png"))
    ap.add_argument("--replot", action="store_true", help="redraw --png and results.md from --out's results.json")
    args = ap.parse_args()
    if args.replot:
        result = json.loads((Path(args.out) / "results.json").read_text())
        (Path(args.out) / "results.md").write_text(markdown(result))
        plot(result, args.png)
        return 0
    if not TEST_JAR.is_file():
        raise SystemExit(f"{TEST_JAR} not found: run bin/sbt jvm/Test/package")

    jar = str(TEST_JAR)
    spark = bp.session(
        **{
            "spark.driver.memory": "4g",
            "spark.jars": jar,
            "spark.driver.extraClassPath": jar,
            "spark.bloomparquet.planning.threads": str(max(args.threads)),
            "spark.bloomparquet.cache.maxMb": str(args.cache_mb),
        }
    )
    spark.sparkContext.setLogLevel("ERROR")
    b = Bench(spark)
    work = Path(args.work or tempfile.mkdtemp(prefix="bloomparquet-scale-"))
    templates = _templates(spark, work, ROWS, 2)
    where = f"id = {b.miss(templates['ours'].parent)}"
    print(f"data in {work}; query: {where}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    # A run of some sections keeps the others' figures from an earlier run.
    result: dict[str, Any] = json.loads((out / "results.json").read_text()) if (out / "results.json").exists() else {}
    result.update({"latency_ms": args.latency_ms, "query": where, "rows_per_file": ROWS, "cache_mb": args.cache_mb})
    if "writers" in args.sections:
        big = _templates(spark, work, args.writer_rows, args.writer_row_groups)
        result["writers"] = writers_gets(b, templates, work) + writers_gets(b, big, work)
        print(json.dumps(result["writers"], indent=1))
    if "scale" in args.sections:
        for n in args.files:
            row = scale_row(b, _copies(templates["ours"], work / f"ours-{n}", n), n, where, args.reps, args.cache_mb)
            print(json.dumps(row))
            result["scale"] = sorted(
                [r for r in result.get("scale", []) if r["files"] != n] + [row], key=lambda r: r["files"]
            )
    if "store" in args.sections:
        store = _copies(templates["ours"], work / f"ours-{args.store_files}", args.store_files)
        parquet_store = _copies(templates["ours"], work / f"ours-{args.store_parquet_files}", args.store_parquet_files)
        result["store"] = store_rows(
            b, store, args.store_files, parquet_store, args.store_parquet_files, where, args.threads, args.latency_ms
        )
        print(json.dumps(result["store"], indent=1))
    (out / "results.json").write_text(json.dumps(result, indent=1))
    (out / "results.md").write_text(markdown(result))
    print(markdown(result))
    plot(result, args.png)
    spark.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
