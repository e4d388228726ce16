"""How fast one core retrofits: the rates ``retrofit --dry-run`` estimates its time from.

    .venv/bin/python bench/retrofit_rate.py                       # 8 files of 1 M rows
    .venv/bin/python bench/retrofit_rate.py --files 4 --rows 500000 --rounds 2

pyarrow writes files without filters (snappy, row groups of 128 K rows): ``id`` a random int64,
``uuid`` a random 36-character string, ``amount`` a double, ``note`` a 40-character string. One
Spark task per file on ``local[1]``, so the time is one core's. For each column set, best of
``--rounds``, each round on a fresh copy: the retrofit time, and what it is made of by the model
the dry run uses, ``seconds = values / per_value + column_bytes / per_byte + file_bytes / copy``
(``column_bytes``: the requested chunks' uncompressed bytes; ``file_bytes``: every byte, copied).
It fits ``per_value`` and ``per_byte`` by least squares over the column sets and prints the
constants to put in ``python/bloomparquet/tools/retrofit_plan.py`` with each set's error.

Results go to bench-out/retrofit-rate/results.json and stdout.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))

COLUMN_SETS = (["id"], ["uuid"], ["note"], ["id", "uuid"], ["id", "uuid", "amount", "note"])


def _write(out: Path, files: int, rows: int) -> None:
    rng = np.random.default_rng(7)
    out.mkdir(parents=True)
    for f in range(files):
        raw = rng.integers(0, 256, size=(rows, 18), dtype=np.uint8)
        uuids = [bytes(r).hex() for r in raw]
        table = pa.table(
            {
                "id": rng.integers(0, 1 << 62, rows),
                "uuid": [f"{u[:8]}-{u[8:12]}-{u[12:16]}-{u[16:20]}-{u[20:32]}" for u in uuids],
                "amount": rng.random(rows) * 1000,
                "note": [f"note {u}"[:40].ljust(40, "x") for u in uuids],
            }
        )
        pq.write_table(table, out / f"part-{f:03d}.parquet", row_group_size=128 * 1024)


def _chunk_bytes(path: Path, columns: list[str]) -> tuple[int, int, int]:
    """Values, uncompressed bytes of ``columns``' chunks and the bytes of every file under ``path``."""
    values = col_bytes = file_bytes = 0
    for f in sorted(path.glob("*.parquet")):
        md = pq.ParquetFile(f).metadata
        file_bytes += f.stat().st_size
        for rg in range(md.num_row_groups):
            group = md.row_group(rg)
            for c in range(group.num_columns):
                chunk = group.column(c)
                if chunk.path_in_schema in columns:
                    values += chunk.num_values
                    col_bytes += chunk.total_uncompressed_size
    return values, col_bytes, file_bytes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=8)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", default=str(ROOT / "bench-out" / "retrofit-rate"))
    args = ap.parse_args()

    import bloomparquet as bp

    out = Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    source = out / "source"
    _write(source, args.files, args.rows)
    spark = bp.session("local[1]")
    copy = []
    for r in range(args.rounds):
        t = time.perf_counter()
        shutil.copytree(source, out / f"copy-{r}")
        copy.append(time.perf_counter() - t)
        shutil.rmtree(out / f"copy-{r}")
    results = []
    for columns in COLUMN_SETS:
        values, col_bytes, file_bytes = _chunk_bytes(source, columns)
        times = []
        for r in range(args.rounds):
            target = out / f"run-{r}"
            shutil.copytree(source, target)
            t = time.perf_counter()
            done = bp.retrofit(spark, str(target), columns)
            times.append(time.perf_counter() - t)
            assert all(d["status"] == "retrofitted" for d in done), done
            shutil.rmtree(target)
        results.append(
            {
                "columns": columns,
                "values": values,
                "column_bytes": col_bytes,
                "file_bytes": file_bytes,
                "seconds": min(times),
                "rounds": times,
            }
        )
    spark.stop()
    copy_rate = results[0]["file_bytes"] / min(copy)
    # seconds - file_bytes/copy = per_file * files + values * a + column_bytes * b, least squares
    lhs = np.array([[args.files, r["values"], r["column_bytes"]] for r in results], dtype=float)
    rhs = np.array([r["seconds"] - r["file_bytes"] / copy_rate for r in results])
    (per_file, a, b), *_ = np.linalg.lstsq(lhs, rhs, rcond=None)
    print(
        f"copy: {copy_rate / 1e6:,.0f} MB/s; per file: {per_file:.3f} s; per value: {a * 1e9:.1f} ns; "
        f"per column byte: {b * 1e9:.2f} ns ({1 / b / 1e6:,.0f} MB/s)"
    )
    print("| columns | values | column MB | file MB | retrofit s | model s | model / measured |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in results:
        model = per_file * args.files + r["values"] * a + r["column_bytes"] * b + r["file_bytes"] / copy_rate
        r["model_seconds"] = model
        print(
            f"| {','.join(r['columns'])} | {r['values']:,} | {r['column_bytes'] / 1e6:,.1f} | "
            f"{r['file_bytes'] / 1e6:,.1f} | {r['seconds']:.2f} | {model:.2f} | {model / r['seconds']:.2f} |"
        )
    report = {
        "files": args.files,
        "rows_per_file": args.rows,
        "copy_bytes_per_second": copy_rate,
        "seconds_per_file": per_file,
        "seconds_per_value": a,
        "seconds_per_column_byte": b,
        "results": results,
    }
    (out / "results.json").write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
