package io.bloomparquet.sbbf

/**
 * What pruning asks of a chunk's filter: may any of these hashes be in it? A whole
 * [[SplitBlockBloomFilter]] answers every hash; [[FilterBlocks]] only the hashes whose
 * blocks it holds, and "may be" for every other (an unread block never prunes).
 */
trait BloomProbe {
  def mightContain(hash: Long): Boolean
  def mightContainAny(hashes: Array[Long]): Boolean

  /** The bitset's length in the file. */
  def numBytes: Int

  /** The words of the blocks held, for the bit-fill estimate of the false-positive rate ([[FillEstimates.fpp]]). */
  def sampledWords: Array[Int]
}
