"""Big IN lists against the physics bound, in one Spark application.

    .venv/bin/python bench/in_lists.py                     # 3 datasets x 256 row groups, ~5 min on 2 cores
    .venv/bin/python bench/in_lists.py --fpp 0.001 --ns 20000 --reps 3

A row group holding none of n probed values survives a filter of false-positive
rate p with probability 1-(1-p)^n, so the row groups bloomparquet can keep are
at least  present + others * (1-(1-p)^n)  (the bound; p is the filters' real
rate, from their bit fill). For each dataset (written
by our writer with filters at each --fpp) and each IN list (n absent values, and
n-3 absent plus 3 present), this prints and writes (--out: results.json and
results.md): row groups kept vs that bound, row groups kept unprobed by the
early stop, filter bytes read, and best-of-N wall time of the same query on
`bloomparquet` (cache off: every run reads what it needs), `bloomparquet` with
`bloom.earlyStop=false` (what it did before), `bloomparquet` with its cache,
and Spark's `parquet` (defaults), with each time relative to `parquet`'s.
Then: the time to encode and hash 1,000,000 IN values for one file schema (what
a static IN costs once per query and schema).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

import bloomparquet as bp
from bloomparquet.reference import read_bloom_filters
from bloomparquet.tools.estimate import fpp as fill_fpp

PRIME = 1_000_000_007  # keys: id * 2654435761 mod PRIME, doubled: unsorted, distinct, even (odd ones are absent)


def key(i: int) -> int:
    return i * 2654435761 % PRIME * 2


def write_dataset(spark, out: Path, rows: int, files: int, group_rows: int, fpp: float) -> None:
    """`files` files of `rows / files` consecutive ids, row groups of `group_rows` rows, filters on `k` at `fpp`."""
    if (out / "_SUCCESS").exists():
        return
    (
        spark.range(0, rows, 1, files)
        .selectExpr(f"id * 2654435761 % {PRIME} * 2 AS k", "id AS v", "rand(7) AS amount")
        .write.format("bloomparquet")
        .mode("overwrite")
        .option("parquet.block.size", 1 << 30)
        .option("parquet.block.row.count.limit", group_rows)
        .option("bloom.columns", "k")
        .option("bloom.fpp", fpp)
        .save(str(out))
    )


def row_group_of(out: Path, rows: int, files: int) -> dict[int, tuple[str, int]]:
    """Maps the first id of each row group to (file, row group), checking the layout we rely on."""
    per_file = rows // files
    starts = {}
    for f in sorted(out.glob("*.parquet")):
        meta = pq.ParquetFile(f).metadata
        first_id = pq.ParquetFile(f).read_row_group(0, columns=["v"]).column("v")[0].as_py()
        assert first_id % per_file == 0, f
        at = first_id
        for rg in range(meta.num_row_groups):
            starts[at] = (f.name, rg)
            at += meta.row_group(rg).num_rows
    return starts


def absent_values(n: int, seed: int) -> list[int]:
    """n distinct random odd values in the middle of the keys' range: statistics can't exclude them.
    Random, not consecutive: consecutive odd values drew ~1.4x the false positives of random ones
    from these filters at FPP 0.01 % (xxHash64 of an arithmetic progression)."""
    x = np.random.default_rng(seed).choice(PRIME // 2, n, replace=False) + PRIME // 4
    return [int(v) * 2 + 1 for v in x]


def mean_fill_fpp(path: Path) -> float:
    """The filters' real false-positive rate: the mean over all of them of what their bit fill says."""
    return float(np.mean([fill_fpp(f) for x in sorted(path.glob("*.parquet")) for f in read_bloom_filters(x).values()]))


def present_groups(ids: list[int], starts: dict[int, tuple[str, int]]) -> int:
    firsts = sorted(starts)
    return len({starts[max(s for s in firsts if s <= i)] for i in ids})


def in_clause(values: list[int]) -> str:
    return f"k IN ({', '.join(map(str, values))})"


