"""What planning reads for encrypted files, next to the same data unencrypted.

    bin/sbt jvm/package jvm/Test/package && .venv/bin/python bench/encrypted_reads.py

Writes the same 16 files three times with our writer (a filter on `k`): plaintext,
encrypted footer, plaintext footer (k sealed with its own key; the test jar's
in-memory KMS). Runs `k = <absent key>` in plan mode twice per layout (cold, then
warm) and prints, per file, the local file system's bytes read (Hadoop
FileSystem statistics; plan mode prunes every row group here, so no task
reads anything) and the query time, against Spark's `parquet` (pushdown on, the
same keys) on the same files. Encrypted files stay out of the footer and filter
cache, so their warm run reads what the cold run read.

Measured (2 cores shared with other jobs, so times are noisy; bytes are exact):

    layout             run   bytes/file  time s parquet bytes/file  time s time ratio
    plaintext          cold       37770    0.74              37997    0.95       0.78
    plaintext          warm           0    0.08              37997    0.52       0.15
    encrypted footer   cold       59850    0.22              60237    0.39       0.56
    encrypted footer   warm       59850    0.23              60237    0.38       0.60
    plaintext footer   cold       57057    0.17              57360    0.33       0.51
    plaintext footer   warm       57057    0.17              57360    0.52       0.33
"""

from __future__ import annotations

import base64
import sys
import tempfile
import time
from pathlib import Path

import bloomparquet as bp

JAR = Path(__file__).resolve().parents[1] / "jvm" / "target" / "bloomparquet-tests.jar"
KEYS = {
    "parquet.crypto.factory.class": "org.apache.parquet.crypto.keytools.PropertiesDrivenCryptoFactory",
    "parquet.encryption.kms.client.class": "io.bloomparquet.testing.InMemoryKms",
    "parquet.encryption.key.list": "kf: {}, kc: {}".format(
        base64.b64encode(b"footer key 16 by").decode(), base64.b64encode(b"column key 16 by").decode()
    ),
}
FILES, ROWS = 16, 400_000
ABSENT = 2 * 1234 + 1


def _bytes_read(spark) -> int:
    stats = spark._jvm.org.apache.hadoop.fs.FileSystem.getAllStatistics()
    return sum(s.getBytesRead() for s in stats if s.getScheme() == "file")


def _measure(spark, run) -> tuple[int, float]:
    read = _bytes_read(spark)
    start = time.perf_counter()
    run()
    return _bytes_read(spark) - read, time.perf_counter() - start


def main() -> int:
    spark = bp.session(
        **{"spark.sql.session.timeZone": "UTC", "spark.jars": str(JAR), "spark.driver.extraClassPath": str(JAR)}
    )
    root = Path(tempfile.mkdtemp(prefix="encrypted-reads-"))
    df = spark.range(0, ROWS, numPartitions=FILES).selectExpr(f"2 * ((id * 7919) % {ROWS}) AS k", "id AS v")
    layouts = {
        "plaintext": {},
        "encrypted footer": {**KEYS, "parquet.encryption.footer.key": "kf", "parquet.encryption.column.keys": "kc: k"},
    }
    layouts["plaintext footer"] = {**layouts["encrypted footer"], "parquet.encryption.plaintext.footer": "true"}
    for i, options in enumerate(layouts.values()):
        (
            df.write.format(bp.WRITE_FORMAT)
            .options(**options)
            .option("bloom.columns", "k")
            .option("parquet.block.size", 256 * 1024)
            .save(str(root / str(i)))
        )
    print(f"{FILES} files, {ROWS} rows, query k = {ABSENT} (absent), plan mode; bytes read per file")
    print(
        f"{'layout':18} {'run':5} {'bytes/file':>10} {'time s':>7} {'parquet bytes/file':>18} {'time s':>7} "
        f"{'time ratio':>10}"
    )
    for i, name in enumerate(layouts):
        d = str(root / str(i))
        reader = spark.read.options(**KEYS)
        for run in ("cold", "warm"):
            q = bp.read_bloom(spark, d, **KEYS).where(f"k = {ABSENT}")
            read, t = _measure(spark, q.collect)
            m = bp.scan_metrics(q)
            assert m["bloomRowGroupsPrunedByBloom"] + m["bloomRowGroupsPrunedByStats"] == m["bloomRowGroupsTotal"], m
            pread, pt = _measure(spark, lambda: reader.parquet(d).where(f"k = {ABSENT}").collect())  # noqa: B023
            print(f"{name:18} {run:5} {read / FILES:10.0f} {t:7.2f} {pread / FILES:18.0f} {pt:7.2f} {t / pt:10.2f}")
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
