"""A path read's schema: where the first data file's footer stores its writer's Spark schema,
bloomparquet reads it on the driver and runs no Spark job for it; everything else goes through
Spark's own inference (its schema job). Differential: every case gives exactly the schema (or
the error) of Spark's ``parquet`` over the same files."""

from __future__ import annotations

import uuid
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyspark.sql import types as T

from .schema_reads import jobs_run, same_schema
from .spark_conf import SPARK3, spark_conf

pytestmark = pytest.mark.spark

SPARK_SCHEMA_KEY = b"org.apache.spark.sql.parquet.row.metadata"


def _spark_files(spark, path: Path, n: int = 3) -> Path:
    df = spark.range(0, 300, 1, n).selectExpr(
        "id AS k",
        "concat('e', id) AS email",
        "CAST(id AS DECIMAL(12, 2)) AS amount",
        "named_struct('a', id, 'B', array(id, id)) AS nested",
        "map('x', id) AS m",
        "CAST(timestamp_seconds(id) AS TIMESTAMP_NTZ) AS ntz",
    )
    df.write.parquet(str(path))
    return path


def test_sparks_files_give_their_stored_schema_without_a_job(spark, tmp_path: Path) -> None:
    path = _spark_files(spark, tmp_path / "spark")
    want, jobs, sql_jobs = same_schema(spark, path)
    assert isinstance(want, T.StructType) and "ntz" in want.fieldNames()
    assert (jobs, sql_jobs) == (0, 0)
    _, spark_jobs = jobs_run(spark, lambda: spark.read.parquet(str(path)).schema)
    assert spark_jobs >= 1  # Spark's own inference: the job this saves


def test_our_writers_files_give_their_stored_schema_without_a_job(spark, write_bloom_dir) -> None:
    path = write_bloom_dir(spark.range(500).selectExpr("id AS k", "concat('e', id) AS email"), "k,email", "ss", 1 << 20)
    _, jobs, sql_jobs = same_schema(spark, path)
    assert (jobs, sql_jobs) == (0, 0)


def _pyarrow_file(path: Path, metadata: dict[bytes, bytes] | None = None) -> Path:
    table = pa.table({"k": pa.array([1, 2, 3], pa.int64()), "raw": pa.array([b"a", b"b", b"c"], pa.binary())})
    path.mkdir(parents=True, exist_ok=True)
    pq.write_table(table.replace_schema_metadata(metadata), path / "part-0.parquet")
    return path


@pytest.mark.parametrize("binary_as_string", ["false", "true"])
def test_files_without_a_stored_schema_get_sparks_conversion(spark, tmp_path: Path, binary_as_string: str) -> None:
    """pyarrow stores no Spark schema: Spark converts the Parquet types by session settings (here
    ``binaryAsString``), in its job."""
    path = _pyarrow_file(tmp_path / "pyarrow")
    with spark_conf(spark, {"spark.sql.parquet.binaryAsString": binary_as_string}):
        want, jobs, _ = same_schema(spark, path)
    assert want["raw"].dataType == (T.StringType() if binary_as_string == "true" else T.BinaryType())
    assert jobs >= 1


def test_a_stored_schema_that_does_not_parse_is_left_to_spark(spark, tmp_path: Path) -> None:
    path = _pyarrow_file(tmp_path / "garbled", {SPARK_SCHEMA_KEY: b"{not a schema"})
    want, jobs, _ = same_schema(spark, path)
    assert jobs >= 1


def test_a_stored_schema_wins_over_the_parquet_types_as_in_spark(spark, tmp_path: Path) -> None:
    """Spark trusts the stored schema (names, nullability, metadata) over the file's types."""
    stored = T.StructType(
        [T.StructField("k", T.LongType(), False, {"comment": "the key"}), T.StructField("raw", T.BinaryType())]
    )
    path = _pyarrow_file(tmp_path / "stored", {SPARK_SCHEMA_KEY: stored.json().encode()})
    want, jobs, _ = same_schema(spark, path)
    assert want["k"].metadata == {"comment": "the key"}
    assert jobs == 0


