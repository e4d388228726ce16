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

  test("safe withholds the literals parquet-java judges otherwise than Spark, dotted paths and anything not on the list") {
    val notUtf8 = Literal(UTF8String.fromBytes(Array(0xc3.toByte, 0x28)), StringType)
    val replacement = Literal(UTF8String.fromString("a\uFFFD"), StringType)
    Seq(EqualTo(s, notUtf8), In(s, Seq(Literal("ok"), notUtf8)), EqualTo(s, replacement), StartsWith(s, notUtf8),
      EqualTo(f, Literal(Double.NaN)), LessThan(f, Literal(1.5)), Not(EqualTo(f, Literal(0.0))),
      Not(EqualTo(f, Literal(1.5))), Not(In(f, Seq(Literal(1.5)))), In(f, Seq(Literal(1.5), Literal(Double.NaN))),
      LessThan(t, Literal(500L, TimestampType)), Not(EqualTo(t, Literal(1001L, TimestampType))),
      StartsWith(bin, Literal(Array[Byte](1))),
      EqualTo(dotted, Literal(1L)), EqualTo(ab, Literal(1L)), IsNull(dotted),
      EqualTo(Add(id, Literal(1L)), Literal(2L)), id, EqualTo(id, Add(id, Literal(1L))), In(id, Seq(id)),
      And(EqualTo(id, Literal(1L)), EqualTo(s, notUtf8)), Or(EqualTo(id, Literal(1L)), LessThan(f, Literal(0.0))))
      .foreach(e => assert(!safe(e), e))
    // Null tests read only null counts: fine on strings and floats.
    assert(safe(IsNotNull(s)) && safe(IsNull(f)))
  }

  test("safe passes strings that were UTF-8, ordinary floats in equalities, whole-millisecond timestamps, binary") {
    val uuid = Literal("9f3a6c1e-0b2d-4e5f-8a7b-1c2d3e4f5a6b")
    Seq(EqualTo(s, uuid), In(s, Seq(uuid, Literal("é"))), InSet(s, Set(UTF8String.fromString("x"))), LessThan(s, uuid),
      Not(EqualTo(s, uuid)), StartsWith(s, Literal("ab")), EndsWith(s, Literal("z")), Contains(s, Literal("é")),
      EqualTo(f, Literal(1.5)), EqualNullSafe(f, Literal(-2.0)), In(f, Seq(Literal(1.5), Literal(Double.PositiveInfinity))),
      InSet(f, Set(1.5)), EqualTo(f, Literal(0.0)), In(f, Seq(Literal(-0.0), Literal(1.5))),
      EqualTo(t, Literal(2000L, TimestampType)), GreaterThan(t, Literal(-3000L, TimestampType)),
      EqualTo(t, Literal(1001L, TimestampType)), In(t, Seq(Literal(1001L, TimestampType))), // no ms value equals it
      Not(LessThan(t, Literal(0L, TimestampType))), EqualTo(bin, Literal(Array[Byte](1))),
      LessThan(bin, Literal(Array[Byte](1))), And(EqualTo(s, uuid), Or(EqualTo(f, Literal(3.0)), IsNull(f))))
      .foreach(e => assert(safe(e), e))
  }

  test("the same list for V1 source filters, whose attribute names may be quoted") {
    Seq(sources.EqualTo("id", 1L), sources.In("id", Array(1L)), sources.IsNotNull("t"), sources.IsNull("s"),
      sources.EqualTo("a.c", 1), sources.Not(sources.And(sources.EqualTo("id", 1L), sources.GreaterThan("d", 1))),
      sources.EqualTo("s", "x"), sources.StringStartsWith("s", "x"), sources.StringContains("s", "y"),
      sources.EqualTo("f", 2.5), sources.In("f", Array(2.5, 3.5)), sources.EqualTo("f", 0.0), sources.EqualTo("f", -0.0),
      sources.LessThan("t", new java.sql.Timestamp(1000)),
      sources.EqualTo("t", java.time.Instant.ofEpochMilli(5)), sources.EqualTo("t", java.time.Instant.ofEpochSecond(0, 1000)),
      sources.EqualTo("bin", Array[Byte](1)),
      sources.Or(sources.EqualTo("id", 1L), sources.EqualTo("s", "x")))
      .foreach(e => assert(safeSource(e), e))
    val tooFine = new java.sql.Timestamp(0)
    tooFine.setNanos(500000)
    Seq(sources.EqualTo("s", "\uFFFD("), sources.EqualTo("f", Double.NaN), sources.GreaterThan("f", 1.0),
      sources.Not(sources.EqualTo("f", 2.5)),
      sources.LessThan("t", tooFine), sources.Not(sources.EqualTo("t", java.time.Instant.ofEpochSecond(0, 1000))),
      sources.StringEndsWith("bin", "x"), sources.EqualTo("`a.b`", 1L), sources.EqualTo("a.b", 1L),
      sources.EqualTo("nope", 1L), sources.Or(sources.EqualTo("id", 1L), sources.EqualTo("s", "\uFFFD")))
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

  test("an equality with a float zero reaches Spark's reader naming both zeros; nothing else changes") {
    // By their text: Scala's == counts -0.0 equal to 0.0.
    def same(got: Any, want: Any) = assertEquals(got.toString, want.toString)
    val zero = Literal(0.0)
    same(PushdownSafety.bothZeros(EqualTo(f, zero)), Or(EqualTo(f, zero), EqualTo(f, Literal(-0.0))))
    same(PushdownSafety.bothZeros(EqualTo(Literal(-0.0), f)), Or(EqualTo(f, Literal(-0.0)), EqualTo(f, zero)))
    same(PushdownSafety.bothZeros(EqualNullSafe(f, zero)), Or(EqualNullSafe(f, zero), EqualNullSafe(f, Literal(-0.0))))
    same(PushdownSafety.bothZeros(EqualNullSafe(zero, f)), Or(EqualNullSafe(f, zero), EqualNullSafe(f, Literal(-0.0))))
    same(PushdownSafety.bothZeros(In(f, Seq(Literal(1.5), zero))),
      Or(In(f, Seq(Literal(1.5), zero)), EqualTo(f, Literal(-0.0))))
    val other = And(EqualTo(f, Literal(1.5)), EqualTo(id, Literal(0L)))
    same(PushdownSafety.bothZeros(other), other)
    same(PushdownSafety.bothZeros(sources.In("f", Array(0.0f))),
      sources.Or(sources.In("f", Array(0.0f)), sources.EqualTo("f", -0.0f)))
    same(PushdownSafety.bothZeros(sources.And(sources.EqualTo("f", -0.0), sources.EqualTo("id", 0L))),
      sources.And(sources.Or(sources.EqualTo("f", -0.0), sources.EqualTo("f", 0.0)), sources.EqualTo("id", 0L)))
  }
}
