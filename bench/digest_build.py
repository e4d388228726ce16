"""Building a Parquet directory's bloom digest (``io.bloomparquet.digest.DigestJob``), at 1,000 or more
files of two writers: Spark's ``parquet`` with parquet-java's filters at their default size (1 MiB a
chunk) and bloomparquet's writer (right-sized filters).

    .venv/bin/python bench/digest_build.py [--files 1000] [--rows-per-file 2000]

Reports, per corpus: files per second of the build (one Spark job reading footers and filters,
local[2]), the seconds of a rebuild right after it (every entry reused: the listing, the old digest
read back and the new one written), the bytes the build read from the files (the file system's own count) against the bytes
of the filters it holds, and the digest's size against those filters. The digest folds each filter
while its false-positive rate stays at most 1 % (or its own, where that is higher).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import bloomparquet as bp


def _bytes_read(spark) -> int:
    """Bytes read so far through Hadoop's local file system in this JVM (the tasks run in it: local mode)."""
    stats = spark._jvm.org.apache.hadoop.fs.FileSystem.getAllStatistics()
    return sum(s.getBytesRead() for s in stats if s.getScheme() == "file")


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--files", type=int, default=1000)
    args.add_argument("--rows-per-file", type=int, default=2000)
    a = args.parse_args()
    spark = bp.session(**{"spark.ui.enabled": "false"})
    # Spark's files carry parquet-java's 1 MiB filters: 10,000 of them are 10 GB, removed at the end.
    with tempfile.TemporaryDirectory(prefix="digest-build-") as tmp:
        base = Path(tmp)
        keys = spark.range(a.files * a.rows_per_file).selectExpr("(id * 2654435761 % 4294967296) * 2 AS k", "id")
        spark.conf.set("parquet.bloom.filter.enabled#k", "true")
        keys.repartition(a.files).write.parquet(str(base / "spark"))
        spark.conf.unset("parquet.bloom.filter.enabled#k")
        keys.repartition(a.files).write.format("bloomparquet").option("bloom.columns", "k").save(
            str(base / "bloomparquet")
        )
        print(f"{a.files} files of {a.rows_per_file} rows each, one row group a file; digest of column k at FPP 1 %")
        print(
            f"{'writer':<14}{'files/s':>9}{'rebuild s':>11}{'read MiB':>10}{'filters MiB':>13}{'read/filters':>14}{'digest MiB':>12}"
            f"{'digest/filters':>16}"
        )
        for name in ("spark", "bloomparquet"):
            before = _bytes_read(spark)
            b = bp.build_digest(spark, str(base / name), ["k"], fpp=0.01, full=True)
            read = _bytes_read(spark) - before
            again = bp.build_digest(spark, str(base / name), ["k"], fpp=0.01)
            assert again["files_reused"] == b["files"], again
            mib = 1 << 20
            filters, digest = b["filter_bytes"], b["digest_bytes"]
            print(
                f"{name:<14}{b['files'] / b['seconds']:>9.0f}{again['seconds']:>11.1f}{read / mib:>10.1f}{filters / mib:>13.1f}"
                f"{read / filters:>14.3f}{digest / mib:>12.2f}{digest / filters:>16.4f}"
            )
    spark.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
