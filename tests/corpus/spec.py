"""What a file class is: how to write it, and what to ask of it beyond the key predicates."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class FileClass:
    name: str
    # writes the class's Parquet file(s) into the (existing, empty) directory; the SparkSession
    # when ``needs_spark`` (Spark's or parquet-java's own writer), else None
    write: Callable[[Path, object], None]
    like: str  # the parquet-testing file(s) it stands for
    predicates: list[str] = field(default_factory=list)  # on the class's odd columns
    needs_spark: bool = False
    spark_reads: bool = True  # False: Spark's parquet reader refuses the class (bloomparquet must too)
    judged_in_task: bool = False  # True: the reading task judges its metadata (page indexes), not planning
