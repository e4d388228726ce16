"""File classes Spark's writer (parquet-java) writes, and schemas only parquet-java's raw
writer produces (2-level lists, repeated fields without LIST, BYTE_ARRAY decimals); bloom
filters through parquet-java's own options, or added by bloomparquet's retrofit."""

from __future__ import annotations

import decimal
from pathlib import Path

from .duckdb_classes import duckdb_v2_delta
from .rows import HIT_ID, NDV, PAGE_ROWS, ROWS, key

_SOURCE = (
    f"SELECT id, IF(id % 23 = 0, NULL, id * 3) AS k, IF(id % 19 = 0, NULL, format_string('s-%06d', id * 3)) AS s,"
    " CAST(IF(id % 7 = 0, NULL, id / 100) AS DECIMAL(9,2)) AS d9,"
    " CAST(IF(id % 7 = 0, NULL, id * 1000000) AS DECIMAL(18,3)) AS d18,"
    " CAST(concat(CAST(id AS STRING), '000000000000000000') AS DECIMAL(30,2)) AS d30,"
    " array(CAST(id AS INT), CAST(id + 1 AS INT)) AS l,"  # elements never null: a 2-level list when legacy
    " IF(id % 9 = 0, NULL, timestamp_micros(1577836800000000 + id * 1000001)) AS ts"
    f" FROM range({ROWS})"
)
_BLOOM = ("k", "s", "d9", "d18", "d30")


def _spark_write(spark, out: Path, confs: dict[str, str], options: dict[str, str] | None = None) -> None:
    from ..spark_conf import spark_conf

    writer = spark.sql(_SOURCE).coalesce(1).write.mode("overwrite")
    writer = writer.option("parquet.block.size", 16 * 1024).option("parquet.page.row.count.limit", PAGE_ROWS)
    for c in _BLOOM:
        writer = writer.option(f"parquet.bloom.filter.enabled#{c}", "true")
        writer = writer.option(f"parquet.bloom.filter.expected.ndv#{c}", str(NDV))
    with spark_conf(spark, confs):
        writer.options(**(options or {})).parquet(str(out))


def spark_int96_decimals(out: Path, spark) -> None:
    # Spark's defaults: INT96 timestamps, decimals as INT32 / INT64 / FIXED_LEN_BYTE_ARRAY.
    _spark_write(spark, out, {"spark.sql.parquet.outputTimestampType": "INT96"})


def spark_legacy_format(out: Path, spark) -> None:
    # writeLegacyFormat: every decimal FIXED_LEN_BYTE_ARRAY, lists of non-null elements 2-level.
    _spark_write(spark, out, {"spark.sql.parquet.writeLegacyFormat": "true"})


def spark_v2_pages(out: Path, spark) -> None:
    # parquet-java's v2 writer: v2 data pages, DELTA_BINARY_PACKED / DELTA_BYTE_ARRAY, page checksums.
    _spark_write(
        spark,
        out,
        {},
        {
            "parquet.writer.version": "v2",
            "parquet.page.write-checksum.enabled": "true",
            "parquet.enable.dictionary": "false",
        },
    )


_RAW_SCHEMA = """message raw {
  required int32 id;
  optional int32 k;
  optional binary s (UTF8);
  optional binary bd (DECIMAL(%d,1));
  optional group l (LIST) { repeated int32 element; }
  repeated binary r (UTF8);
}"""


def parquet_java_raw(out: Path, spark, decimal_precision: int = 20) -> None:
    """Through parquet-java's example writer, field by field: a 2-level list (old_list_structure),
    a repeated field with no LIST (repeated_primitive_no_list), a BYTE_ARRAY decimal (byte_array_decimal)."""
    jvm = spark._jvm
    schema = jvm.org.apache.parquet.schema.MessageTypeParser.parseMessageType(_RAW_SCHEMA % decimal_precision)
    builder = (
        jvm.org.apache.parquet.hadoop.example.ExampleParquetWriter.builder(
            jvm.org.apache.hadoop.fs.Path(str(out / "part-0.parquet"))
        )
        .withType(schema)
        .withConf(spark._jsc.hadoopConfiguration())
        .withRowGroupSize(8 * 1024)
        .withPageRowCountLimit(PAGE_ROWS)
    )
    for c in ("k", "s", "bd"):
        builder = builder.withBloomFilterEnabled(c, True).withBloomFilterNDV(c, NDV)
    writer = builder.build()
    factory = jvm.org.apache.parquet.example.data.simple.SimpleGroupFactory(schema)
    binary = jvm.org.apache.parquet.io.api.Binary
    try:
        for i in range(ROWS):
            g = factory.newGroup().append("id", i)
            if i % 23:
                g.append("k", key(i))
            if i % 19:
                g.append("s", f"s-{key(i):06d}")
            if i % 7:
                unscaled = i * 10  # bd = i (scale 1)
                g.add("bd", binary.fromConstantByteArray(unscaled.to_bytes(4, "big", signed=True)))
            if i % 17:
                lst = g.addGroup("l")
                for e in range(i % 3):
                    lst.append("element", i + e)
            for _ in range(i % 2):
                g.append("r", f"r{i}")
            writer.write(g)
    finally:
        writer.close()


