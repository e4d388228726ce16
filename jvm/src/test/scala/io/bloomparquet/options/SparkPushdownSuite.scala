package io.bloomparquet.options

import io.bloomparquet.pruning.PushdownSafety

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.sources
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

class SparkPushdownSuite extends munit.FunSuite {

  // Top-level `a.b` next to struct `a` with field `b`, and one plain column of each kind.
  private val schema = StructType(Seq(
      StructField("id", LongType), StructField("d", DecimalType(10, 2)), StructField("t", TimestampType),
      StructField("s", StringType), StructField("f", DoubleType), StructField("bin", BinaryType),
      StructField("a.b", LongType), StructField("flag", BooleanType),
      StructField("a", StructType(Seq(StructField("b", LongType), StructField("c", IntegerType))))))
  private def attr(name: String) = AttributeReference(name, schema(name).dataType)()
  private val (id, d, t, s, f, bin) = (attr("id"), attr("d"), attr("t"), attr("s"), attr("f"), attr("bin"))
  private val (dotted, a) = (attr("a.b"), attr("a"))
  private val ab = GetStructField(a, 0, Some("b"))
  private val ac = GetStructField(a, 1, Some("c"))
  private def safe(e: Expression) = !SparkPushdown.Safe.withholds(PushdownSafety.safe(e, schema))
  private def safeSource(f: sources.Filter) = !SparkPushdown.Safe.withholds(PushdownSafety.safe(f, schema, caseSensitive = true))

  test("safe passes =, <=>, IN, comparisons and null tests on integral and decimal columns") {
    val one = Literal(1L)
    Seq(EqualTo(id, one), EqualTo(one, id), EqualNullSafe(id, one), LessThan(id, one), GreaterThanOrEqual(one, id),
      In(id, Seq(one, Literal(2L))), InSet(id, Set(1L)), IsNull(id), Not(IsNotNull(id)),
      EqualTo(d, Literal(Decimal(1), DecimalType(10, 2))), IsNotNull(t),
      And(EqualTo(id, one), Or(IsNull(id), EqualTo(ac, Literal(3)))), attr("flag"), Not(attr("flag")))
      .foreach(e => assert(safe(e), e))
  }

  test("safe withholds strings, floats, timestamps, binary, dotted paths and anything not on the list") {
    val str = Literal(UTF8String.fromBytes(Array(0xc3.toByte, 0x28)), StringType)
    Seq(EqualTo(s, str), In(s, Seq(str)), EqualTo(f, Literal(0.0)), LessThan(t, Literal(500L, TimestampType)),
      EqualTo(bin, Literal(Array[Byte](1))),
      EqualTo(dotted, Literal(1L)), EqualTo(ab, Literal(1L)), IsNull(dotted),
      EqualTo(Add(id, Literal(1L)), Literal(2L)), id, EqualTo(id, Add(id, Literal(1L))), In(id, Seq(id)),
      And(EqualTo(id, Literal(1L)), EqualTo(s, str)), Or(EqualTo(id, Literal(1L)), EqualTo(f, Literal(0.0))))
      .foreach(e => assert(!safe(e), e))
    // Null tests read only null counts: fine on strings and floats.
    assert(safe(IsNotNull(s)) && safe(IsNull(f)))
  }

  test("the same list for V1 source filters, whose attribute names may be quoted") {
    Seq(sources.EqualTo("id", 1L), sources.In("id", Array(1L)), sources.IsNotNull("t"), sources.IsNull("s"),
      sources.EqualTo("a.c", 1), sources.Not(sources.And(sources.EqualTo("id", 1L), sources.GreaterThan("d", 1))))
      .foreach(e => assert(safeSource(e), e))
    Seq(sources.EqualTo("s", "x"), sources.EqualTo("f", 0.0), sources.LessThan("t", new java.sql.Timestamp(0)),
      sources.EqualTo("`a.b`", 1L), sources.EqualTo("a.b", 1L),
      sources.EqualTo("nope", 1L), sources.StringStartsWith("s", "x"), sources.Or(sources.EqualTo("id", 1L), sources.EqualTo("s", "x")))
      .foreach(e => assert(!safeSource(e), e))
  }

  test("all and none do not look at the filter") {
    val e = EqualTo(s, Literal("x"))
    assert(!SparkPushdown.All.withholds(PushdownSafety.safe(e, schema)))
    assert(SparkPushdown.Off.withholds(PushdownSafety.safe(EqualTo(id, Literal(1L)), schema)))
  }

  test("ambiguous dotted paths are found at any depth and without case") {
    assertEquals(PushdownSafety.ambiguousPaths(schema), Set("a.b"))
    val deep = StructType(Seq(StructField("X.y.z", IntegerType),
        StructField("x", StructType(Seq(StructField("Y", StructType(Seq(StructField("z", IntegerType)))))))))
    assertEquals(PushdownSafety.ambiguousPaths(deep), Set("x.y.z"))
  }
}
