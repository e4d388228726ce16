package io.bloomparquet.sbbf

/**
 * Halving a split block filter without its values. The spec picks a value's block as
 * `(hash >>> 32) * B >>> 32`; for a power-of-two block count B that is the hash's top log2(B)
 * bits, so in a filter of B/2 blocks the value's block is its block in B shifted right by one,
 * and the bits it sets in the block (from the hash's low 32 bits) do not depend on B. The OR of
 * blocks 2j and 2j+1 is therefore bit for bit the filter of B/2 blocks the same values would have
 * built: no value is lost, and only the false-positive rate grows. Pure; `words` as
 * [[SplitBlockBloomFilter.words]].
 */
object FilterFolding {
  private val WordsPerBlock = 8

  /** Whether `words` can be halved: a power-of-two count of at least two blocks. */
  def foldable(words: Array[Int]): Boolean = {
    val blocks = words.length / WordsPerBlock
    blocks >= 2 && Integer.bitCount(blocks) == 1
  }

  /** The filter of half the blocks: block j is the OR of blocks 2j and 2j+1. */
  def fold(words: Array[Int]): Array[Int] = {
    require(foldable(words), s"a filter of ${words.length / WordsPerBlock} blocks cannot be halved")
    val out = new Array[Int](words.length / 2)
    var j = 0
    while (j < out.length) {
      val block = j / WordsPerBlock
      val word = j % WordsPerBlock
      out(j) = words(2 * block * WordsPerBlock + word) | words((2 * block + 1) * WordsPerBlock + word)
      j += 1
    }
    out
  }

  /**
   * `words` halved as often as its false-positive rate ([[FillEstimates.fpp]], exact for these bits)
   * stays at most `maxFpp`, or at most its own rate where that is higher already: a filter sized
   * for more values than it holds shrinks to what its values need, and no filter answers worse
   * than `maxFpp` unless it did before.
   */
  def rightSized(words: Array[Int], maxFpp: Double): Array[Int] = {
    val bound = math.max(maxFpp, FillEstimates.fpp(words))
    var current = words
    var done = false
    while (!done && foldable(current)) {
      val half = fold(current)
      if (FillEstimates.fpp(half) <= bound) current = half else done = true
    }
    current
  }
}