def test_a_stored_schema_over_other_parquet_types_wins_as_in_spark(spark, tmp_path: Path) -> None:
    """A stored STRING over a BINARY column, with ``binaryAsString`` off: the stored type."""
    stored = T.StructType([T.StructField("k", T.LongType()), T.StructField("raw", T.StringType())])
    path = _pyarrow_file(tmp_path / "string-over-binary", {SPARK_SCHEMA_KEY: stored.json().encode()})
    with spark_conf(spark, {"spark.sql.parquet.binaryAsString": "false"}):
        want, jobs, _ = same_schema(spark, path)
    assert want["raw"].dataType == T.StringType()
    assert jobs == 0


def test_a_stored_type_that_is_not_a_struct_is_left_to_spark(spark, tmp_path: Path) -> None:
    path = _pyarrow_file(tmp_path / "not-a-struct", {SPARK_SCHEMA_KEY: b'"integer"'})
    want, jobs, _ = same_schema(spark, path)
    assert want["raw"].dataType == T.BinaryType()
    assert jobs >= 1


def test_user_defined_types_are_left_to_sparks_job(spark, tmp_path: Path) -> None:
    """A stored UDT's class is loaded where Spark's job runs: that job decides."""
    from pyspark.ml.linalg import Vectors

    path = tmp_path / "udt"
    spark.createDataFrame([(1, Vectors.dense([1.0, 2.0]))], ["k", "v"]).write.parquet(str(path))
    want, jobs, _ = same_schema(spark, path)
    assert type(want["v"].dataType).__name__ == "VectorUDT"
    assert jobs >= 1


def _one_spark_file(spark, target: Path) -> None:
    staging = target.parent.parent / f"staging-{uuid.uuid4().hex}"
    spark.range(3).selectExpr("id AS k", "CAST(id AS STRING) AS other").coalesce(1).write.parquet(str(staging))
    next(staging.glob("*.parquet")).rename(target)


@pytest.mark.parametrize("first", ["pyarrow", "spark"])
def test_the_first_file_by_path_decides_as_in_spark(spark, tmp_path: Path, first: str) -> None:
    """Spark reads the first file of the listing sorted by path: a pyarrow file first means
    Spark's conversion in its job; a Spark file first, that file's stored schema."""
    path = tmp_path / "mixed"
    path.mkdir()
    pyarrow_name, spark_name = ("a.parquet", "b.parquet") if first == "pyarrow" else ("b.parquet", "a.parquet")
    _pyarrow_file(tmp_path / "pa")
    (tmp_path / "pa" / "part-0.parquet").rename(path / pyarrow_name)
    _one_spark_file(spark, path / spark_name)
    want, jobs, _ = same_schema(spark, path)
    assert want.fieldNames() == (["k", "raw"] if first == "pyarrow" else ["k", "other"])
    assert (jobs == 0) == (first == "spark")


def test_merged_schemas_and_summary_files_are_left_to_spark(spark, tmp_path: Path) -> None:
    merged = tmp_path / "merged"
    spark.range(3).selectExpr("id AS k").write.parquet(str(merged / "a=1"))
    spark.range(3).selectExpr("id AS k", "id AS extra").write.parquet(str(merged / "a=2"))
    want, jobs, _ = same_schema(spark, merged, mergeSchema="true")
    assert "extra" in want.fieldNames()
    assert jobs >= 1
    with spark_conf(spark, {"spark.sql.parquet.mergeSchema": "true"}):
        want, jobs, _ = same_schema(spark, merged)
        assert "extra" in want.fieldNames() and jobs >= 1
        # The option overrides the session: one footer, the first by path (a=1's), read on the driver.
        want, jobs, _ = same_schema(spark, merged, mergeSchema="false")
        assert "extra" not in want.fieldNames() and jobs == 0

    summarized = _spark_files(spark, tmp_path / "summarized", 1)
    pq.write_metadata(pa.schema([("k", pa.int64()), ("only_in_summary", pa.string())]), summarized / "_common_metadata")
    _, jobs, _ = same_schema(spark, summarized)
    assert jobs >= 1


