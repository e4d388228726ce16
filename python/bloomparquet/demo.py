"""The demo: write a dataset whose key columns min/max statistics can't prune,
with bloom filters; run selective queries through `bloomparquet` and through
Spark's own `parquet`; print what was pruned and how long it took. Also shows
that the JVM SBBF and the Python reference agree on every row group."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


def _write(out: Path, rows: int, files: int) -> np.ndarray:
    import pyarrow as pa
    import pyarrow.parquet as pq

    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.parquet"):
        old.unlink()
    rng = np.random.default_rng(42)
    keys = rng.permutation(rows * 10)[:rows].astype(np.int64) * 2  # unsorted, high cardinality, even
    per_file, rg_rows = rows // files, max(1, rows // files // 8)
    for f in range(files):
        part = keys[f * per_file : (f + 1) * per_file]
        pq.write_table(
            pa.table(
                {"order_id": part, "email": [f"user{k}@example.com" for k in part], "amount": rng.random(len(part))}
            ),
            out / f"part-{f}.parquet",
            row_group_size=rg_rows,
            bloom_filter_options={"order_id": {"ndv": rg_rows, "fpp": 0.001}, "email": {"ndv": rg_rows, "fpp": 0.01}},
        )
    return keys


def _agreement(spark: SparkSession, path: Path) -> int:
    """Per row group, do the JVM kernel and the Python reference give the same answers?"""
    from ._session import java_map, jvm_bridge
    from .reference import read_bloom_filters, xxh64_plain

    bridge = jvm_bridge(spark)
    probes = xxh64_plain(np.arange(1, 20001, 2, dtype=np.int64), "INT64")  # absent keys
    disagreements = 0
    for file in sorted(path.glob("*.parquet")):
        jvm = {k: bytes(v) for k, v in java_map(bridge.readFilters(str(file.resolve()))).items()}
        for (rg, column), f in read_bloom_filters(file).items():
            py_answers = f.check_hashes(probes)
            jvm_answers = np.frombuffer(bytes(bridge.checkHashes(jvm[f"{rg}/{column}"], probes.tobytes())), np.uint8)
            disagreements += int((py_answers != jvm_answers.astype(bool)).sum())
    return disagreements


def run_demo(rows: int = 2_000_000, out: str = "demo-out", files: int = 8, as_json: bool = False) -> int:
    """Run the demo; returns a process exit code (non-zero if JVM and Python disagree).
    ``as_json``: the narrative goes to stderr, one JSON report to stdout."""
    import json
    import sys

    from . import read_bloom, scan_metrics, session
    from ._session import jvm_bridge

    def say(text: str) -> None:
        """The narrative: stdout, or stderr when stdout carries the JSON report."""
        print(text, file=sys.stderr if as_json else sys.stdout)

    report: dict[str, Any] = {
        "command": "demo",
        "version": 1,
        "rows": rows,
        "files": files,
        "path": None,
        "queries": [],
    }

    path = Path(out) / "events"
    report["path"] = str(path)
    t0 = time.perf_counter()
    keys = _write(path, rows, files)
    size = sum(f.stat().st_size for f in path.glob("*.parquet")) / 1e6
    say(
        f"wrote {rows:,} rows in {files} files x 8 row groups ({size:.0f} MB) with bloom filters on order_id "
        f"(FPP 0.1 %) and email (1 %) in {time.perf_counter() - t0:.1f}s -> {path}"
    )

    from pyspark.sql import SparkSession

    started_here = SparkSession.getActiveSession() is None  # a session the caller has stays theirs
    spark = session()
    bridge = jvm_bridge(spark)
    report["kernel"] = {"kernel": str(bridge.kernelName()), "reason": str(bridge.kernelReason())}
    say(f"JVM SBBF kernel: {bridge.kernelName()} ({bridge.kernelReason()})")
    ours, theirs = read_bloom(spark, str(path)), spark.read.parquet(str(path))
    ours.where("order_id = 1").count()  # warm up both readers (JIT, file listing)
    theirs.where("order_id = 1").count()

    hit = int(keys[len(keys) // 2])
    # Odd keys spread over the whole key range: absent, and min/max statistics can't rule them out.
    absent = [2 * k + 1 for k in range(0, rows * 10, rows * 10 // 100)]
    queries: dict[str, Any] = {
        "point hit": f"order_id = {hit}",
        "point miss": "order_id = 12345",
        "email miss": "email = 'nobody@example.com'",
        "IN 100 absent keys": f"order_id IN ({', '.join(map(str, absent[:100]))})",
        "IN 100 incl. one hit": f"order_id IN ({', '.join(map(str, [*absent[:99], hit]))})",
    }
    # A join to a small filtered table: Spark's dynamic pruning hands bloomparquet its keys at runtime.
    dim_path = str(Path(out) / "vip_orders")
    spark.createDataFrame(
        [(k, "vip") for k in [*absent[:19], hit]] + [(k, "other") for k in absent[19:]], "order_id long, tier string"
    ).coalesce(1).write.mode("overwrite").parquet(dim_path)
    vip = spark.read.parquet(dim_path).where("tier = 'vip'")
    queries["join to 20 vip orders"] = vip
    # The physics: a row group holding none of n probed values survives a filter of FPP p with
    # probability 1-(1-p)^n; the row groups holding a value always survive. (n, p, row groups with a hit):
    probes = {
        "point hit": (1, 0.001, 1),
        "point miss": (1, 0.001, 0),
        "email miss": (1, 0.01, 0),
        "IN 100 absent keys": (100, 0.001, 0),
        "IN 100 incl. one hit": (100, 0.001, 1),
        "join to 20 vip orders": (20, 0.001, 1),
    }
    say(
        f"\n{'query':<24} {'rows':>4}  {'bloomparquet':>12} {'parquet':>9}  {'tasks':>11}  "
        f"{'row groups skipped':>18}  {'kept (bound)':>12}  {'files skipped':>13}  {'filter KiB':>10}"
    )
    for name, where in queries.items():
        times: dict[str, float] = {}
        answers: dict[str, list[Any]] = {}
        metrics: dict[str, dict[str, int]] = {}
        for label, df in (("ours", ours), ("theirs", theirs)):
            q = df.join(where, "order_id") if not isinstance(where, str) else df.where(where)
            t = time.perf_counter()
            answers[label] = sorted(q.collect())
            times[label] = time.perf_counter() - t
            metrics[label] = scan_metrics(q)
        if answers["ours"] != answers["theirs"]:
            raise SystemExit(f"{name}: bloomparquet and parquet returned different rows")
        n = len(answers["ours"])
        m, tm = metrics["ours"], metrics["theirs"]
        skipped = m["bloomRowGroupsPrunedByBloom"] + m["bloomRowGroupsPrunedByStats"]
        values, fpp, holding = probes[name]
        total = m["bloomRowGroupsTotal"]
        bound = holding + (total - holding) * (1 - (1 - fpp) ** values)
        report["queries"].append(
            {
                "query": name,
                "rows": n,
                "seconds": times["ours"],
                "parquet_seconds": times["theirs"],
                "tasks": m["tasks"],
                "parquet_tasks": tm["tasks"],
                "row_groups_skipped": skipped,
                "row_groups_total": total,
                "row_groups_kept_expected": bound,
                "files_skipped": m["bloomFilesPruned"],
                "files_total": m["bloomFilesTotal"],
                "filter_bytes_read": m["bloomFilterBytesRead"],
            }
        )
        rg, kept = f"{skipped}/{total}", f"{total - skipped} ({bound:.1f})"
        say(
            f"{name:<24} {n:>4}  {times['ours']:>11.3f}s {times['theirs']:>8.3f}s  {m['tasks']:>4} vs {tm['tasks']:>4}  "
            f"{rg:>18}  {kept:>12}  {m['bloomFilesPruned']:>6}/{m['bloomFilesTotal']:<6}  {m['bloomFilterBytesRead'] / 1024:>10.0f}"
        )
    say(
        "\n(tasks: bloomparquet vs parquet; kept (bound): row groups kept, and the expected number a filter of "
        "FPP p keeps probing n values, holding + others x (1-(1-p)^n); filter KiB is 0 once footers and filters "
        "are cached)"
    )

    bad = _agreement(spark, path)
    say(
        f"JVM kernel vs Python reference on every row group's filters: {'agree' if bad == 0 else f'{bad} DISAGREEMENTS'}"
    )
    if started_here:
        spark.stop()
    if as_json:
        report["jvm_python_disagreements"] = bad
        sys.stdout.write(json.dumps(report, indent=2) + "\n")
    return 1 if bad else 0
