package io.bloomparquet.pruning

import io.bloomparquet.schema.SparkColumn
import org.apache.spark.sql.sources
import org.apache.spark.sql.types._

class SourceFiltersSuite extends munit.FunSuite {

  private val struct = StructField("a", StructType(Seq(StructField("b", LongType))))
  private def schema(names: String*) = StructType(names.map(StructField(_, IntegerType)) :+ struct)

  test("a V1 attribute name: quoted, or (without a dot) a top-level name as it is; both readings must agree") {
    val dotted = schema("a.b")
    assertEquals(SourceFilters.column("`a.b`", dotted, caseSensitive = true), Some(SparkColumn(Seq("a.b"), IntegerType)))
    assertEquals(SourceFilters.column("a.b", dotted, caseSensitive = true), Some(SparkColumn(Seq("a", "b"), LongType)))
    assertEquals(SourceFilters.column("A.B", dotted, caseSensitive = false), Some(SparkColumn(Seq("a", "b"), LongType)))
    assertEquals(SourceFilters.column("`my col`", schema("my col"), caseSensitive = true),
      Some(SparkColumn(Seq("my col"), IntegerType)))
    assertEquals(SourceFilters.column("my col", schema("my col"), caseSensitive = true),
      Some(SparkColumn(Seq("my col"), IntegerType)))
    assertEquals(SourceFilters.column("x`y", schema("x`y"), caseSensitive = true), Some(SparkColumn(Seq("x`y"), IntegerType)))
    assertEquals(SourceFilters.column("`x`", schema("`x`"), caseSensitive = true), Some(SparkColumn(Seq("`x`"), IntegerType)))
    assertEquals(SourceFilters.column("`x`", schema("`x`", "x"), caseSensitive = true), None)
    assertEquals(SourceFilters.column("id", schema("id", "ID"), caseSensitive = false), None)
  }

  test("a string literal holding U+FFFD is not probed: its stored bytes may not have been UTF-8") {
    val strings = StructType(Seq(StructField("s", StringType)))
    def convert(f: sources.Filter) = SourceFilters.convert(f, strings, caseSensitive = true)
    val lost = new String(Array(0xc3.toByte, 0x28), java.nio.charset.StandardCharsets.UTF_8)
    assertEquals(lost, "\uFFFD(")
    assertEquals(convert(sources.EqualTo("s", lost)), None)
    assertEquals(convert(sources.In("s", Array("ok", lost))), None)
    assertEquals(convert(sources.Or(sources.EqualTo("s", "ok"), sources.EqualTo("s", lost))), None)
    // An AND still probes its other side.
    assertEquals(convert(sources.And(sources.EqualTo("s", "ok"), sources.EqualTo("s", lost))).map(_.columns), Some(Set(Seq("s"))))
    assertEquals(convert(sources.EqualTo("s", "ok")).map(_.toString), Some("s IN (ok)"))
  }
}