def map_without_values(out: Path, spark) -> None:
    """As map_no_value.parquet: a MAP whose key_value group has no value field; Spark refuses the schema."""
    jvm = spark._jvm
    schema = jvm.org.apache.parquet.schema.MessageTypeParser.parseMessageType(
        "message m { optional int32 k; optional group m (MAP) { repeated group key_value { required int32 key; } } }"
    )
    writer = (
        jvm.org.apache.parquet.hadoop.example.ExampleParquetWriter.builder(
            jvm.org.apache.hadoop.fs.Path(str(out / "part-0.parquet"))
        )
        .withType(schema)
        .withConf(spark._jsc.hadoopConfiguration())
        .withBloomFilterEnabled("k", True)
        .build()
    )
    factory = jvm.org.apache.parquet.example.data.simple.SimpleGroupFactory(schema)
    try:
        for i in range(10):
            g = factory.newGroup().append("k", key(i))
            g.addGroup("m").addGroup("key_value").append("key", i)
            writer.write(g)
    finally:
        writer.close()


def byte_array_decimal_int_sized(out: Path, spark) -> None:
    # As byte_array_decimal.parquet: a BYTE_ARRAY decimal of precision <= 18, which Spark's vectorized
    # reader fails on (a NullPointerException putting bytes into its int-backed decimal vector).
    parquet_java_raw(out, spark, decimal_precision=9)


def duckdb_v2_retrofit(out: Path, spark) -> None:
    # DuckDB's V2 files: DELTA encodings, so DuckDB writes no filter; bloomparquet's retrofit adds them.
    from bloomparquet import retrofit

    duckdb_v2_delta(out)
    retrofit(spark, str(out), ["k", "s", "d9"], fpp=0.01)


def classes() -> list:
    from .spec import FileClass

    hit_bd = decimal.Decimal(HIT_ID)
    spark_preds = [
        f"d9 = CAST('{HIT_ID / 100:.2f}' AS DECIMAL(9,2))",
        "d9 = CAST('0.03' AS DECIMAL(9,2))",
        f"d18 = CAST('{HIT_ID * 10**6}' AS DECIMAL(18,3))",
        f"d30 = CAST('{HIT_ID * 10**18}' AS DECIMAL(30,2))",
        "ts = TIMESTAMP'2020-01-01 00:12:57.000777+00:00'",
        "array_contains(l, 778)",
        "l = array(10, 11)",
    ]
    return [
        FileClass(
            "spark_int96_and_decimals",
            spark_int96_decimals,
            "int96_from_spark, int32/int64_decimal",
            spark_preds,
            needs_spark=True,
        ),
        FileClass(
            "spark_legacy_format",
            spark_legacy_format,
            "fixed_length_decimal_legacy, old_list_structure",
            spark_preds,
            needs_spark=True,
        ),
        FileClass(
            "spark_v2_pages",
            spark_v2_pages,
            "datapage_v2.snappy, delta_encoding_*_column",
            spark_preds,
            needs_spark=True,
        ),
        FileClass(
            "parquet_java_raw_schemas",
            parquet_java_raw,
            "old_list_structure, repeated_primitive_no_list, byte_array_decimal",
            [
                f"bd = CAST('{hit_bd}' AS DECIMAL(20,1))",
                "bd = CAST('0.3' AS DECIMAL(20,1))",
                "bd <=> NULL",
                "array_contains(l, 778)",
                "size(l) = 0 AND k = 3",
                "array_contains(r, 'r777')",
            ],
            needs_spark=True,
        ),
        FileClass(
            "byte_array_decimal_int_sized",
            byte_array_decimal_int_sized,
            "byte_array_decimal",
            needs_spark=True,
            spark_reads=False,
        ),
        FileClass("map_without_values", map_without_values, "map_no_value", needs_spark=True, spark_reads=False),
        FileClass(
            "duckdb_v2_delta_retrofitted",
            duckdb_v2_retrofit,
            "(DuckDB V2 pages, filters by retrofit)",
            [f"i32 = {HIT_ID * 7 - 5000}", "i32 = 1"],
            needs_spark=True,
        ),
    ]
