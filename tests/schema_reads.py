"""Test helper: a path's schema through bloomparquet and through Spark's ``parquet``, with the
Spark jobs each read ran (Spark infers a path's schema in a job; bloomparquet reads a stored
schema on the driver)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from py4j.protocol import Py4JJavaError
from pyspark.errors import PySparkException

import bloomparquet as bp

from .jvm_errors import root_cause


def jobs_run(spark, read: Callable[[], Any]) -> tuple[Any, int]:
    """What ``read`` returns (or the JVM's innermost cause of what it raised), and how many Spark
    jobs it ran (counted once Spark's listeners have heard of every job)."""
    group = f"schema-{uuid.uuid4().hex}"
    sc = spark.sparkContext
    sc.setJobGroup(group, group)
    try:
        try:
            got: Any = read()
        except (Py4JJavaError, PySparkException) as e:
            got = root_cause(e)
    finally:
        sc._jsc.clearJobGroup()
    sc._jsc.sc().listenerBus().waitUntilEmpty()
    return got, len(sc.statusTracker().getJobIdsForGroup(group))


def same_schema(spark, path: Path, **options: str) -> tuple[Any, int, int | None]:
    """Asserts bloomparquet's DataFrame read and its SQL on the path (the V1 format; without
    options) give the schema, or the error, of Spark's ``parquet`` read the same way. Returns
    Spark's outcome and the job counts of bloomparquet's two reads (None: not read)."""
    bloom, jobs = jobs_run(spark, lambda: bp.read_bloom(spark, str(path), **options).schema)
    want, _ = jobs_run(spark, lambda: spark.read.options(**options).parquet(str(path)).schema)
    assert _as_parquet(bloom) == want, (bloom, want)
    if options:
        return want, jobs, None
    sql, sql_jobs = jobs_run(spark, lambda: spark.sql(f"SELECT * FROM bloomparquet.`{path}`").schema)
    sql_want, _ = jobs_run(spark, lambda: spark.sql(f"SELECT * FROM parquet.`{path}`").schema)
    assert _as_parquet(sql) == sql_want, (sql, sql_want)
    return want, jobs, sql_jobs


def _as_parquet(outcome: Any) -> Any:
    """An error names the format it was raised for: ours, where Spark's names Parquet."""
    return outcome.replace("for BloomParquet.", "for Parquet.") if isinstance(outcome, str) else outcome
