"""The demo: write a dataset whose key column min/max statistics can't prune,
with bloom filters, then ask the JVM SBBF and the Python reference, row group by
row group, whether a few keys may be there, and time it."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np


def run_demo(rows: int = 200_000, out: str = "demo-out") -> int:
    """Run the demo; returns a process exit code (non-zero if JVM and Python disagree)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from . import session
    from ._session import jvm_bridge
    from .reference import read_bloom_filters, xxh64_plain

    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "events.parquet"

    rng = np.random.default_rng(42)
    keys = rng.permutation(rows * 10)[:rows].astype(np.int64)  # unsorted, high cardinality
    emails = [f"user{k}@example.com" for k in keys]
    rg_rows = max(1, rows // 8)
    t0 = time.perf_counter()
    pq.write_table(
        pa.table({"order_id": keys, "email": emails, "amount": rng.random(rows)}),
        path,
        row_group_size=rg_rows,
        bloom_filter_options={
            "order_id": {"ndv": rg_rows, "fpp": 0.01},
            "email": {"ndv": rg_rows, "fpp": 0.01},
        },
    )
    print(f"wrote {rows:,} rows in {pq.ParquetFile(path).metadata.num_row_groups} row groups "
          f"to {path} ({path.stat().st_size / 1e6:.1f} MB) in {time.perf_counter() - t0:.2f}s")

    spark = session()
    bridge = jvm_bridge(spark)
    print(f"JVM SBBF kernel: {bridge.kernelName()} ({bridge.kernelReason()})")

    t0 = time.perf_counter()
    py_filters = read_bloom_filters(path)
    t_py_read = time.perf_counter() - t0
    bridge.readFilters(str(path.resolve()))  # first call loads Hadoop's file system classes
    t0 = time.perf_counter()
    jvm_filters = {k: bytes(v) for k, v in dict(bridge.readFilters(str(path.resolve()))).items()}
    t_jvm_read = time.perf_counter() - t0
    filter_bytes = sum(f.num_bytes for f in py_filters.values())
    print(f"read {len(py_filters)} filters ({filter_bytes / 1024:.0f} KiB): "
          f"Python {t_py_read * 1000:.1f} ms, JVM {t_jvm_read * 1000:.1f} ms")

    present = keys[[0, rows // 2]]
    probes = [("order_id", "INT64", int(v)) for v in present] + [("order_id", "INT64", -1), ("order_id", "INT64", rows * 10 + 7)]
    probes += [("email", "BYTE_ARRAY", emails[1]), ("email", "BYTE_ARRAY", "nobody@example.com")]
    num_rg = pq.ParquetFile(path).metadata.num_row_groups
    disagreements = 0
    print(f"\n{'probe':<40} {'row groups that may hold it (JVM)':<36} {'Python agrees':<13} {'skippable'}")
    for column, ptype, value in probes:
        h = xxh64_plain([value], ptype)  # type: ignore[arg-type]
        jvm_keep, py_keep = [], []
        for rg in range(num_rg):
            f = py_filters[(rg, column)]
            if f.check_hashes(h)[0]:
                py_keep.append(rg)
            answer = bytes(bridge.checkHashes("auto", jvm_filters[f"{rg}/{column}"], h.astype("<u8").tobytes()))
            if answer[0]:
                jvm_keep.append(rg)
        agree = jvm_keep == py_keep
        disagreements += not agree
        label = f"{column} = {value!r}"
        print(f"{label:<40} {str(jvm_keep):<36} {'yes' if agree else 'NO':<13} {num_rg - len(jvm_keep)}/{num_rg}")

    # Batched probe timing: 100,000 absent keys against every row group's filter.
    absent = rng.integers(rows * 10, 2**62, 100_000).astype(np.int64)
    h = xxh64_plain(absent, "INT64")
    t0 = time.perf_counter()
    for rg in range(num_rg):
        py_filters[(rg, "order_id")].check_hashes(h)
    t_py = time.perf_counter() - t0
    print(f"\nPython reference: {len(absent) * num_rg / t_py / 1e6:.1f} M probes/s over {num_rg} filters")
    spark.stop()
    if disagreements:
        print(f"ERROR: JVM and Python disagree on {disagreements} probes")
        return 1
    return 0
