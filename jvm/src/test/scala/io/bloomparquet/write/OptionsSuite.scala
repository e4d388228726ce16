package io.bloomparquet.write

import io.bloomparquet.options.{BloomColumn, BloomWriteOptions}
import org.apache.spark.sql.types._

class OptionsSuite extends munit.FunSuite {

  private val schema = StructType.fromDDL(
    "id BIGINT, Email STRING, flag BOOLEAN, ts TIMESTAMP, arr ARRAY<INT>, s STRUCT<x: INT, `a.b`: STRING>, d DECIMAL(20,2)")

  private def parse(opts: (String, String)*): Seq[BloomColumn] =
    BloomWriteOptions.parse(opts.toMap, schema, caseSensitive = false, timestampType = "TIMESTAMP_MICROS")

  private def error(opts: (String, String)*): String =
    intercept[IllegalArgumentException](parse(opts: _*)).getMessage

  test("the write format class is a Spark FileFormat with its own identity; the read format does not inherit it") {
    val fallback = new io.bloomparquet.spark.BloomParquetDataSource().fallbackFileFormat
    assert(!classOf[BloomParquetWriteFormat].isAssignableFrom(fallback))
    assert(classOf[org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat].isAssignableFrom(fallback))
    val cls = classOf[BloomParquetWriteFormat]
    assert(classOf[org.apache.spark.sql.execution.datasources.FileFormat].isAssignableFrom(cls))
    val f = cls.getDeclaredConstructor().newInstance()
    assertEquals(f.toString, "BloomParquet")
    assert(f != new org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat())
  }

  test("columns, nested fields, backticks, case-insensitive keys and names, defaults") {
    val cols = parse("BLOOM.COLUMNS" -> "ID, email, S.`a.b`, s.x, id", "Bloom.Fpp" -> "0.05",
      "bloom.fpp.EMAIL" -> "0.001", "bloom.ndv.s.`a.b`" -> "1_000")
    assertEquals(cols.map(_.path), Seq(Seq("id"), Seq("Email"), Seq("s", "a.b"), Seq("s", "x")))
    assertEquals(cols.map(_.fpp), Seq(0.05, 0.001, 0.05, 0.05))
    assertEquals(cols.map(_.ndv), Seq(None, None, Some(1000L), None))
    assertEquals(parse(), Nil)
    assertEquals(parse("bloom.columns" -> "d").head.fpp, 0.01)
  }

  test("errors name the option and what it accepts") {
    assert(error("bloom.columns" -> "nope").contains("unknown column 'nope'"))
    assert(error("bloom.columns" -> "id", "bloom.fpp" -> "1.0").contains("'bloom.fpp' = '1.0'"))
    assert(error("bloom.columns" -> "id", "bloom.fpp" -> "NaN").contains("strictly between 0 and 1"))
    assert(error("bloom.columns" -> "id", "bloom.ndv.id" -> "-3").contains("'bloom.ndv.id' = '-3'"))
    assert(error("bloom.columns" -> "flag").contains("booleans"))
    assert(error("bloom.columns" -> "arr").contains("arrays and maps"))
    assert(error("bloom.columns" -> "arr.x").contains("not a struct"))
    assert(error("bloom.columns" -> "s").contains("name its fields"))
    assert(error("bloom.columns" -> "id", "bloom.colums" -> "x").contains("unknown option 'bloom.colums'"))
    val int96 = intercept[IllegalArgumentException](
      BloomWriteOptions.parse(Map("bloom.columns" -> "ts"), schema, caseSensitive = false, timestampType = "INT96"))
    assert(int96.getMessage.contains("spark.sql.parquet.outputTimestampType"))
    assert(intercept[IllegalArgumentException](
      BloomWriteOptions.parse(Map("bloom.columns" -> "email"), schema, caseSensitive = true, timestampType = "INT96"))
      .getMessage.contains("unknown column 'email'"))
  }
}
