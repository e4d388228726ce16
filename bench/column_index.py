"""Page skipping by column index where it matters: a column sorted within each file, many pages per
row group, and point and short-range lookups on it. Readers, in one Spark application:

- `parquet` (Spark's reader, pushdown on: statistics, dictionaries, page skipping by column index);
- `bloomparquet` (the default `bloom.sparkPushdown=safe`: page skipping on for each split whose
  column and offset indexes agree with its footer, judged in the task);
- `bloomparquet (pushdown all)` (page skipping on, unchecked).

    .venv/bin/python bench/column_index.py                  # 20 M rows, 4 files, 1 M-row groups
    .venv/bin/python bench/column_index.py --rows 4000000   # quicker

Prints best-of-N wall time and rows scanned per query and reader, and each reader's time relative to
`parquet`. Writes bench-out/column_index/data (reused when present) and results.csv.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import bloomparquet as bp
from e2e import agree, run_query, write_results


def write_sorted(out: Path, rows: int, files: int, row_group_rows: int) -> None:
    """Each file holds a sorted run of even keys (odd keys are absent), pages of ~64 KiB, a page index."""
    if (out / "_DONE").exists():
        return
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(3)
    per_file = rows // files
    for f in range(files):
        keys = np.arange(f * per_file, (f + 1) * per_file, dtype=np.int64) * 2
        table = pa.table(
            {"order_id": keys, "amount": rng.random(per_file), "payload": rng.integers(0, 2**62, per_file)}
        )
        pq.write_table(
            table,
            out / f"part-{f:05d}.parquet",
            row_group_size=row_group_rows,
            data_page_size=64 << 10,
            write_page_index=True,
            use_dictionary=False,
            bloom_filter_options={"order_id": {"ndv": row_group_rows, "fpp": 0.01}},
        )
    (out / "_DONE").touch()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=20_000_000)
    ap.add_argument("--files", type=int, default=4)
    ap.add_argument("--row-group-rows", type=int, default=1_000_000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--out", default="bench-out/column_index")
    args = ap.parse_args()

    out = Path(args.out)
    t = time.perf_counter()
    write_sorted(out / "data", args.rows, args.files, args.row_group_rows)
    size = sum(f.stat().st_size for f in (out / "data").glob("*.parquet")) / 1e6
    print(
        f"dataset: {args.rows:,} sorted rows, {args.files} files, {args.row_group_rows:,}-row groups, "
        f"~64 KiB pages with a page index ({size:.0f} MB), ready in {time.perf_counter() - t:.1f}s"
    )

    spark = bp.session(**{"spark.driver.memory": "4g"})
    path = str(out / "data")
    readers = {
        "parquet": (spark.read.parquet(path), {}),
        "bloomparquet": (bp.read_bloom(spark, path), {}),
        "bloomparquet (pushdown all)": (bp.read_bloom(spark, path, **{"bloom.sparkPushdown": "all"}), {}),
    }
    mid = (args.rows // 3) * 2
    qs = {
        "point hit": f"order_id = {mid}",
        "point miss (odd)": f"order_id = {mid + 1}",
        "range 1,000 keys": f"order_id BETWEEN {mid} AND {mid + 2_000}",
        "range 0.1 %": f"order_id BETWEEN {mid} AND {mid + args.rows // 500}",
        "range 10 %": f"order_id BETWEEN {mid} AND {mid + args.rows // 5}",
    }
    for df, _ in readers.values():  # warm up JIT and listing
        df.where("order_id = -1").count()
    print(
        f"\n{'query':<20} {'reader':<28} {'best s':>7} {'median':>7} {'vs parquet':>10} {'rows scanned':>13} {'count':>8}"
    )
    rows = []
    for name, where in qs.items():
        results = run_query(spark, readers, where, args.reps)
        agree(name, results)
        base = results["parquet"]["best_s"]
        for reader, r in results.items():
            scanned = r["metrics"].get("numOutputRows", 0)
            row = {
                "query": name,
                "reader": reader,
                "best_s": r["best_s"],
                "median_s": r["median_s"],
                "ratio_vs_parquet": r["best_s"] / base,
                "rows_scanned": scanned,
                "count": r["count"],
            }
            rows.append(row)
            print(
                f"{name:<20} {reader:<28} {r['best_s']:>7.3f} {r['median_s']:>7.3f} {row['ratio_vs_parquet']:>9.2f}x "
                f"{scanned:>13,} {r['count']:>8,}",
                flush=True,
            )
    write_results(rows, out)
    spark.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
