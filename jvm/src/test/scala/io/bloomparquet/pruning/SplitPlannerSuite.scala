package io.bloomparquet.pruning

import io.bloomparquet.compat.ByteRange
import io.bloomparquet.pruning.SplitPlanner.Span

class SplitPlannerSuite extends munit.FunSuite {

  // Four row groups of 100 bytes from offset 4: midpoints 54, 154, 254, 354.
  private val spans = IndexedSeq(Span(4, 100), Span(104, 100), Span(204, 100), Span(304, 100))

  /** The plan's ranges without bridging: exactly the kept row groups. */
  private def exact(spans: IndexedSeq[Span], keep: Int => Boolean, splitStart: Long, splitLength: Long) =
    SplitPlanner.plan(spans, keep, splitStart, splitLength, gapBytes = 0).ranges

  /** The row groups parquet-java would read for a range: midpoint inside. */
  private def selected(range: ByteRange): Seq[Int] =
    spans.indices.filter { i =>
      val m = spans(i).midpoint; m >= range.start && m < range.start + range.length
    }

  test("everything kept: the split itself; nothing kept: no split") {
    assertEquals(exact(spans, _ => true, 0, 1000), Seq(ByteRange(0, 1000)))
    assertEquals(exact(spans, _ => false, 0, 1000), Nil)
  }

  test("runs of kept row groups become one range each, selecting exactly them") {
    val keep = Set(0, 2, 3)
    val ranges = exact(spans, keep, 0, 1000)
    assertEquals(ranges.size, 2)
    assertEquals(ranges.flatMap(selected), Seq(0, 2, 3))
  }

  test("ranges stay inside the original split and only take row groups it owns") {
    // The split [100, 260) owns row groups 1 and 2 (midpoints 154, 254).
    val ranges = exact(spans, _ => true, 100, 160)
    assertEquals(ranges, Seq(ByteRange(100, 160)))
    val only2 = exact(spans, Set(2, 3), 100, 160)
    assertEquals(only2.flatMap(selected), Seq(2))
    assert(only2.forall { case ByteRange(s, l) => s >= 100 && s + l <= 260 })
  }

  test("exhaustive: every keep pattern over every split selects exactly the kept owned row groups") {
    val cuts = Seq(0L, 50L, 60L, 154L, 155L, 254L, 300L, 1000L)
    for (mask <- 0 until 16; a <- cuts; b <- cuts if b > a) {
      val keep = (i: Int) => (mask & (1 << i)) != 0
      val owned = spans.indices.filter { i =>
        val m = spans(i).midpoint; m >= a && m < b
      }
      val got = exact(spans, keep, a, b - a).flatMap(selected)
      assertEquals(got, owned.filter(keep), s"mask=$mask split=[$a,$b)")
    }
  }

  test("row groups listed out of file order") {
    val shuffled = IndexedSeq(spans(2), spans(0), spans(3), spans(1))
    val ranges = exact(shuffled, i => i == 1 || i == 3, 0, 1000) // file row groups 0 and 1
    assertEquals(ranges.size, 1)
    assertEquals(ranges.flatMap(selected), Seq(0, 1))
  }

  test("a gap of pruned row groups no bigger than gapBytes is read; a bigger one is opened around") {
    val keep = Set(0, 3) // gap: row groups 1 and 2, 200 bytes
    val merged = SplitPlanner.plan(spans, keep, 0, 1000, gapBytes = 200)
    assertEquals(merged.ranges.flatMap(selected), Seq(0, 1, 2, 3))
    assertEquals(merged.rowGroupsBridged, 2)
    val apart = SplitPlanner.plan(spans, keep, 0, 1000, gapBytes = 199)
    assertEquals(apart.ranges.flatMap(selected), Seq(0, 3))
    assertEquals(apart.rowGroupsBridged, 0)
  }

  test("leading and trailing pruned row groups are never read to bridge") {
    val plan = SplitPlanner.plan(spans, Set(1, 2), 0, 1000, gapBytes = Long.MaxValue)
    assertEquals(plan.ranges.flatMap(selected), Seq(1, 2))
    assertEquals(plan.rowGroupsBridged, 0)
    assertEquals(SplitPlanner.plan(spans, _ => false, 0, 1000, Long.MaxValue), SplitPlanner.Plan(Nil, 0))
  }

  test("exhaustive with bridging: reads every kept owned row group, and pruned ones only inside small gaps") {
    val cuts = Seq(0L, 50L, 60L, 154L, 155L, 254L, 300L, 1000L)
    for (mask <- 0 until 16; a <- cuts; b <- cuts if b > a; gap <- Seq(0L, 100L, 200L, 1000L)) {
      val keep = (i: Int) => (mask & (1 << i)) != 0
      val owned = spans.indices.filter { i =>
        val m = spans(i).midpoint; m >= a && m < b
      }
      val plan = SplitPlanner.plan(spans, keep, a, b - a, gap)
      val got = plan.ranges.flatMap(selected)
      assertEquals(got.distinct, got, s"a row group read twice: mask=$mask split=[$a,$b) gap=$gap")
      assert(owned.filter(keep).forall(got.contains), s"mask=$mask split=[$a,$b) gap=$gap")
      assert(got.forall(owned.contains), s"mask=$mask split=[$a,$b) gap=$gap")
      val extra = got.filterNot(keep)
      assertEquals(extra.size, plan.rowGroupsBridged)
      val kept = owned.filter(keep)
      assert(extra.forall(i => kept.exists(_ < i) && kept.exists(_ > i)), s"not inside a gap: mask=$mask gap=$gap")
      assert(extra.map(spans(_).compressedSize).sum <= gap * math.max(1, kept.size), s"mask=$mask gap=$gap")
    }
  }

  test("gaps are read only where a reader given the same filter could not skip them: every probe an IN past the threshold") {
    def in(n: Int) = BloomPredicate.ColumnIn(Seq("k"), org.apache.spark.sql.types.LongType, (0 until n).map(_.toLong))
    assert(SplitPlanner.readByAnyReader(in(11), inFilterThreshold = 10))
    assert(!SplitPlanner.readByAnyReader(in(10), inFilterThreshold = 10))
    assert(!SplitPlanner.readByAnyReader(in(1), inFilterThreshold = 10))
    assert(SplitPlanner.readByAnyReader(BloomPredicate.AllOf(Seq(in(20), in(30))), inFilterThreshold = 10))
    assert(!SplitPlanner.readByAnyReader(BloomPredicate.AnyOf(Seq(in(20), in(3))), inFilterThreshold = 10))
    assert(!SplitPlanner.readByAnyReader(BloomPredicate.NoMatch, inFilterThreshold = 10))
  }
}
