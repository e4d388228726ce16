"""Delta tables for the Delta tests: keys scattered so that statistics can't prune, written with
parquet-java's filters, and the differential check of a query against Delta's own reader."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import bloomparquet as bp
from bloomparquet.reference import read_bloom_filters, xxh64_plain

from ..races import at_once
from ..spark_conf import rows, spark_conf

ON = {"spark.bloomparquet.delta.enabled": "true"}
ORACLE = {"spark.bloomparquet.delta.enabled": "false", "spark.sql.parquet.filterPushdown": "false"}
FILTERS = {
    "parquet.bloom.filter.enabled#k": "true",
    "parquet.bloom.filter.enabled#email": "true",
    "parquet.bloom.filter.expected.ndv#k": "20000",
    "parquet.bloom.filter.expected.ndv#email": "20000",
}
ROWS, FILES = 80_000, 12


def keys_frame(spark, rows_: int = ROWS, files: int = FILES, seed: int = 0):
    """Even keys scattered over a wide range (each file spans it: statistics can't prune), and their emails."""
    return (
        spark.range(rows_)
        .selectExpr(
            f"((id * 2654435761 + {seed}) % 4294967296) * 2 AS k",
            "concat('u', cast(id AS string), '@x.io') AS email",
            "cast(id % 10 AS int) AS g",
        )
        .repartition(files)
    )


def write_delta(spark, df, path: Path, *, mode: str = "overwrite", **options: str) -> None:
    with spark_conf(spark, FILTERS):
        df.write.format("delta").mode(mode).options(**options).save(str(path))


def same_rows(spark, query: Callable[[], Any]) -> tuple[list[tuple[Any, ...]], dict[str, int]]:
    """``query()``'s rows with bloom pruning on, asserted equal to the oracle's; and the scans' metrics."""
    with spark_conf(spark, ORACLE):
        expected = rows(query())
    with spark_conf(spark, ON):
        df = query()
        got = rows(df)
        metrics = bp.scan_metrics(df)
    assert got == expected
    return got, metrics


def absent_key(path: Path, column: str | None = "k") -> int:
    """An odd key (never written) that every stored filter of ``column`` (of every column: None) rejects."""
    filters = [
        f
        for p in sorted(path.glob("**/*.parquet"))
        for (_, c), f in read_bloom_filters(p).items()
        if column in (None, c)
    ]
    assert filters, "no bloom filter written"
    for candidate in range(2**31 + 1, 2**31 + 400_001, 2):
        if not any(f.check_hashes(xxh64_plain(np.array([candidate], np.int64), "INT64"))[0] for f in filters):
            return candidate
    raise AssertionError("no key every filter rejects")


def race_retrofit(spark, path: Path, statement: str) -> dict[str, str | None]:
    """Retrofit of ``path`` (column ``k``) and ``statement`` started at once: each one's error, None if it succeeded.
    An error other than Delta's conflict error is raised."""
    errors = at_once(
        retrofit=lambda: bp.retrofit(spark, str(path), ["k"], format="delta"), statement=lambda: spark.sql(statement)
    )
    for e in errors.values():
        if e is not None and "oncurrent" not in e and "DELTA_CONCURRENT" not in e:
            raise AssertionError(f"not Delta's conflict error: {e}")
    return errors
