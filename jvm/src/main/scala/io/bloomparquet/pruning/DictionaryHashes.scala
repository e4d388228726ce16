package io.bloomparquet.pruning

import io.bloomparquet.sbbf.BloomProbe

/**
 * A chunk's dictionary as the hashes of its values' PLAIN bytes, the hashes a bloom filter
 * is probed with ([[LiteralEncoder]]): a filter with no false positives but 64-bit hash
 * collisions, which only keep a row group. A literal hashes like a stored value exactly when
 * Spark's equality holds between them, so a hash not here is a value no row of the chunk holds.
 */
final class DictionaryHashes private (sorted: Array[Long]) extends BloomProbe {
  def size: Int = sorted.length
  def mightContain(hash: Long): Boolean = java.util.Arrays.binarySearch(sorted, hash) >= 0
  def mightContainAny(hashes: Array[Long]): Boolean = hashes.exists(mightContain)

  /** The dictionary's hashes as held: eight bytes each. */
  def numBytes: Int = sorted.length * 8

  /** No bits to sample: a dictionary has no false-positive rate of its own. */
  def sampledWords: Array[Int] = Array.emptyIntArray
}

object DictionaryHashes {
  def of(hashes: Array[Long]): DictionaryHashes = {
    val sorted = hashes.clone()
    java.util.Arrays.sort(sorted)
    new DictionaryHashes(sorted)
  }
}
