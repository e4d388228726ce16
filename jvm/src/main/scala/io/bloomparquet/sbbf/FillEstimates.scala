package io.bloomparquet.sbbf

/**
 * What a split block filter's bits say about it, with the formulas of the CLI
 * (python/bloomparquet/tools/estimate.py) so SQL and `bloomparquet inspect` agree.
 * A filter of B blocks has 256·B bits; an insert sets one bit in each of a
 * block's eight 32-bit words. Pure; `words` as [[SplitBlockBloomFilter.words]].
 */
object FillEstimates {
  private val WordsPerBlock = 8

  /** Fraction of the bits that are set. */
  def fill(words: Array[Int]): Double =
    words.iterator.map(w => Integer.bitCount(w).toLong).sum.toDouble / (words.length * 32L)

  /**
   * Distinct values inserted: ln(1-f) / ln(1-1/(32·B)), since a bit stays clear
   * through one insert with probability 1-1/(32·B). None when saturated (f = 1).
   */
  def estimatedNdv(words: Array[Int]): Option[Double] = estimatedNdv(fill(words), words.length / WordsPerBlock)

  /** The same from a fill measured on some of a filter's words (those held) and the filter's whole block count. */
  def estimatedNdv(fill: Double, blocks: Int): Option[Double] =
    if (fill >= 1.0 || blocks <= 0) None else Some(math.log1p(-fill) / math.log1p(-1.0 / (32.0 * blocks)))

  /**
   * The false-positive probability of this very bitset: an absent value picks a
   * block, then one bit per word, so it passes with Π popcount(word)/32; mean over blocks.
   */
  def fpp(words: Array[Int]): Double = {
    val blocks = words.length / WordsPerBlock
    var sum = 0.0
    var b = 0
    while (b < blocks) {
      var p = 1.0
      var w = 0
      while (w < WordsPerBlock) { p *= Integer.bitCount(words(b * WordsPerBlock + w)) / 32.0; w += 1 }
      sum += p
      b += 1
    }
    sum / blocks
  }
}
