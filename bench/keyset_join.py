"""Key-set lookups: `fact.join(keys, "k")` through `bloomparquet` (pruned by the keys at runtime,
the session extension's KeySetPruning) and through Spark's `parquet`, for key sets of n keys
against filters of false-positive rate p, next to the physics bound.

    .venv/bin/python bench/keyset_join.py --out bench-out/keyset          # a few minutes on 2 cores
    .venv/bin/python bench/keyset_join.py --million --out bench-out/keyset  # also 1,000,000 absent keys

A row group holding none of n keys survives a filter of FPP p with probability 1-(1-p)^n, so
expected kept = present row groups + others * (1-(1-p)^n), with p the filters' real rate (from their
bit fill: the writer sizes each filter for its row group, so it is below the nominal FPP). Filter
bytes come from a run that neither reads nor fills the cache (`bloom.cache=false`). The fact table (written by bloomparquet's
writer, unsorted unique even keys; odd keys are absent) is reused when present. Writes
results.json and results.md under --out.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

import bloomparquet as bp
from in_lists import mean_fill_fpp  # the filters' real FPP, from their bit fill
from reference_bench import _best as best_time  # best of N wall times


def write_fact(spark, out: Path, rows: int, group_rows: int, fpp: float) -> None:
    if (out / "_SUCCESS").exists():
        return
    df = spark.range(rows).selectExpr(f"(pmod(id * 7919, {rows}) * 2 + 1000000000000) AS k", "id * 31 AS payload")
    (
        df.repartition(2)
        .sortWithinPartitions("payload")
        .write.format("bloomparquet")
        .mode("overwrite")
        .option("bloom.columns", "k")
        .option("bloom.fpp", str(fpp))
        .option("parquet.block.size", str(group_rows * 16))
        .save(str(out))
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=1_024_000)
    ap.add_argument("--group-rows", type=int, default=4_000, help="rows per row group (about; by bytes)")
    ap.add_argument("--fpps", default="0.01,0.001,0.0001")
    ap.add_argument("--ns", default="10,100,1000,10000")
    ap.add_argument("--present", type=int, default=3, help="present keys in the 'present' variant")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--million", action="store_true", help="also 1,000,000 absent keys (hashing cost)")
    ap.add_argument("--out", default="bench-out/keyset")
    args = ap.parse_args()
    out = Path(args.out)
    spark = bp.session(**{"spark.driver.memory": "3g", "spark.sql.shuffle.partitions": "4"})
    rng = np.random.default_rng(5)
    results = []
    for fpp in [float(p) for p in args.fpps.split(",")]:
        path = out / f"fact-p{fpp}"
        write_fact(spark, path, args.rows, args.group_rows, fpp)
        real_p = mean_fill_fpp(path)
        readers = {"bloomparquet": bp.read_bloom(spark, str(path)), "parquet": spark.read.parquet(str(path))}
        ns = [int(n) for n in args.ns.split(",")] + ([1_000_000] if args.million else [])
        for n in ns:
            for variant in ("absent", "present"):
                if variant == "present" and n == 1_000_000:
                    continue
                present = args.present if variant == "present" else 0
                # Odd keys inside the fact keys' range: min/max statistics rule none out, so n is what is probed.
                absent = (rng.choice(args.rows, n - present, replace=False) * 2 + 1 + 10**12).tolist()
                hits = (rng.choice(args.rows, present, replace=False) * 2 + 10**12).tolist()
                keys_path = out / "keys" / f"p{fpp}-n{n}-{variant}"
                spark.createDataFrame([(int(k),) for k in absent + hits], "k BIGINT").coalesce(1).write.mode(
                    "overwrite"
                ).parquet(str(keys_path))
                keys = spark.read.parquet(str(keys_path))
                row = {"fpp": fpp, "n": n, "variant": variant}
                for name, fact in readers.items():
                    # A new DataFrame per run: each plans (and prunes) afresh, as a new query would.
                    row[f"{name}_s"] = best_time(
                        lambda f=fact, k=keys: f.join(k, "k").select("payload").collect(), args.reps
                    )
                    if name == "bloomparquet":
                        cold = bp.read_bloom(spark, str(path), **{"bloom.cache": False})
                        q = cold.join(keys, "k").select("payload")
                        found = len(q.collect())  # metrics exist only once it has run
                        m = bp.scan_metrics(q)
                        total = m["bloomRowGroupsTotal"]
                        kept = total - m["bloomRowGroupsPrunedByBloom"] - m["bloomRowGroupsPrunedByStats"]
                        bound = present + (total - present) * (1 - (1 - real_p) ** n)
                        row.update(
                            fill_fpp=round(real_p, 6),
                            row_groups=total,
                            kept=kept,
                            bound=round(bound, 1),
                            kept_vs_bound=round(kept / bound, 2) if bound else None,
                            filter_bytes=m["bloomFilterBytesRead"],
                            pruning_ms=m["bloomPruningTimeMs"],
                            rows=found,
                        )
                row["ratio"] = round(row["bloomparquet_s"] / row["parquet_s"], 2)
                results.append(row)
                print(json.dumps(row), flush=True)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(results, indent=1))
    cols = [
        "fpp",
        "fill_fpp",
        "n",
        "variant",
        "row_groups",
        "kept",
        "bound",
        "kept_vs_bound",
        "filter_bytes",
        "pruning_ms",
        "bloomparquet_s",
        "parquet_s",
        "ratio",
    ]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += [
        "| "
        + " | ".join(
            f"{r.get(c):.3f}" if isinstance(r.get(c), float) and c.endswith("_s") else str(r.get(c)) for c in cols
        )
        + " |"
        for r in results
    ]
    (out / "results.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    spark.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