def timed(spark, make_df, where: str) -> tuple[float, dict[str, int], int]:
    q = make_df().where(where).selectExpr("count(*) AS n", "sum(amount) AS s")
    t = time.perf_counter()
    n = q.collect()[0]["n"]
    return time.perf_counter() - t, bp.scan_metrics(q), n


def hash_million(spark, n: int = 1_000_000, reps: int = 3) -> list[float]:
    """Seconds to compile `k IN (n longs)` against one file schema: encode, hash (xxHash64) and sort the values."""
    jvm = spark._jvm
    values = jvm.scala.Predef.wrapRefArray(jvm.java.util.stream.LongStream.range(0, n).boxed().toArray()).toIndexedSeq()
    path = jvm.scala.jdk.javaapi.CollectionConverters.asScala(jvm.java.util.Collections.singletonList("k")).toSeq()
    long_type = getattr(jvm.org.apache.spark.sql.types, "LongType$").__getattr__("MODULE$")
    predicate = jvm.io.bloomparquet.pruning.BloomPredicate.__getattr__("in")(path, long_type, values)
    schema = jvm.org.apache.parquet.schema.MessageTypeParser.parseMessageType("message m { required int64 k; }")
    out = []
    for _ in range(reps):
        t = time.perf_counter()
        jvm.io.bloomparquet.pruning.CompiledPredicate.compile(predicate, schema, False)
        out.append(time.perf_counter() - t)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fpp", default="0.01,0.001,0.0001", help="filter FPPs, one dataset each")
    ap.add_argument("--ns", default="10,100,1000,10000,20000", help="IN list sizes")
    ap.add_argument("--groups", type=int, default=256, help="row groups per dataset")
    ap.add_argument("--group-rows", type=int, default=8000)
    ap.add_argument("--files", type=int, default=16)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--out", default="bench-out/in_lists")
    args = ap.parse_args()

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = args.groups * args.group_rows
    spark = bp.session(**{"spark.driver.memory": "3g", "spark.sql.adaptive.enabled": "true"})
    results = []
    header = (
        f"{'fpp':>7} {'query':<22} {'kept':>5} {'bound':>7} {'k/b':>5} {'unprb':>5} {'filt KiB':>8} "
        f"{'(before)':>8} {'bp s':>6} {'before s':>8} {'cached s':>8} {'parquet s':>9} {'bp/pq':>6} "
        f"{'bef/pq':>6} {'cach/pq':>7}"
    )
    for fpp in map(float, args.fpp.split(",")):
        path = out / f"data-fpp{fpp}"
        t = time.perf_counter()
        write_dataset(spark, path, rows, args.files, args.group_rows, fpp)
        starts = row_group_of(path, rows, args.files)
        total = len(starts)
        real_p = mean_fill_fpp(path)
        print(
            f"\ndataset fpp {fpp}: {rows:,} rows, {args.files} files, {total} row groups "
            f"({sum(f.stat().st_size for f in path.glob('*.parquet')) / 1e6:.0f} MB), ready in "
            f"{time.perf_counter() - t:.1f}s; filters' FPP from their fill {real_p:.3g}"
        )
        print(header)
        p = str(path)
        readers = {
            "bloomparquet": lambda p=p: bp.read_bloom(spark, p, **{"bloom.cache": False}),
            "before": lambda p=p: bp.read_bloom(spark, p, **{"bloom.cache": False, "bloom.earlyStop": False}),
            "cached": lambda p=p: bp.read_bloom(spark, p),
            "parquet": lambda p=p: spark.read.parquet(p),
        }
        for r in readers.values():  # JIT, listing
            r().where("k = 1").count()
        for n in map(int, args.ns.split(",")):
            absent = absent_values(n, seed=n)
            present_ids = [rows // 7, rows // 2 + 1, rows - 5]
            for present in (0, 3):
                values = absent[: n - present] + [key(i) for i in present_ids[:present]]
                where = in_clause(values)
                times: dict[str, list[float]] = {name: [] for name in readers}
                metrics: dict[str, dict[str, int]] = {}
                counts = set()
                for rep in range(args.reps):
                    names = list(readers)
                    for name in names[rep % len(names) :] + names[: rep % len(names)]:
                        s, m, c = timed(spark, readers[name], where)
                        times[name].append(s)
                        metrics[name] = m
                        counts.add(c)
                if counts != {present}:
                    raise SystemExit(f"readers disagree or miss rows: {counts} (want {present})")
                pg = present_groups(present_ids[:present], starts)
                bound = pg + (total - pg) * (1 - (1 - real_p) ** (n - present))
                m = metrics["bloomparquet"]
                kept = m["bloomRowGroupsTotal"] - m["bloomRowGroupsPrunedByBloom"] - m["bloomRowGroupsPrunedByStats"]
                best = {name: min(ts) for name, ts in times.items()}
                row = {
                    "fpp": fpp,
                    "fill_fpp": real_p,
                    "n": n,
                    "present": present,
                    "row_groups": total,
                    "kept": kept,
                    "bound": bound,
                    "kept_vs_bound": kept / bound if bound else None,
                    "unprobed": m["bloomRowGroupsUnprobed"],
                    "filter_bytes": m["bloomFilterBytesRead"],
                    "filter_bytes_before": metrics["before"]["bloomFilterBytesRead"],
                    "kept_before": metrics["before"]["bloomRowGroupsTotal"]
                    - metrics["before"]["bloomRowGroupsPrunedByBloom"]
                    - metrics["before"]["bloomRowGroupsPrunedByStats"],
                    "pruning_ms": m["bloomPruningTimeMs"],
                    "tasks": m["tasks"],
                    **{f"{name}_s": best[name] for name in readers},
                    **{f"{name}_vs_parquet": best[name] / best["parquet"] for name in readers if name != "parquet"},
                }
                results.append(row)
                query = f"IN {n:,}" + (f" ({present} present)" if present else " absent")
                print(
                    f"{fpp:>7} {query:<22} {kept:>5} {bound:>7.1f} {row['kept_vs_bound']:>5.2f} {row['unprobed']:>5} "
                    f"{row['filter_bytes'] / 1024:>8.0f} {row['filter_bytes_before'] / 1024:>8.0f} "
                    f"{best['bloomparquet']:>6.3f} {best['before']:>8.3f} {best['cached']:>8.3f} "
                    f"{best['parquet']:>9.3f} {row['bloomparquet_vs_parquet']:>5.2f}x {row['before_vs_parquet']:>5.2f}x "
                    f"{row['cached_vs_parquet']:>6.2f}x",
                    flush=True,
                )

    hashing = hash_million(spark)
    print(
        f"\ncompile IN of 1,000,000 longs for one schema (encode, hash, sort): first {hashing[0]:.3f}s, "
        f"best {min(hashing):.3f}s"
    )
    (out / "results.json").write_text(json.dumps({"rows": results, "hash_1m_s": hashing}, indent=1))
    cols = [
        "fpp",
        "n",
        "present",
        "row_groups",
        "kept",
        "bound",
        "kept_vs_bound",
        "unprobed",
        "filter_bytes",
        "filter_bytes_before",
        "bloomparquet_s",
        "before_s",
        "cached_s",
        "parquet_s",
        "bloomparquet_vs_parquet",
        "before_vs_parquet",
        "cached_vs_parquet",
    ]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in results:
        lines.append("| " + " | ".join(f"{r[c]:.3g}" if isinstance(r[c], float) else str(r[c]) for c in cols) + " |")
    lines.append(f"\nIN of 1,000,000 longs compiled for one schema: best {min(hashing):.3f} s of {len(hashing)}.")
    (out / "results.md").write_text("\n".join(lines) + "\n")
    print(f"wrote {out / 'results.json'} and {out / 'results.md'}")
    spark.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
