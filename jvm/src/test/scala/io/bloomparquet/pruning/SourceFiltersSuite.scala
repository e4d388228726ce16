package io.bloomparquet.pruning

import io.bloomparquet.schema.SparkColumn
import org.apache.spark.sql.types._

class SourceFiltersSuite extends munit.FunSuite {

  private val struct = StructField("a", StructType(Seq(StructField("b", LongType))))
  private val dotted = StructField("a.b", IntegerType)

  test("a V1 attribute name is read quoted or as one top-level name, whichever denotes a column") {
    val both = StructType(Seq(dotted, struct))
    assertEquals(SourceFilters.column("`a.b`", both, caseSensitive = true), Some(SparkColumn(Seq("a.b"), IntegerType)))
    assertEquals(SourceFilters.column("a.b", StructType(Seq(dotted)), caseSensitive = true),
      Some(SparkColumn(Seq("a.b"), IntegerType)))
    assertEquals(SourceFilters.column("a.b", StructType(Seq(struct)), caseSensitive = true),
      Some(SparkColumn(Seq("a", "b"), LongType)))
    // Both readings denote a column: which one Spark meant depends on how it quoted; none is probed.
    assertEquals(SourceFilters.column("a.b", both, caseSensitive = true), None)
    assertEquals(SourceFilters.column("A.B", StructType(Seq(dotted)), caseSensitive = false),
      Some(SparkColumn(Seq("a.b"), IntegerType)))
  }
}
