package io.bloomparquet.pruning

/**
 * Which byte ranges of a file to hand Spark so that it reads exactly the
 * surviving row groups. parquet-java assigns a row group to the split holding
 * its midpoint (first page offset + compressed size / 2), so a range selects
 * a run of consecutive row groups when it contains their midpoints and not
 * their neighbours'. Pure.
 */
object SplitPlanner {

  /** A row group's place in the file. */
  final case class Span(start: Long, compressedSize: Long) {
    def midpoint: Long = start + compressedSize / 2
  }

  /**
   * Ranges `(start, length)` inside the split `[splitStart, splitStart + splitLength)`
   * covering the kept row groups the split owns, one per run of consecutive kept
   * row groups. The split itself when it keeps all it owns; nothing when it keeps none.
   */
  def ranges(spans: IndexedSeq[Span], keep: Int => Boolean, splitStart: Long, splitLength: Long): Seq[(Long, Long)] = {
    val splitEnd = splitStart + splitLength
    val order = spans.indices.sortBy(spans(_).start)
    val owned = order.indices.filter { k => val m = spans(order(k)).midpoint; m >= splitStart && m < splitEnd }
    if (owned.forall(k => keep(order(k)))) return if (owned.isEmpty) Nil else Seq((splitStart, splitLength))
    val out = Seq.newBuilder[(Long, Long)]
    var k = 0
    while (k < owned.size) {
      if (!keep(order(owned(k)))) k += 1
      else {
        var j = k
        while (j + 1 < owned.size && owned(j + 1) == owned(j) + 1 && keep(order(owned(j + 1)))) j += 1
        // Widest range holding this run's midpoints and neither neighbour's.
        val first = owned(k)
        val last = owned(j)
        val lo = if (first > 0) spans(order(first - 1)).midpoint + 1 else Long.MinValue
        val hi = if (last + 1 < order.size) spans(order(last + 1)).midpoint else Long.MaxValue
        val start = math.max(lo, splitStart)
        val end = math.min(hi, splitEnd)
        out += ((start, end - start))
        k = j + 1
      }
    }
    out.result()
  }
}
