"""End-to-end: the same selective queries through `bloomparquet` and through
Spark's `parquet` (bloom filters on and off), in one Spark application.

    .venv/bin/python bench/e2e.py                 # 20 M rows, 16 files
    .venv/bin/python bench/e2e.py --rows 4000000  # quicker
    .venv/bin/python bench/e2e.py --many-files 1000 --out bench-out/e2e-many   # 1,000 small files

Writes bench-out/e2e/data (reused when present) and bench-out/e2e/results.csv,
and prints best-of-N wall time, tasks, rows scanned and filter bytes per query
and reader, with each reader's time relative to `parquet` with bloom filters on.
Each round runs every reader once, in an order that rotates between rounds, so
no reader always runs first (cold JIT for a new query) or last. The first
round's time is reported too: it is the one that reads footers and filters
before bloomparquet's cache holds them.
"""

from __future__ import annotations

import argparse
import csv
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import bloomparquet as bp


def write_dataset(out: Path, rows: int, files: int, row_group_rows: int, fpp: float, seed: int = 7) -> np.ndarray:
    """Unsorted high-cardinality even keys (odd keys are absent) in `files` files; returns the keys."""
    marker = out / "_KEYS.npy"
    if marker.exists():
        return np.load(marker)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    keys = (rng.permutation(rows * 4)[:rows].astype(np.int64) * 2) + 10**12
    per_file = rows // files
    for f in range(files):
        part = keys[f * per_file : (f + 1) * per_file]
        table = pa.table(
            {
                "order_id": part,
                "customer": pa.array([f"c{k % 9_999_991}" for k in part]),
                "amount": rng.random(len(part)),
                "payload": pa.array(rng.integers(0, 2**62, len(part))),
            }
        )
        # No dictionary for the key: a high-cardinality column in a big row group overflows any
        # dictionary (parquet-java falls back to plain), so dictionary filtering can't prune it.
        pq.write_table(
            table,
            out / f"part-{f:05d}.parquet",
            row_group_size=row_group_rows,
            use_dictionary=["customer"],
            bloom_filter_options={"order_id": {"ndv": min(row_group_rows, per_file), "fpp": fpp}},
        )
    np.save(marker, keys)
    return keys


def many_files_queries(keys: np.ndarray, rng: np.random.Generator) -> dict[str, str]:
    everything = queries(keys, rng)
    return {k: everything[k] for k in ("point miss", "point hit", "IN 5 absent", "IN 100 absent")}


