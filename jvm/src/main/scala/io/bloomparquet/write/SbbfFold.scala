package io.bloomparquet.write

import io.bloomparquet.sbbf.SplitBlockBloomFilter

/**
 * Folding a split block Bloom filter: the block of a hash is `(h >>> 32) * z >>> 32`,
 * so for `z = f * z'` block `j` of the `z'`-block filter is the OR of blocks
 * `j*f .. j*f+f-1` of the `z`-block one: the same hashes give a valid smaller filter.
 * Used by the "fold" sizing strategy (big filter, count estimated from its fill,
 * fold once at the end), which we measured against exact counting.
 */
object SbbfFold {

  def fold(filter: SplitBlockBloomFilter, factor: Int): SplitBlockBloomFilter = {
    val z = filter.numBlocks
    require(factor >= 1 && z % factor == 0, s"cannot fold $z blocks by $factor")
    if (factor == 1) return filter
    val src = filter.words
    val folded = SplitBlockBloomFilter((z / factor) * SplitBlockBloomFilter.BlockBytes, filter.kernel)
    val out = folded.words
    var j = 0
    while (j < z / factor) {
      var k = 0
      while (k < factor) {
        val from = (j * factor + k) * 8
        var w = 0
        while (w < 8) { out(j * 8 + w) |= src(from + w); w += 1 }
        k += 1
      }
      j += 1
    }
    folded
  }

  /** The largest factor `f` dividing `numBlocks` with `numBlocks / f >= minBlocks` (1 if none). */
  def bestFactor(numBlocks: Int, minBlocks: Int): Int = {
    var best = 1
    var f = 1
    while (f <= numBlocks && numBlocks / f >= minBlocks) {
      if (numBlocks % f == 0) best = f
      f += 1
    }
    best
  }

  /**
   * Distinct values in a filter estimated from its zero bits: each insert sets one
   * bit in each of the 8 words of one of z blocks, so a bit stays 0 with
   * probability `exp(-n / (32 z))`.
   */
  def estimateDistinct(filter: SplitBlockBloomFilter): Long = {
    val bits = filter.numBytes.toLong * 8
    val zeros = bits - filter.cardinality
    if (zeros <= 0) Long.MaxValue
    else math.ceil(-32.0 * filter.numBlocks * math.log(zeros.toDouble / bits)).toLong
  }

  /** A block count with many divisors (315 * 2^k) at least `minBlocks`, so folds land near any target. */
  def foldFriendlyBlocks(minBlocks: Int): Int = {
    var z = 315L
    while (z < minBlocks) z <<= 1
    math.min(z, SplitBlockBloomFilter.MaxBytes / SplitBlockBloomFilter.BlockBytes).toInt
  }
}
