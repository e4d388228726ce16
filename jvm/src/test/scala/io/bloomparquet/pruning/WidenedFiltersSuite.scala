package io.bloomparquet.pruning

import java.time.{Instant, LocalDateTime}

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.sources
import org.apache.spark.sql.types._

/** Timestamp orderings against a literal finer than a millisecond, widened outwards; the rest as judged. */
class WidenedFiltersSuite extends munit.FunSuite {

  private val schema = StructType(Seq(
      StructField("ts", TimestampType), StructField("ntz", TimestampNTZType), StructField("s", StringType)))
  private val ts = AttributeReference("ts", TimestampType)()
  private val ntz = AttributeReference("ntz", TimestampNTZType)()
  private val s = AttributeReference("s", StringType)()
  private def micros(v: Long) = Literal(v, TimestampType)

  test("an upper bound rounds up, a lower bound down, to whole milliseconds; negative ones too") {
    assertEquals(WidenedFilters.of(LessThan(ts, micros(500)), schema), Some(LessThan(ts, micros(1000))))
    assertEquals(WidenedFilters.of(LessThanOrEqual(ts, micros(1500)), schema), Some(LessThanOrEqual(ts, micros(2000))))
    assertEquals(WidenedFilters.of(GreaterThan(ts, micros(1500)), schema), Some(GreaterThan(ts, micros(1000))))
    assertEquals(WidenedFilters.of(GreaterThanOrEqual(ts, micros(-500)), schema),
      Some(GreaterThanOrEqual(ts, micros(-1000))))
    assertEquals(WidenedFilters.of(LessThan(micros(-1500), ts), schema), Some(LessThan(micros(-2000), ts)))
    assertEquals(WidenedFilters.of(GreaterThan(Literal(2500L, TimestampNTZType), ntz), schema),
      Some(GreaterThan(Literal(3000L, TimestampNTZType), ntz)))
  }

  test("a safe filter stays itself (an equality too: no millisecond equals a finer literal); Not and an unsafe string do not widen") {
    assertEquals(WidenedFilters.of(LessThan(ts, micros(2000)), schema), Some(LessThan(ts, micros(2000))))
    assertEquals(WidenedFilters.of(EqualTo(ts, micros(500)), schema), Some(EqualTo(ts, micros(500))))
    assertEquals(WidenedFilters.of(Not(LessThan(ts, micros(500))), schema), None)
    assertEquals(WidenedFilters.of(Not(EqualTo(ts, micros(500))), schema), None)
    assertEquals(WidenedFilters.of(EqualTo(s, Literal("\uFFFD")), schema), None)
  }

  test("And and Or widen where both sides do") {
    val bad = EqualTo(s, Literal("\uFFFD"))
    assertEquals(WidenedFilters.of(And(LessThan(ts, micros(500)), bad), schema), None)
    assertEquals(WidenedFilters.of(And(LessThan(ts, micros(500)), EqualTo(s, Literal("x"))), schema),
      Some(And(LessThan(ts, micros(1000)), EqualTo(s, Literal("x")))))
    assertEquals(WidenedFilters.of(Or(LessThan(ts, micros(500)), bad), schema), None)
    assertEquals(WidenedFilters.of(Or(LessThan(ts, micros(500)), GreaterThan(ts, micros(9500))), schema),
      Some(Or(LessThan(ts, micros(1000)), GreaterThan(ts, micros(9000)))))
  }

  test("V1 source filters: java.sql.Timestamp, Instant and LocalDateTime round the same way") {
    val t = java.sql.Timestamp.valueOf("1970-01-01 00:00:01.0005")
    assertEquals(WidenedFilters.of(sources.LessThan("ts", t), schema, caseSensitive = false),
      Some(sources.LessThan("ts", java.sql.Timestamp.valueOf("1970-01-01 00:00:01.001"))))
    assertEquals(WidenedFilters.of(sources.GreaterThanOrEqual("ts", t), schema, caseSensitive = false),
      Some(sources.GreaterThanOrEqual("ts", java.sql.Timestamp.valueOf("1970-01-01 00:00:01.0"))))
    val i = Instant.ofEpochSecond(-1, 999500000L)
    assertEquals(WidenedFilters.of(sources.LessThanOrEqual("ts", i), schema, caseSensitive = false),
      Some(sources.LessThanOrEqual("ts", Instant.ofEpochMilli(0))))
    val l = LocalDateTime.of(2024, 1, 1, 0, 0, 0, 1500000)
    assertEquals(WidenedFilters.of(sources.GreaterThan("ntz", l), schema, caseSensitive = false),
      Some(sources.GreaterThan("ntz", LocalDateTime.of(2024, 1, 1, 0, 0, 0, 1000000))))
    assertEquals(WidenedFilters.of(sources.Not(sources.LessThan("ts", t)), schema, caseSensitive = false), None)
  }
}
