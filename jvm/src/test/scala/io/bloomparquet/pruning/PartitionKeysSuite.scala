package io.bloomparquet.pruning

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.connector.expressions.{Expression, Expressions, Literal}
import org.apache.spark.sql.connector.expressions.filter.Predicate
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

class PartitionKeysSuite extends munit.FunSuite {

  private final class Lit(val value: Any, val dataType: DataType) extends Literal[Any] {
    override def children(): Array[Expression] = Array.empty
  }
  private val schema = StructType(Seq(StructField("Day", IntegerType), StructField("region", StringType),
      StructField("rate", DoubleType)))
  private def in(column: String, values: (Any, DataType)*): Predicate =
    new Predicate("IN", (Expressions.column(column) +: values.map { case (v, t) => new Lit(v, t): Expression }).toArray)
  private def row(day: Any, region: String): InternalRow =
    InternalRow(day, Option(region).map(UTF8String.fromString).orNull, 1.0)

  test("a file is kept when every filtered partition column holds one of the keys; null never matches") {
    val keys = PartitionKeys.fromPredicates(Seq(in("day", (1, IntegerType), (3, IntegerType), (null, IntegerType)),
        in("REGION", (UTF8String.fromString("eu"), StringType))), schema, caseSensitive = false).get
    assert(keys.keeps(row(1, "eu")))
    assert(keys.keeps(row(3, "eu")))
    assert(!keys.keeps(row(2, "eu")))
    assert(!keys.keeps(row(1, "us")))
    assert(!keys.keeps(row(null, "eu")))
    assert(!keys.keeps(row(1, null)))
  }

  test("two filters on one column intersect; an empty key set keeps nothing") {
    val both = PartitionKeys.fromPredicates(Seq(in("Day", (1, IntegerType), (2, IntegerType)),
        in("Day", (2, IntegerType))), schema, caseSensitive = true).get
    assert(!both.keeps(row(1, "eu")) && both.keeps(row(2, "eu")))
    assert(!PartitionKeys.fromPredicates(Seq(in("Day")), schema, caseSensitive = true).get.keeps(row(1, "eu")))
  }

  test("other types, other literal types, unknown or differently cased names and other predicates filter nothing") {
    def none(p: Predicate, caseSensitive: Boolean = true): Unit =
      assertEquals(PartitionKeys.fromPredicates(Seq(p), schema, caseSensitive), None, p.toString)
    none(in("rate", (1.0, DoubleType)))
    none(in("Day", (1L, LongType)))
    none(in("day", (1, IntegerType)))
    none(in("missing", (1, IntegerType)))
    none(new Predicate("=", Array(Expressions.column("Day"), new Lit(1, IntegerType))))
  }
}
