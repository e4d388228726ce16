package io.bloomparquet.sbbf

import io.bloomparquet.kernel.SbbfKernel

/**
 * Some blocks of one chunk's filter of `numBlocks` blocks: the 32-byte blocks a query's
 * probes hash to, read instead of the whole bitset. A hash whose block is held is checked
 * exactly as against the whole filter (a block's bits depend on the hash's low 32 bits only,
 * so a one-block bitset of its eight words gives the same answer); any other hash may be
 * present. Immutable: [[merge]] makes the union of two reads.
 */
final class FilterBlocks private (val numBlocks: Int, private val held: Map[Int, Array[Int]], kernel: SbbfKernel)
    extends BloomProbe {

  def blockOf(hash: Long): Int = SbbfKernel.blockIndex(hash, numBlocks)

  def numBytes: Int = numBlocks * SplitBlockBloomFilter.BlockBytes

  def blockCount: Int = held.size

  def mightContain(hash: Long): Boolean = held.get(blockOf(hash)).forall(kernel.check(_, hash))

  def mightContainAny(hashes: Array[Long]): Boolean = hashes.exists(mightContain)

  /** The blocks of `hashes` this does not hold, ascending. */
  def missing(hashes: Iterable[Long]): IndexedSeq[Int] =
    hashes.iterator.map(blockOf).filterNot(held.contains).toIndexedSeq.distinct.sorted

  def sampledWords: Array[Int] = held.toSeq.sortBy(_._1).flatMap(_._2).toArray

  /** These blocks and `other`'s (of the same filter). */
  def merge(other: FilterBlocks): FilterBlocks = {
    require(other.numBlocks == numBlocks, s"blocks of a ${other.numBlocks}-block filter merged into a $numBlocks-block one")
    new FilterBlocks(numBlocks, held ++ other.held, kernel)
  }

  override def toString: String = s"FilterBlocks(${held.size} of $numBlocks blocks)"
}

object FilterBlocks {
  private val WordsPerBlock = 8

  /** None of the blocks of a filter of `numBlocks` blocks. */
  def empty(numBlocks: Int, kernel: SbbfKernel): FilterBlocks = new FilterBlocks(numBlocks, Map.empty, kernel)

  /**
   * Blocks `indices` of a filter of `numBlocks` blocks, their bytes (the spec's little-endian
   * words) at `bytes(offsets(i))`, 32 each.
   */
  def fromBytes(numBlocks: Int, indices: IndexedSeq[Int], bytes: Array[Byte], offsets: IndexedSeq[Int],
      kernel: SbbfKernel): FilterBlocks = {
    require(indices.forall(b => b >= 0 && b < numBlocks), s"a block index outside 0..${numBlocks - 1}")
    val held = indices.zip(offsets).map { case (b, at) =>
      val words = new Array[Int](WordsPerBlock)
      java.nio.ByteBuffer.wrap(bytes, at, SplitBlockBloomFilter.BlockBytes).order(java.nio.ByteOrder.LITTLE_ENDIAN)
        .asIntBuffer().get(words)
      b -> words
    }.toMap
    new FilterBlocks(numBlocks, held, kernel)
  }
}
