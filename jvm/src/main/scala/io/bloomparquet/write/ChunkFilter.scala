package io.bloomparquet.write

import io.bloomparquet.sbbf.SplitBlockBloomFilter

/** Collects one column chunk's value hashes and builds its bloom filter at the end of the row group. */
sealed trait ChunkFilter {
  def add(hash: Long): Unit
  /** The finished filter; the collector must not be used afterwards. */
  def build(): SplitBlockBloomFilter
}

object ChunkFilter {

  /** How a chunk's filter is sized; see [[BloomColumn]]. */
  /** @param expectedValues a guess (e.g. the previous row group's count) to presize the exact collector */
  def apply(column: BloomColumn, expectedValues: Long = 0): ChunkFilter = column.ndv match {
    case Some(ndv) => new FixedNdv(ndv, column.fpp)
    case None if column.sizing == Sizing.Fold => new Folding(column.fpp, column.foldMaxNdv)
    case None => new Exact(column.fpp, expectedValues)
  }

  /** Exact: keep the hashes, count the distinct ones, size for that count, insert each once. */
  final class Exact(fpp: Double, expectedValues: Long = 0) extends ChunkFilter {
    private val hashes = new HashBuffer(math.min(math.max(expectedValues, 1024L), 1L << 26).toInt)
    private var values = 0L
    /** Values (not distinct) seen: presizes the next row group's buffer. */
    def valueCount: Long = values
    def add(hash: Long): Unit = { hashes.add(hash); values += 1 }
    def build(): SplitBlockBloomFilter = {
      val (sorted, count) = hashes.distinct()
      val filter = SplitBlockBloomFilter(FilterSizing.numBytes(count.toLong, fpp))
      filter.kernel.insertAll(filter.words, sorted, 0, count)
      filter
    }
  }

  /** The user gave the NDV: size for it; hashes are collected and inserted in order as in [[Exact]] (cheaper than one by one). */
  final class FixedNdv(ndv: Long, fpp: Double) extends ChunkFilter {
    private val hashes = new HashBuffer()
    def add(hash: Long): Unit = hashes.add(hash)
    def build(): SplitBlockBloomFilter = {
      val (sorted, count) = hashes.distinct()
      val filter = SplitBlockBloomFilter(FilterSizing.numBytes(ndv, fpp))
      filter.kernel.insertAll(filter.words, sorted, 0, count)
      filter
    }
  }

  /**
   * Folding: one filter sized for `maxNdv` (a block count with many divisors),
   * the distinct count estimated from its fill at the end, then folded to the
   * smallest divisor at least the optimum for that estimate.
   */
  final class Folding(fpp: Double, maxNdv: Long) extends ChunkFilter {
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
