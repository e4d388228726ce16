package io.bloomparquet.write

import io.bloomparquet.options.{BloomColumn, Sizing}
import io.bloomparquet.sbbf.SplitBlockBloomFilter

/** Collects one column chunk's value hashes and builds its bloom filter at the end of the row group. */
sealed trait FilterBuilder {
  def add(hash: Long): Unit
  /** Values (not distinct) seen, where counted: presizes the next row group's collector. */
  def valueCount: Long = 0
  /** The finished filter; the collector must not be used afterwards. */
  def build(): SplitBlockBloomFilter
}

object FilterBuilder {

  /**
   * How a chunk's filter is sized; see [[BloomColumn]].
   * @param expectedValues a guess (e.g. the previous row group's count) to presize the collector
   */
  def apply(column: BloomColumn, expectedValues: Long = 0): FilterBuilder = column.ndv match {
    case None if column.sizing == Sizing.Fold => new Folding(column.fpp, column.foldMaxNdv)
    case fixedNdv => new Collected(column.fpp, fixedNdv, expectedValues)
  }

  /**
   * Keep the hashes, sort and de-duplicate them at the end, size the filter for
   * the distinct count (or for the user's `fixedNdv`), insert each once in
   * bitset order (cheaper than one by one as they come).
   */
  final class Collected(fpp: Double, fixedNdv: Option[Long], expectedValues: Long = 0) extends FilterBuilder {
    private val hashes = new HashBuffer(math.min(math.max(expectedValues, 1024L), 1L << 26).toInt)
    private var values = 0L
    override def valueCount: Long = values
    def add(hash: Long): Unit = { hashes.add(hash); values += 1 }
    def build(): SplitBlockBloomFilter = {
      val (sorted, count) = hashes.distinct()
      val filter = SplitBlockBloomFilter(FilterSizing.numBytes(fixedNdv.getOrElse(count.toLong), fpp))
      filter.kernel.insertAll(filter.words, sorted, 0, count)
      filter
    }
  }

  /**
   * Folding: one filter sized for `maxNdv` (a block count with many divisors),
   * the distinct count estimated from its fill at the end, then folded to the
   * smallest divisor at least the optimum for that estimate.
   */
  final class Folding(fpp: Double, maxNdv: Long) extends FilterBuilder {
    private val filter = {
      val minBlocks = FilterSizing.numBytes(maxNdv, fpp) / SplitBlockBloomFilter.BlockBytes
      SplitBlockBloomFilter(SbbfFold.foldFriendlyBlocks(minBlocks) * SplitBlockBloomFilter.BlockBytes)
    }
    def add(hash: Long): Unit = filter.insertHash(hash)
    def build(): SplitBlockBloomFilter = {
      val estimate = SbbfFold.estimateDistinct(filter)
      val want = FilterSizing.numBytes(estimate, fpp) /
        SplitBlockBloomFilter.BlockBytes
      SbbfFold.fold(filter, SbbfFold.bestFactor(filter.numBlocks, want))
    }
  }
}
