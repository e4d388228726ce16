package io.bloomparquet.pruning

import io.bloomparquet.compat.ByteRange

/**
 * Which byte ranges of a file to hand Spark so that it reads the surviving row
 * groups. parquet-java assigns a row group to the split holding its midpoint
 * (first page offset + compressed size / 2), so a range selects a run of
 * consecutive row groups when it contains their midpoints and not their
 * neighbours'. Each range is opened on its own (its footer read again), so a
 * small gap of pruned row groups between two runs is read rather than opened
 * around: Spark's own cost model (`spark.sql.files.openCostInBytes`) prices an
 * open as that many bytes read. Pure.
 */
object SplitPlanner {

  /** A row group's place in the file. */
  final case class Span(start: Long, compressedSize: Long) {
    def midpoint: Long = start + compressedSize / 2
  }

  /** The ranges to read, and how many pruned row groups they read to bridge gaps. */
  final case class Plan(ranges: Seq[ByteRange], rowGroupsBridged: Int)

  /**
   * Ranges inside the split `[splitStart, splitStart + splitLength)` covering the
   * kept row groups the split owns, one per run of consecutive kept row groups, where
   * runs separated by pruned row groups of at most `gapBytes` compressed bytes in all
   * are one run. The split itself when it keeps all it owns; nothing when it keeps none.
   */
  def plan(spans: IndexedSeq[Span], keep: Int => Boolean, splitStart: Long, splitLength: Long,
      gapBytes: Long): Plan = if (!spans.indices.exists(keep)) Plan(Nil, 0)
  else {
    val splitEnd = splitStart + splitLength
    val order = spans.indices.sortBy(spans(_).start)
    val owned = order.indices.filter { k =>
      val m = spans(order(k)).midpoint; m >= splitStart && m < splitEnd
    }
    val read = bridge(owned.map(k => keep(order(k))), owned.map(k => spans(order(k)).compressedSize), gapBytes)
    val bridged = owned.indices.count(i => read(i) && !keep(order(owned(i))))
    if (read.forall(identity)) return Plan(if (owned.isEmpty) Nil else Seq(ByteRange(splitStart, splitLength)), bridged)
    val out = Seq.newBuilder[ByteRange]
    var i = 0
    while (i < owned.size) {
      if (!read(i)) i += 1
      else {
        var j = i
        while (j + 1 < owned.size && owned(j + 1) == owned(j) + 1 && read(j + 1)) j += 1
        // Widest range holding this run's midpoints and neither neighbour's.
        val first = owned(i)
        val last = owned(j)
        val lo = if (first > 0) spans(order(first - 1)).midpoint + 1 else Long.MinValue
        val hi = if (last + 1 < order.size) spans(order(last + 1)).midpoint else Long.MaxValue
        val start = math.max(lo, splitStart)
        val end = math.min(hi, splitEnd)
        out += ByteRange(start, end - start)
        i = j + 1
      }
    }
    Plan(out.result(), bridged)
  }

  /** `kept` with each gap of dropped entries between two kept ones read too when its sizes sum to at most `gapBytes`. */
  private[pruning] def bridge(kept: IndexedSeq[Boolean], sizes: IndexedSeq[Long], gapBytes: Long): IndexedSeq[Boolean] = {
    val out = kept.toArray
    val firstKept = kept.indexOf(true)
    var i = firstKept
    while (i >= 0 && i < kept.size) {
      val gapEnd = kept.indexOf(true, i + 1) // the next kept entry after this one
      if (gapEnd > i + 1 && (i + 1 until gapEnd).map(sizes).sum <= gapBytes) (i + 1 until gapEnd).foreach(out(_) = true)
      i = gapEnd
    }
    out.toIndexedSeq
  }

  /**
   * Whether a row group `predicate` rules out is one any Parquet reader pushed the same filter
   * decodes anyway: no probe is an IN of at most `inFilterThreshold` values, which parquet-java
   * answers from bloom filters (and dictionaries) too.
   */
  def readByAnyReader(predicate: BloomPredicate, inFilterThreshold: Int): Boolean = predicate match {
    case BloomPredicate.ColumnIn(_, _, values, _) => values.size > inFilterThreshold
    case BloomPredicate.AllOf(children) => children.forall(readByAnyReader(_, inFilterThreshold))
    case BloomPredicate.AnyOf(children) => children.forall(readByAnyReader(_, inFilterThreshold))
    case BloomPredicate.NoMatch => false
  }
}
