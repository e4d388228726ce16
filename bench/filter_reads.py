"""Planning I/O of lookups over files whose filters are large (parquet-java sizes them from its
expected-NDV setting): whole filters against the blocks the probes hash to (``bloom.filterReads``).

    .venv/bin/python bench/filter_reads.py                       # 400 files, 1 MiB filters
    .venv/bin/python bench/filter_reads.py --files 100 --filter-mib 4

Writes (once, into bench-out/filter-reads-<files>x<mib>m) FILES Parquet files with Spark's own
writer, one row group each, a bloom filter on ``k`` set through parquet-java's Hadoop settings
(``parquet.bloom.filter.expected.ndv#k``, rounded up by parquet-java to ``--filter-mib``, or
``--filter-kib`` for smaller ones). Then,
in one session, per query (point miss, point hit, IN 10 present, IN 1,000 absent) and way:

- ``bloomparquet`` with ``bloom.filterReads`` = ``whole``, ``blocks`` and ``auto`` (the cost model);
- Spark's ``parquet`` with its pushdown on (parquet-java's bloom filtering inside its tasks).

``--latency-ms N`` reads the files through the test jar's latency-injecting file system
(``slow://``: N ms per open and per GET, ``--mbps`` per stream, 100 by default, ``--driver-mbps`` for
all streams at once, 1,000 by default; the ranges of one
vectored read are fetched 4 at a time, each round waiting once, as S3A fetches them), tells the cost model those figures
(``bloom.readCost.latencyMicros``, ``.megabytesPerSecond``, ``.driverMegabytesPerSecond``), and adds the way ``blocks_1by1`` (``bloom.readCost.parallelRanges=1``:
a file's block ranges read one after the other, as before vectored reads); bytes and GETs are then
the simulated store's counts.

``--s3a`` reads the files through Hadoop's S3A client from a local S3 server (moto's, started
here; the files are uploaded once per run), with S3A's classic input stream (the analytics stream,
Hadoop 3.5's default, keeps a cache of its own that would serve repeated reads); requests and
bytes are S3A's own statistics (requests one after another: a vectored read's GETs count once).

Each way runs ``--warmup`` times uncounted before its rounds: a driver that has run a query
before (its JIT), whichever way. Cold: the bloomparquet cache off (``bloom.cache=false``: every footer and filter read again; the
OS page cache is warm for every way alike). Warm: the cache on, the second of two runs. Reported:
bytes the local file system read (Hadoop's statistics, driver and local executors), bloomparquet's
filter reads per file, wall time (best of ``--rounds``), and the physical minimum the plan-time
decision needs: every footer, plus per probed filter its header and one 32-byte block per distinct
block the probed values hash to.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.parquet as pq
import xxhash

import bloomparquet as bp
import slow_store  # the script's own folder: bench/

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.s3a import local_s3

ROOT = Path(__file__).resolve().parents[1]
BUCKET = "bench"
ROWS_PER_FILE = 2000
# parquet-java rounds a filter up to a power of two: 600,000 values at 1 % take 0.7 MiB, so 1 MiB.
NDV_PER_MIB = 600_000
SCATTER, MODULUS = 2654435761, 1_000_000_007


def key(i: int) -> int:
    """The key of row `i` (present)."""
    return i * SCATTER % MODULUS * 2


def write(spark: Any, out: Path, files: int, kib: int, writer: str = "spark", rows: int = ROWS_PER_FILE) -> None:
    """FILES files of scattered keys with a filter on k: Spark's writer (parquet-java sizing the filter
    to `kib`), or ours (``writer="ours"``: sized for the file's own keys at 1 %, stored beside the footer)."""
    if (out / "_SUCCESS").is_file():
        return
    # Even keys scattered over [0, 2e9) in every file (min/max statistics prune nothing): odd ones are absent.
    df = spark.range(files * rows, numPartitions=files).selectExpr(
        f"id * {SCATTER} % {MODULUS} * 2 AS k", "id % 97 AS v"
    )
    if writer == "ours":
        df.write.format("bloomparquet").mode("overwrite").option("bloom.columns", "k").save(str(out))
        return
    (
        df.write.mode("overwrite")
        .option("parquet.bloom.filter.enabled#k", "true")
        .option("parquet.bloom.filter.expected.ndv#k", str(NDV_PER_MIB * kib // 1024))
        .option("parquet.bloom.filter.max.bytes", str(kib << 10))
        .parquet(str(out))
    )


def minimum_bytes(path: Path, values: list[int]) -> tuple[int, int, int]:
    """(footer bytes, probed filters, their header and probed block bytes) of the files under `path`:
    a filter is probed where the row group's min/max hold one of `values`."""
    footers = filters = probed = 0
    hashes = {v: xxhash.xxh64_intdigest(np.int64(v).tobytes()) for v in values}
    for f in sorted(path.glob("*.parquet")):
        md = pq.ParquetFile(f).metadata
        footers += md.serialized_size + 8
        for rg in range(md.num_row_groups):
            col = md.row_group(rg).column(0)
            stats = col.statistics
            inside = [v for v in values if stats is None or stats.min <= v <= stats.max]
            if not inside or not col.bloom_filter_length:
                continue
            header = col.bloom_filter_length % 32
            blocks = (col.bloom_filter_length - header) // 32
            filters += 1
            probed += header + 32 * len({((hashes[v] >> 32) * blocks) >> 32 for v in inside})
    return footers, filters, probed


def fs_bytes(spark: Any) -> int:
    stats = spark._jvm.org.apache.hadoop.fs.FileSystem.getAllStatistics()
    return sum(s.getBytesRead() for s in stats if s.getScheme() == "file")


def counts(spark: Any, store: str) -> dict[str, int]:
    """Requests and bytes so far: the simulated store's GETs, S3A's statistics, or the local file system's bytes."""
    if store == "slow":
        _, _, gets, read = spark._jvm.io.bloomparquet.testing.SlowFileSystem.totals()
        return {"gets": gets, "bytes": read, "head": 0, "list": 0}
    if store == "s3a":
        c = local_s3.request_counts(spark, BUCKET)
        return {"gets": local_s3.round_trips(c), "bytes": c["bytes"], "head": c["head"], "list": c["list"]}
    return {"gets": 0, "bytes": fs_bytes(spark), "head": 0, "list": 0}


def run(
    spark: Any, df_of: Callable[[dict[str, str]], Any], opts: dict[str, str], where: str, store: str
) -> tuple[float, dict[str, int], dict[str, Any]]:
    before = counts(spark, store)
    started = time.perf_counter()
    df = df_of(opts).where(where).select("k")
    rows = df.collect()
    seconds = time.perf_counter() - started
    after = counts(spark, store)
    return seconds, {k: after[k] - before[k] for k in after}, {"rows": len(rows), **bp.scan_metrics(df)}


def upload(endpoint: str, data: Path) -> str:
    """`data`'s Parquet files in the local S3 server's bucket; their s3a:// path."""
    s3 = local_s3.client(endpoint, [BUCKET])
    for f in sorted(data.glob("*.parquet")):
        s3.upload_file(str(f), BUCKET, f"{data.name}/{f.name}")
    return f"s3a://{BUCKET}/{data.name}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=400)
    ap.add_argument("--filter-mib", type=int, default=1)
    ap.add_argument("--filter-kib", type=int, default=0, help="filters below 1 MiB (overrides --filter-mib)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", type=Path, default=ROOT / "bench-out")
    ap.add_argument("--latency-ms", type=int, default=0, help="read through slow:// at this latency per request")
    ap.add_argument("--mbps", type=float, default=100.0, help="slow://'s bandwidth per stream, MB/s (0: unlimited)")
    ap.add_argument("--driver-mbps", type=float, default=1000.0, help="slow://'s bandwidth of all streams, MB/s")
    ap.add_argument("--threads", type=int, default=16, help="files planned at once (bloom.planningParallelism)")
    ap.add_argument("--only", default="", help="comma list of queries to run (default: all)")
    ap.add_argument("--ways", default="", help="comma list of ways to run (default: all)")
    ap.add_argument("--temps", default="cold,warm", help="comma list of cold, warm")
    ap.add_argument("--s3a", action="store_true", help="read through Hadoop's S3A from a local S3 server")
    ap.add_argument("--writer", choices=["spark", "ours"], default="spark", help="the files' writer")
    ap.add_argument(
        "--warmup",
        type=int,
        default=0,
        help="uncounted runs of each way before its rounds (a long-running driver's JIT)",
    )
    ap.add_argument("--rows-per-file", type=int, default=ROWS_PER_FILE, help="rows of each file (one row group)")
    args = ap.parse_args()
    conf = {
        "spark.driver.memory": "6g",
        "spark.sql.shuffle.partitions": "4",
        "spark.bloomparquet.planning.threads": str(max(16, args.threads)),
    }
    store = "slow" if args.latency_ms else "s3a" if args.s3a else "local"
    if args.latency_ms:
        conf.update(slow_store.session_conf())
    if args.s3a:
        server, endpoint = local_s3.start_server()
        conf.update(local_s3.session_conf(endpoint, **{"input.stream.type": "classic"}))
    spark = bp.session(**conf)
    kib = args.filter_kib or args.filter_mib * 1024
    size = f"{kib}k" if kib % 1024 else f"{kib // 1024}m"
    rows_tag = "" if args.rows_per_file == ROWS_PER_FILE else f"-{args.rows_per_file}rows"
    data = args.out / (
        f"filter-reads-{args.files}x{size}-scattered{rows_tag}"
        if args.writer == "spark"
        else f"filter-reads-{args.files}-ours{rows_tag}"
    )
    label = f"{size}iB filters" if args.writer == "spark" else "our writer's filters"
    write(spark, data, args.files, kib, args.writer, args.rows_per_file)
    table = str(data)
    cost: dict[str, str] = {}
    if args.latency_ms:
        slow_store.set_latency(spark, args.latency_ms, args.mbps, args.driver_mbps)
        table = f"slow://{data}"
        cost = {
            "bloom.readCost.latencyMicros": str(args.latency_ms * 1000),
            "bloom.readCost.megabytesPerSecond": str(int(args.mbps)),
            "bloom.readCost.driverMegabytesPerSecond": str(int(args.driver_mbps)),
            "bloom.readCost.parallelRanges": "4",
        }
    cost["bloom.planningParallelism"] = str(args.threads)
    if args.s3a:
        table = upload(endpoint, data)
    n = args.files * args.rows_per_file
    absent = [2 * (i * (MODULUS // 1000)) + 1 for i in range(1000)]  # odd, spread over every file's min/max
    queries = {
        "point miss": absent[500:501],
        "point hit": [key(n // 2)],
        "IN 10": [key(i * n // 10) for i in range(10)],
        "IN 1000 absent": absent,
    }

    def ours(reads: str, **more: str) -> Callable[[dict[str, str]], Any]:
        return lambda o: (
            spark.read.format("bloomparquet").options(**{**cost, "bloom.filterReads": reads, **more, **o}).load(table)
        )

    ways = {"whole": ours("whole"), "blocks": ours("blocks")}
    if args.latency_ms:
        ways["blocks_1by1"] = ours("blocks", **{"bloom.readCost.parallelRanges": "1"})
    ways.update({"auto": ours("auto"), "parquet": lambda o: spark.read.parquet(table)})
    if args.only:
        queries = {q: v for q, v in queries.items() if q in args.only.split(",")}
    if args.ways:
        ways = {w: f for w, f in ways.items() if w in args.ways.split(",")}
    print(f"{args.files} files, {label}, {store}; best of {args.rounds}", flush=True)
    results = []
    for name, values in queries.items():
        where = f"k IN ({', '.join(map(str, values))})"
        footers, filters, probed = minimum_bytes(data, values)
        minimum = footers + probed
        for way, df_of in ways.items():
            for temp, opts in (("cold", {"bloom.cache": "false"}), ("warm", {"bloom.cache": "true"})):
                if (way == "parquet" and temp == "warm") or temp not in args.temps.split(","):
                    continue
                if temp == "warm":
                    run(spark, df_of, opts, where, store)  # fills the cache
                for _ in range(args.warmup):  # the JIT's, not the cache's: every way alike
                    run(spark, df_of, opts, where, store)
                best = min((run(spark, df_of, opts, where, store) for _ in range(args.rounds)), key=lambda r: r[0])
                seconds, used, m = best
                read = used["bytes"]
                row = {
                    "query": name, "way": way, "temp": temp, "seconds": round(seconds, 3), "bytes": read,
                    "minimum": minimum, "ratio": round(read / minimum, 2) if minimum else None,
                    "planning_bytes": m.get("bloomPlanningBytesRead", 0),
                    "planning_ratio": round(m.get("bloomPlanningBytesRead", 0) / minimum, 2) if minimum else None,
                    "filter_reads_per_file": round(m.get("bloomFilterReads", 0) / args.files, 2),
                    "in_blocks": m.get("bloomFiltersReadInBlocks"), "filter_bytes": m.get("bloomFilterBytesRead"),
                    "rows": m["rows"], "probed_filters": filters, "gets_per_file": round(used["gets"] / args.files, 2),
                    "heads": used["head"], "lists": used["list"],
                }  # fmt: skip
                results.append(row)
                print(json.dumps(row), flush=True)
    base_way = "parquet" if "parquet" in ways else next(iter(ways))
    base = {(r["query"]): r["seconds"] for r in results if r["way"] == base_way and r["temp"] == "cold"}
    print(
        f"\n{'query':<16}{'way':<13}{'temp':<6}{'MiB read':>10}{'x minimum':>11}{'planning MiB':>14}{'x min':>9}"
        f"{'reads/file':>11}{'GETs/file':>10}{'s':>8}{'vs ' + base_way:>11}"
    )
    for r in results:
        print(
            f"{r['query']:<16}{r['way']:<13}{r['temp']:<6}{r['bytes'] / 2**20:>10.2f}{r['ratio']:>11}"
            f"{r['planning_bytes'] / 2**20:>14.3f}{r['planning_ratio']:>9}"
            f"{r['filter_reads_per_file']:>11}{r['gets_per_file']:>10}{r['seconds']:>8.3f}"
            f"{r['seconds'] / base[r['query']]:>11.2f}"
        )
    if args.s3a:
        spark.stop()
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