def queries(keys: np.ndarray, rng: np.random.Generator) -> dict[str, str]:
    """Query name -> WHERE clause; "STAR:keys" is a join to a dimension holding those keys (``star_dimension``)."""
    hit = int(keys[len(keys) // 3])
    lo, hi = int(keys.min()), int(keys.max())

    def absent(n: int) -> list[int]:
        return [int(x) * 2 + 1 for x in rng.integers(lo // 2, hi // 2, n)]  # odd: never present

    def in_list(values: list[int]) -> str:
        return f"order_id IN ({', '.join(map(str, values))})"

    out = {"point hit": f"order_id = {hit}", "point miss": f"order_id = {absent(1)[0]}"}
    for n in (5, 100, 1000, 20000):
        out[f"IN {n} absent"] = in_list(absent(n))
        out[f"IN {n} one present"] = in_list([*absent(n - 1), hit])
    out["full scan (amount > 0.5)"] = "amount > 0.5"
    # The key joined to a dimension table filtered down to 20 keys (1 present): Spark's dynamic
    # pruning hands bloomparquet those keys at runtime; Spark's parquet can use them only on
    # partition columns.
    out["star join (20 keys)"] = "STAR:" + ",".join(map(str, [*absent(19), hit]))
    return out


@contextmanager
def _session_conf(spark, conf: dict[str, str]) -> Iterator[None]:
    for k, v in conf.items():
        spark.conf.set(k, v)
    try:
        yield
    finally:
        for k in conf:
            spark.conf.unset(k)


def star_dimension(spark, keys: str, out: Path) -> str:
    """Writes the dimension of a "STAR:keys" query (its keys in group 1, 80 others in group 7); its path."""
    rows = [(int(k), 1) for k in keys.split(",")] + [(2 * i + 1, 7) for i in range(80)]
    spark.createDataFrame(rows, "order_id long, g int").coalesce(1).write.mode("overwrite").parquet(str(out))
    return "DIM:" + str(out)


def query_of(spark, df, where: str):
    """The timed query: a global aggregate over the rows `where` keeps (or joins, for "DIM:path")."""
    if where.startswith("DIM:"):
        # A file scan with a filter: what makes Spark plan dynamic pruning for the fact side.
        q = df.join(spark.read.parquet(where[4:]).where("g <> 7"), "order_id")
    else:
        q = df.where(where)
    return q.selectExpr("count(*) AS n", "sum(amount) AS s")


def time_once(spark, df, where: str, conf: dict[str, str]) -> tuple[float, dict[str, int], int]:
    with _session_conf(spark, conf):
        q = query_of(spark, df, where)
        t = time.perf_counter()
        count = q.collect()[0]["n"]
        elapsed = time.perf_counter() - t
        return elapsed, bp.scan_metrics(q), count


def run_query(spark, readers: dict, where: str, reps: int) -> dict[str, dict]:
    """Times per reader over `reps` rounds; the reader order rotates between rounds."""
    names = list(readers)
    times: dict[str, list[float]] = {n: [] for n in names}
    last: dict[str, tuple[dict[str, int], int]] = {}
    for r in range(reps):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            df, conf = readers[name]
            elapsed, metrics, count = time_once(spark, df, where, conf)
            times[name].append(elapsed)
            last[name] = (metrics, count)
    return {
        n: {
            "first_s": times[n][0],
            "best_s": min(times[n]),
            "median_s": float(np.median(times[n])),
            "metrics": last[n][0],
            "count": last[n][1],
        }
        for n in names
    }


def agree(query: str, results: dict[str, dict]) -> None:
    """Exits when the readers of `run_query`'s results disagree on the answer."""
    counts = {reader: r["count"] for reader, r in results.items()}
    if len(set(counts.values())) != 1:
        raise SystemExit(f"{query}: readers disagree on the answer: {counts}")


def write_results(rows: list[dict], out: Path) -> None:
    """`rows` (one dict per query and reader) as out/results.csv."""
    with open(out / "results.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print(f"\nwrote {out / 'results.csv'}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=20_000_000)
    ap.add_argument("--files", type=int, default=16)
    ap.add_argument("--row-group-rows", type=int, default=250_000)
    ap.add_argument(
        "--many-files",
        type=int,
        default=0,
        help="instead: this many small files of --rows-per-file rows, one row group each",
    )
    ap.add_argument("--rows-per-file", type=int, default=5_000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--fpp", type=float, default=0.001, help="bloom filter FPP the dataset is written with")
    ap.add_argument("--out", default="bench-out/e2e")
    ap.add_argument("--only", default="", help="comma-separated query name prefixes")
    ap.add_argument(
        "--early-stop-off",
        action="store_true",
        help="also time bloomparquet with bloom.earlyStop=false (reads every filter, as before it)",
    )
    ap.add_argument(
        "--pushdown-all",
        action="store_true",
        help="also time bloomparquet with bloom.sparkPushdown=all (Spark's page skipping by column index on)",
    )
    args = ap.parse_args()

    out = Path(args.out)
    t = time.perf_counter()
    if args.many_files:
        # Small files of one row group each (what streaming ingestion leaves behind).
        keys = write_dataset(
            out / "data", args.many_files * args.rows_per_file, args.many_files, args.rows_per_file, args.fpp, seed=11
        )
        shape = f"{args.many_files:,} files of {args.rows_per_file:,} rows"
    else:
        keys = write_dataset(out / "data", args.rows, args.files, args.row_group_rows, args.fpp)
        shape = f"{args.rows:,} rows, {args.files} files, {args.row_group_rows:,}-row groups"
    size = sum(f.stat().st_size for f in (out / "data").glob("*.parquet")) / 1e6
    print(f"dataset: {shape} ({size:.0f} MB), ready in {time.perf_counter() - t:.1f}s")

    spark = bp.session(**{"spark.driver.memory": "4g", "spark.sql.adaptive.enabled": "true"})
    path = str(out / "data")
    # Reader -> (DataFrame, session settings while it runs). parquet-java reads its switches from the
    # Hadoop conf, which Spark builds from the session conf per query (read options don't reach it).
    readers = {
        "bloomparquet": (bp.read_bloom(spark, path), {}),
        "parquet (bloom on)": (spark.read.parquet(path), {"parquet.filter.bloom.enabled": "true"}),
        "parquet (bloom off)": (spark.read.parquet(path), {"parquet.filter.bloom.enabled": "false"}),
    }
    if args.early_stop_off:
        readers["bloomparquet (early stop off)"] = (bp.read_bloom(spark, path, **{"bloom.earlyStop": False}), {})
    if args.pushdown_all:
        # bloom.sparkPushdown=all also hands Spark page skipping by column index (off by default since it loses rows
        # on files with wrong column indexes): the cost of that default, in the same run.
        readers["bloomparquet (pushdown all)"] = (bp.read_bloom(spark, path, **{"bloom.sparkPushdown": "all"}), {})
    qs = (many_files_queries if args.many_files else queries)(keys, np.random.default_rng(1))
    if args.only:
        qs = {k: v for k, v in qs.items() if any(k.startswith(p.strip()) for p in args.only.split(","))}
    qs = {
        k: star_dimension(spark, v[5:], out / "dim" / str(i)) if v.startswith("STAR:") else v
        for i, (k, v) in enumerate(qs.items())
    }
    # Warm up JIT and file listing; bloomparquet without its cache, so round 1 reads footers and filters.
    warm = {"bloomparquet": bp.read_bloom(spark, path, **{"bloom.cache": False})}
    for name, (df, conf) in readers.items():
        with _session_conf(spark, conf):
            warm.get(name, df).where("order_id = 1").count()
    print(
        f"\n{'query':<24} {'reader':<20} {'best s':>7} {'median':>7} {'first':>7} {'best vs on':>10} {'tasks':>6} "
        f"{'rows scanned':>13} {'RG pruned':>10} {'filter KiB':>10} {'count':>6}"
    )
    rows = []
    for name, where in qs.items():
        results = run_query(spark, readers, where, args.reps)
        agree(name, results)
        base = results["parquet (bloom on)"]["best_s"]
        for reader, r in results.items():
            m = r["metrics"]
            row = {
                "query": name,
                "reader": reader,
                "best_s": r["best_s"],
                "median_s": r["median_s"],
                "first_s": r["first_s"],
                "ratio_vs_bloom_on": r["best_s"] / base,
                "tasks": m.get("tasks", 0),
                "rows_scanned": m.get("numOutputRows", 0),
                "row_groups_total": m.get("bloomRowGroupsTotal", ""),
                "row_groups_pruned": m.get("bloomRowGroupsPrunedByBloom", 0) + m.get("bloomRowGroupsPrunedByStats", 0)
                if "bloomRowGroupsTotal" in m
                else "",
                "filter_bytes": m.get("bloomFilterBytesRead", ""),
                "pruning_ms": m.get("bloomPruningTimeMs", ""),
                "count": r["count"],
            }
            rows.append(row)
            pruned = f"{row['row_groups_pruned']}/{row['row_groups_total']}" if row["row_groups_total"] != "" else "-"
            fkib = f"{int(row['filter_bytes']) / 1024:.0f}" if row["filter_bytes"] != "" else "-"
            print(
                f"{name:<24} {reader:<20} {row['best_s']:>7.3f} {row['median_s']:>7.3f} {row['first_s']:>7.3f} "
                f"{row['ratio_vs_bloom_on']:>9.2f}x {row['tasks']:>6} {row['rows_scanned']:>13,} {pruned:>10} "
                f"{fkib:>10} {row['count']:>6}",
                flush=True,
            )
    write_results(rows, out)
    spark.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
