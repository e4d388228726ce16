package io.bloomparquet.pruning

import java.nio.{ByteBuffer, ByteOrder}

import scala.jdk.CollectionConverters._

import org.apache.parquet.column.statistics.Statistics
import org.apache.parquet.internal.column.columnindex.{BoundaryOrder, ColumnIndex, ColumnIndexBuilder, OffsetIndex, OffsetIndexBuilder}
import org.apache.parquet.schema.{LogicalTypeAnnotation, PrimitiveType, Types}
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName

class PageIndexConsistencySuite extends munit.FunSuite {

  private val int64: PrimitiveType = Types.required(PrimitiveTypeName.INT64).named("k")
  private val string: PrimitiveType =
    Types.optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("s")

  private def long(v: Long) = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, v)
  private def bytes(s: String) = ByteBuffer.wrap(s.getBytes("UTF-8"))
  private val none = ByteBuffer.allocate(0)

  private def offsets(rows: Long*): OffsetIndex = {
    val b = OffsetIndexBuilder.getBuilder
    rows.foreach(r => b.add(100, r))
    b.build()
  }

  private def index(t: PrimitiveType, order: BoundaryOrder, nulls: Seq[Boolean], counts: Seq[Long],
      mins: Seq[ByteBuffer], maxes: Seq[ByteBuffer]): ColumnIndex =
    ColumnIndexBuilder.build(t, order, nulls.map(java.lang.Boolean.valueOf).asJava,
      counts.map(java.lang.Long.valueOf).asJava, mins.asJava, maxes.asJava)

  private def longStats(min: Long, max: Long, nulls: Long): Statistics[_] = {
    val s = Statistics.createStats(int64)
    s.asInstanceOf[org.apache.parquet.column.statistics.LongStatistics].setMinMax(min, max)
    s.setNumNulls(nulls)
    s
  }

  // Three pages of 100 rows: 0..99, 100..199, 200..299.
  private val pages = offsets(100, 100, 100)
  private val honest = index(int64, BoundaryOrder.ASCENDING, Seq(false, false, false), Seq(0, 0, 0),
    Seq(long(0), long(100), long(200)), Seq(long(99), long(199), long(299)))

  private def consistent(i: ColumnIndex, stats: Statistics[_] = longStats(0, 299, 0), o: OffsetIndex = pages,
      t: PrimitiveType = int64, values: Long = 300) =
    PageIndexConsistency.consistent(t, repeated = false, rows = 300, values = values, stats, i, o)

  test("an index that agrees with its chunk's statistics, counts and declared order is trusted") {
    assert(consistent(honest))
    assert(consistent(index(int64, BoundaryOrder.UNORDERED, Seq(false, false, false), Seq(0, 0, 0),
          Seq(long(100), long(0), long(200)), Seq(long(199), long(99), long(299)))))
  }

  test("every page marked all-null while the statistics count values is not") {
    val allNull = index(int64, BoundaryOrder.ASCENDING, Seq(true, true, true), Seq(0, 0, 0), Seq(none, none, none),
      Seq(none, none, none))
    assert(!consistent(allNull))
    // Null counts that say so too still disagree with the chunk's null count.
    assert(!consistent(index(int64, BoundaryOrder.ASCENDING, Seq(true, true, true), Seq(100, 100, 100),
          Seq(none, none, none), Seq(none, none, none))))
  }

  test("page bounds outside the chunk's, or missing the chunk's own min and max, are not") {
    val beyond = index(int64, BoundaryOrder.ASCENDING, Seq(false, false, false), Seq(0, 0, 0),
      Seq(long(1L << 62), long(1L << 62), long(1L << 62)), Seq(long(1L << 62), long(1L << 62), long(1L << 62)))
    assert(!consistent(beyond))
    val narrowed = index(int64, BoundaryOrder.ASCENDING, Seq(false, false, false), Seq(0, 0, 0),
      Seq(long(10), long(100), long(200)), Seq(long(99), long(199), long(299)))
    assert(!consistent(narrowed))
    val inverted = index(int64, BoundaryOrder.UNORDERED, Seq(false, false, false), Seq(0, 0, 0),
      Seq(long(0), long(199), long(200)), Seq(long(99), long(100), long(299)))
    assert(!consistent(inverted))
  }

  test("a declared order the bounds do not follow, or a shape that does not fit, is not") {
    val descending = index(int64, BoundaryOrder.DESCENDING, Seq(false, false, false), Seq(0, 0, 0),
      Seq(long(0), long(100), long(200)), Seq(long(99), long(199), long(299)))
    assert(!consistent(descending))
    assert(!consistent(honest, o = offsets(100, 200)))
    // First row indexes that do not start at 0.
    val shifted = OffsetIndexBuilder.getBuilder
    (0 until 3).foreach(i => shifted.add(1000L + i * 100, 100, 50L + 100L * i))
    assert(!consistent(honest, o = shifted.build()))
  }

  test("null counts must add up, and a page not marked all-null must hold a value") {
    assert(!consistent(index(int64, BoundaryOrder.ASCENDING, Seq(false, false, false), Seq(0, 5, 0),
          Seq(long(0), long(100), long(200)), Seq(long(99), long(199), long(299)))))
    assert(!consistent(index(int64, BoundaryOrder.ASCENDING, Seq(false, false, false), Seq(0, 100, 0),
          Seq(long(0), long(100), long(200)), Seq(long(99), long(199), long(299))), stats = longStats(0, 299, 100)))
  }

  test("a chunk whose statistics give no bounds is not trusted; an all-null chunk with all-null pages is") {
    val empty = Statistics.createStats(int64)
    assert(!consistent(honest, stats = empty))
    val allNullStats = Statistics.createStats(int64)
    allNullStats.setNumNulls(300)
    val allNull = index(int64, BoundaryOrder.UNORDERED, Seq(true, true, true), Seq(100, 100, 100),
      Seq(none, none, none), Seq(none, none, none))
    assert(consistent(allNull, stats = allNullStats))
  }

  test("byte-array bounds cut short (a min's prefix, a max's prefix raised by one) are trusted; a max beyond is not") {
    val stats = Statistics.getBuilderForReading(string).withMin("aaaaaaaaaz".getBytes("UTF-8"))
      .withMax("zzzzzzzzzb".getBytes("UTF-8")).withNumNulls(0).build()
    def judged(lastMax: String) = PageIndexConsistency.consistent(string, repeated = false, rows = 300, values = 300,
      stats,
      index(string, BoundaryOrder.ASCENDING, Seq(false, false, false), Seq(0, 0, 0),
        Seq(bytes("aaaa"), bytes("m"), bytes("p")), Seq(bytes("lz"), bytes("oz"), bytes(lastMax))), pages)
    assert(judged("zzzz{")) // "zzzzz" raised at its last byte
    assert(!judged("zzzzzzzzzc"))
  }
}
