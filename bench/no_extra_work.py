"""No extra work where files have no bloom filters: every bloomparquet route against the reader it
replaces (Spark's ``parquet``; Delta alone), one session, on a table with dictionary-encoded UUID
strings, page indexes and no bloom filter at all (pyarrow's writer; the Delta table by delta-rs from
the same batches).

    .venvs/spark-4.2/bin/python bench/no_extra_work.py                  # 50 M rows, with Delta
    .venv/bin/python bench/no_extra_work.py --rows 20000000 --no-delta

Queries: a point hit, a point miss (inside every row group's min and max: only dictionaries rule it
out), an IN of 10 (2 present), and a range on a sorted column (only page indexes narrow it within a
row group). Per query and way: best of ``--rounds`` wall times (the ways in turn, reversed each
round), rows decoded (the scan's ``numOutputRows``), tasks, and each way's ratios to its baseline.
No pruning figure here depends on bloom filters, so no false-positive bound applies.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.decoded import ratio  # noqa: E402
from tests.delta.conftest import DELTA_EXTENSION, delta_package  # noqa: E402

ROW_GROUP = 16_384  # a row group's dictionary of UUIDs (~600 KB) stays under writers' 1 MB limit
PAGE_ROWS = 2_048  # pages of ~2,048 rows of a long column (pyarrow sizes pages in bytes)


def uuids(rng: np.random.Generator, n: int) -> pa.Array:
    """``n`` random version-4 UUID strings, made without a Python loop."""
    hexdigits = np.frombuffer(b"0123456789abcdef", np.uint8)
    nibbles = rng.integers(0, 16, size=(n, 32), dtype=np.uint8)
    nibbles[:, 12] = 4
    text = np.full((n, 36), ord("-"), np.uint8)
    for dst, (a, b) in zip([0, 9, 14, 19, 24], [(0, 8), (8, 12), (12, 16), (16, 20), (20, 32)], strict=True):
        text[:, dst : dst + b - a] = hexdigits[nibbles[:, a:b]]
    return pa.array(text.view("S36").ravel()).cast(pa.string())


def batch(rng: np.random.Generator, start: int, n: int) -> pa.Table:
    seq = np.arange(start, start + n, dtype=np.int64)
    return pa.table({"seq": seq, "ks": uuids(rng, n), "k": rng.permutation(seq), "v": rng.random(n)})


def write(out: Path, rows: int, files: int, delta: bool) -> tuple[Path, Path | None]:
    parquet, delta_dir = out / "parquet", (out / "delta" if delta else None)
    if (out / "_done").exists():
        return parquet, delta_dir
    parquet.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(7)
    per_file = rows // files
    for f in range(files):
        table = batch(rng, f * per_file, per_file)
        pq.write_table(
            table,
            parquet / f"part-{f:05d}.parquet",
            row_group_size=ROW_GROUP,
            data_page_size=PAGE_ROWS * 8,  # pyarrow sizes pages in bytes: ~2,048 rows of a long column
            write_page_index=True,
        )
        if delta_dir is not None:
            from deltalake import WriterProperties, write_deltalake

            props = WriterProperties(max_row_group_size=ROW_GROUP, data_page_row_count_limit=PAGE_ROWS)
            write_deltalake(str(delta_dir), table, mode="append", writer_properties=props)
    (out / "_done").touch()
    return parquet, delta_dir


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=50_000_000)
    ap.add_argument("--files", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-delta", action="store_true")
    ap.add_argument("--out", type=Path, default=Path("bench-out"))
    args = ap.parse_args()

    import pyspark

    import bloomparquet as bp

    package = None if args.no_delta else delta_package(pyspark.__version__)
    if not args.no_delta and package is None:
        print(f"Delta Lake has no release for Spark {pyspark.__version__}: run with .venvs/spark-4.2 or --no-delta")
        return 2
    conf = {"spark.driver.memory": os.environ.get("BENCH_DRIVER_MEMORY", "6g"), "spark.sql.session.timeZone": "UTC"}
    if package:
        conf.update(
            {
                "spark.jars.packages": package,
                "spark.sql.extensions": DELTA_EXTENSION,
                "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
            }
        )
    started = time.perf_counter()
    out = args.out / f"no-extra-work-{args.rows}x{args.files}"
    parquet, delta = write(out, args.rows, args.files, package is not None)
    print(f"table: {out} ({time.perf_counter() - started:.1f} s to make)", flush=True)
    spark = bp.session(master="local[2]", **conf)

    first = pq.ParquetFile(sorted(parquet.glob("*.parquet"))[0]).read_row_group(3, columns=["ks"]).column(0)
    present = [first[5].as_py(), first[900].as_py()]
    absent = ["f" + present[0][1:] if present[0][0] != "f" else "0" + present[0][1:]]
    absent += [str(i) + present[1][1:] for i in range(1, 9)]
    mid = args.rows // 2
    queries = {
        "point hit": f"ks = '{present[0]}'",
        "point miss": f"ks = '{absent[0]}'",
        "IN 10": "ks IN ({})".format(", ".join(f"'{v}'" for v in present + absent[1:])),
        "range (sorted)": f"seq BETWEEN {mid} AND {mid + 5_000}",
    }
    opt_in = {"spark.bloomparquet.parquet.enabled": "true"}
    delta_on = {"spark.bloomparquet.delta.enabled": "true"}
    ways: dict[str, tuple[str, object, dict[str, str]]] = {
        "parquet": ("parquet", lambda: spark.read.parquet(str(parquet)), {}),
        "bloomparquet plan": ("parquet", lambda: bp.read_bloom(spark, str(parquet)), {}),
        "bloomparquet task": ("parquet", lambda: bp.read_bloom(spark, str(parquet), **{"bloom.mode": "task"}), {}),
        "SQL on the path": ("parquet", lambda: spark.sql(f"SELECT * FROM bloomparquet.`{parquet}`"), {}),
        "parquet opted in": ("parquet", lambda: spark.read.parquet(str(parquet)), opt_in),
    }
    if delta is not None:
        ways["delta alone"] = ("delta alone", lambda: spark.read.format("delta").load(str(delta)), {})
        ways["delta + bloomparquet"] = ("delta alone", lambda: spark.read.format("delta").load(str(delta)), delta_on)

    def run(make, where: str, confs: dict[str, str]) -> tuple[float, int, int, int]:
        before = {k: spark.conf.get(k, None) for k in confs}
        for k, v in confs.items():
            spark.conf.set(k, v)
        try:
            df = make().where(where).select("seq")
            t = time.perf_counter()
            n = len(df.collect())
            took = time.perf_counter() - t
            m = bp.scan_metrics(df)
            return took, n, m.get("numOutputRows", 0), m.get("tasks", 0)
        finally:
            for k, v in before.items():
                spark.conf.unset(k) if v is None else spark.conf.set(k, v)

    header = f"{'query':<16} {'way':<22} {'best s':>7} {'rows':>5} {'decoded':>10} {'tasks':>5} {'time x':>7} {'decoded x':>9}"
    print(header)
    for name, where in queries.items():
        best: dict[str, tuple[float, int, int, int]] = {}
        order = list(ways)
        for r in range(args.rounds):
            for way in order if r % 2 == 0 else reversed(order):
                _, make, confs = ways[way]
                got = run(make, where, confs)
                if way not in best or got[0] < best[way][0]:
                    best[way] = got
        results = {b[1] for b in best.values()}
        assert len(results) == 1, (name, best)
        for way, (took, n, decoded, tasks) in best.items():
            base = best[ways[way][0]]
            times, rows_x = ratio(took, base[0]), ratio(decoded, base[2])
            print(
                f"{name:<16} {way:<22} {took:>7.3f} {n:>5} {decoded:>10,} {tasks:>5} {times:>6.2f}x {rows_x:>8.2f}x",
                flush=True,
            )
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
