package io.bloomparquet.pruning

import io.bloomparquet.pruning.BloomPredicate.{AllOf, ColumnIn}
import org.apache.spark.sql.connector.expressions.{Expression, Expressions, Literal}
import org.apache.spark.sql.connector.expressions.filter.Predicate
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

class RuntimeFiltersSuite extends munit.FunSuite {

  private final class Lit(val value: Any, val dataType: DataType) extends Literal[Any] {
    override def children(): Array[Expression] = Array.empty
  }
  private val schema = StructType(Seq(StructField("Id", LongType), StructField("name", StringType),
      StructField("tags", ArrayType(StringType))))
  private def in(column: String, values: (Any, DataType)*): Predicate =
    new Predicate("IN", (Expressions.column(column) +: values.map { case (v, t) => new Lit(v, t): Expression }).toArray)

  test("IN of the column's own type converts; nulls drop out; nothing left matches nothing") {
    assertEquals(RuntimeFilters.convert(in("Id", (1L, LongType), (null, LongType), (1L, LongType)), schema, caseSensitive = true),
      Some(ColumnIn(Seq("Id"), LongType, IndexedSeq(1L))))
    assertEquals(RuntimeFilters.convert(in("Id", (null, LongType)), schema, caseSensitive = true), Some(BloomPredicate.NoMatch))
    val s = UTF8String.fromString("a")
    assertEquals(RuntimeFilters.fromPredicates(Seq(in("id", (2L, LongType)), in("NAME", (s, StringType))), schema,
        caseSensitive = false),
      Some(AllOf(Seq(ColumnIn(Seq("Id"), LongType, IndexedSeq(2L)), ColumnIn(Seq("name"), StringType, IndexedSeq(s))))))
  }

  test("anything else keeps every row group") {
    assertEquals(RuntimeFilters.convert(in("id", (1L, LongType)), schema, caseSensitive = true), None) // case differs
    assertEquals(RuntimeFilters.convert(in("Id", (1, IntegerType)), schema, caseSensitive = true), None) // other type
    assertEquals(RuntimeFilters.convert(in("tags", (null, ArrayType(StringType))), schema, caseSensitive = true), None)
    assertEquals(RuntimeFilters.convert(in("missing", (1L, LongType)), schema, caseSensitive = true), None)
    val notIn = new Predicate("=", Array(Expressions.column("Id"), new Lit(1L, LongType)))
    assertEquals(RuntimeFilters.fromPredicates(Seq(notIn), schema, caseSensitive = true), None)
  }
}