@pytest.mark.parametrize("ignore", ["false", "true"])
def test_a_corrupt_first_file_fails_or_is_skipped_as_in_spark(spark, tmp_path: Path, ignore: str) -> None:
    path = _spark_files(spark, tmp_path / "corrupt", 1)
    (path / "a-corrupt.parquet").write_bytes(b"PAR1 not a parquet file PAR1")
    with spark_conf(spark, {"spark.sql.files.ignoreCorruptFiles": ignore}):
        same_schema(spark, path)


def test_partition_columns_follow_the_stored_schema(spark, tmp_path: Path) -> None:
    path = tmp_path / "partitioned"
    spark.range(20).selectExpr("id AS k", "id % 3 AS day").write.partitionBy("day").parquet(str(path))
    want, jobs, _ = same_schema(spark, path)
    assert want.fieldNames() == ["k", "day"]
    assert jobs == 0


def test_char_and_varchar_columns_read_as_spark_infers_them(spark, tmp_path: Path) -> None:
    path = tmp_path / "chars"
    spark.sql(f"CREATE TABLE chars_written (c CHAR(3), v VARCHAR(5), k BIGINT) USING parquet LOCATION '{path}'")
    try:
        spark.sql("INSERT INTO chars_written VALUES ('a', 'bc', 1)")
        _, jobs, sql_jobs = same_schema(spark, path)
        assert (jobs, sql_jobs) == (0, 0)
    finally:
        spark.sql("DROP TABLE chars_written")


# Random Spark schemas, written by Spark (no rows: the file still carries the schema).
_NAMES = st.text("abcXYZ_", min_size=1, max_size=6)
_ATOMS = st.sampled_from(
    [
        "BOOLEAN",
        "TINYINT",
        "SMALLINT",
        "INT",
        "BIGINT",
        "FLOAT",
        "DOUBLE",
        "DECIMAL(9, 2)",
        "DECIMAL(18, 4)",
        "DECIMAL(38, 10)",
        "STRING",
        "BINARY",
        "DATE",
        "TIMESTAMP",
        "TIMESTAMP_NTZ",
        # Spark 4's own types: semi-structured values and collated strings.
        *([] if SPARK3 else ["VARIANT", "STRING COLLATE UTF8_LCASE"]),
    ]
)


def _type(depth: int = 0) -> st.SearchStrategy[str]:
    if depth >= 2:
        return _ATOMS
    inner = st.deferred(lambda: _type(depth + 1))
    return st.one_of(
        _ATOMS,
        inner.map(lambda t: f"ARRAY<{t}>"),
        inner.map(lambda t: f"MAP<STRING, {t}>"),
        st.lists(st.tuples(_NAMES, inner), min_size=1, max_size=3, unique_by=lambda f: f[0].lower()).map(
            lambda fs: "STRUCT<" + ", ".join(f"`{n}`: {t}" for n, t in fs) + ">"
        ),
    )


_COLUMNS = st.lists(
    st.tuples(_NAMES, _type(), st.booleans(), st.booleans()), min_size=1, max_size=5, unique_by=lambda c: c[0].lower()
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(columns=_COLUMNS)
def test_random_schemas_read_as_spark_infers_them(
    spark, tmp_path: Path, columns: list[tuple[str, str, bool, bool]]
) -> None:
    """Field metadata (comments) included; nullability too, which file sources drop both ways."""
    ddl = ", ".join(
        f"`{n}` {t}{'' if nullable else ' NOT NULL'}{f' COMMENT {n!r}' if comment else ''}"
        for n, t, nullable, comment in columns
    )
    path = tmp_path / uuid.uuid4().hex
    spark.createDataFrame([], ddl).write.parquet(str(path))
    _, jobs, sql_jobs = same_schema(spark, path)
    assert (jobs, sql_jobs) == (0, 0), ddl
