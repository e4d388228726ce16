package io.bloomparquet.pruning

import io.bloomparquet.pruning.BloomPredicate.{AllOf, AnyOf, ColumnIn}
import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

class CatalystPredicatesSuite extends munit.FunSuite {

  private val id = AttributeReference("id", LongType)()
  private val name = AttributeReference("name", StringType)()
  private val score = AttributeReference("score", DoubleType)()
  private val s = AttributeReference("s", StructType(Seq(StructField("x", IntegerType))))()
  private def lit(v: Any, t: DataType) = Literal(v, t)

  private def convert(e: Expression) = CatalystPredicates.fromFilters(Seq(e))

  test("=, <=>, IN, InSet on columns and struct leaves") {
    assertEquals(convert(EqualTo(id, lit(5L, LongType))), Some(ColumnIn(Seq("id"), LongType, IndexedSeq(5L))))
    assertEquals(convert(EqualTo(lit(5L, LongType), id)), Some(ColumnIn(Seq("id"), LongType, IndexedSeq(5L))))
    assertEquals(convert(EqualNullSafe(id, lit(5L, LongType))), Some(ColumnIn(Seq("id"), LongType, IndexedSeq(5L))))
    assertEquals(convert(In(id, Seq(lit(1L, LongType), lit(null, LongType), lit(1L, LongType), lit(2L, LongType)))),
      Some(ColumnIn(Seq("id"), LongType, IndexedSeq(1L, 2L))))
    assertEquals(convert(InSet(id, Set(1L, 2L))).map(_.columns), Some(Set(Seq("id"))))
    val leaf = GetStructField(s, 0, Some("x"))
    assertEquals(convert(EqualTo(leaf, lit(3, IntegerType))), Some(ColumnIn(Seq("s", "x"), IntegerType, IndexedSeq(3))))
  }

  test("null literals: = NULL and IN (NULL) match nothing; <=> NULL is not a bloom question") {
    assertEquals(convert(EqualTo(id, lit(null, LongType))), Some(BloomPredicate.NoMatch))
    assertEquals(convert(In(id, Seq(lit(null, LongType)))), Some(BloomPredicate.NoMatch))
    assertEquals(convert(In(id, Nil)), Some(BloomPredicate.NoMatch))
    assertEquals(convert(EqualNullSafe(id, lit(null, LongType))), None)
  }

  test("AND keeps what converts; OR needs every branch") {
    val a = EqualTo(id, lit(1L, LongType))
    val b = EqualTo(name, lit(UTF8String.fromString("x"), StringType))
    val unknown = GreaterThan(id, lit(3L, LongType))
    assertEquals(convert(And(a, unknown)), convert(a))
    assertEquals(convert(And(a, b)).map(_.getClass), Some(classOf[AllOf]))
    assertEquals(convert(Or(a, b)).map(_.getClass), Some(classOf[AnyOf]))
    assertEquals(convert(Or(a, unknown)), None)
    assertEquals(convert(Or(a, EqualTo(id, lit(null, LongType)))), convert(a))
    assertEquals(CatalystPredicates.fromFilters(Seq(a, IsNotNull(id), b)).map(_.columns), Some(Set(Seq("id"), Seq("name"))))
  }

  test("casts on the column, other collations and unsupported types keep the row group") {
    assertEquals(convert(EqualTo(Cast(id, IntegerType), lit(5, IntegerType))), None)
    assertEquals(convert(EqualTo(id, lit(5, IntegerType))), None) // types differ: Spark compares after a cast
    val lcase = AttributeReference("n", StringType("UTF8_LCASE"))()
    assertEquals(convert(EqualTo(lcase, Literal.create("x", StringType("UTF8_LCASE")))), None)
    val flag = AttributeReference("flag", BooleanType)()
    assertEquals(convert(EqualTo(flag, lit(true, BooleanType))), None)
    assertEquals(convert(EqualTo(score, lit(1.5, DoubleType))).isDefined, true)
  }
}
