package io.bloomparquet.sbbf

import java.io.OutputStream
import java.nio.{ByteBuffer, ByteOrder}

import io.bloomparquet.kernel.{SbbfKernel, SbbfKernels}

/**
 * A Parquet split block Bloom filter: `numBlocks` blocks of eight 32-bit words.
 * Serialised form is the spec's bitset: the words in order, little-endian.
 * Every operation goes through an [[SbbfKernel]], by default the one this JVM
 * chose (`SbbfKernels.get`).
 */
final class SplitBlockBloomFilter private (val words: Array[Int], val kernel: SbbfKernel) extends BloomProbe {
  require(words.length >= 8 && (words.length & 7) == 0, s"bitset of ${words.length} words is not whole blocks")

  def numBlocks: Int = words.length >>> 3
  def numBytes: Int = words.length * 4

  def sampledWords: Array[Int] = words

  def insertHash(hash: Long): Unit = kernel.insert(words, hash)
  def mightContain(hash: Long): Boolean = kernel.check(words, hash)

  def checkHashes(hashes: Array[Long]): Array[Boolean] = {
    val out = new Array[Boolean](hashes.length)
    kernel.checkAll(words, hashes, 0, hashes.length, out)
    out
  }

  /** True when at least one of `hashes` may be present: the row-group pruning question. */
  def mightContainAny(hashes: Array[Long]): Boolean = kernel.checkAny(words, hashes, 0, hashes.length)

  def toBytes: Array[Byte] = {
    val out = ByteBuffer.allocate(numBytes).order(ByteOrder.LITTLE_ENDIAN)
    out.asIntBuffer().put(words)
    out.array()
  }

  def writeTo(out: OutputStream): Unit = out.write(toBytes)

  /** Number of set bits, for saturation diagnostics. */
  def cardinality: Long = words.iterator.map(w => Integer.bitCount(w).toLong).sum

  override def equals(other: Any): Boolean = other match {
    case f: SplitBlockBloomFilter => java.util.Arrays.equals(words, f.words)
    case _ => false
  }
  override def hashCode: Int = java.util.Arrays.hashCode(words)
  override def toString: String = s"SplitBlockBloomFilter($numBlocks blocks, ${kernel.name})"
}

object SplitBlockBloomFilter {
  val BlockBytes: Int = 32
  val MinBytes: Int = BlockBytes
  /** Upper bound we build or accept: parquet-java's maximum and our allocation cap. */
  val MaxBytes: Int = 128 * 1024 * 1024

  /** An empty filter of `numBytes` bytes (a positive multiple of 32, at most [[MaxBytes]]). */
  def apply(numBytes: Int, kernel: SbbfKernel = SbbfKernels.get()): SplitBlockBloomFilter = {
    require(isValidSize(numBytes.toLong), s"numBytes $numBytes is not a multiple of $BlockBytes in [$MinBytes, $MaxBytes]")
    new SplitBlockBloomFilter(new Array[Int](numBytes / 4), kernel)
  }

  def isValidSize(numBytes: Long): Boolean =
    numBytes >= MinBytes && numBytes <= MaxBytes && numBytes % BlockBytes == 0

  /** Reads a spec bitset (little-endian words) from `bytes[offset, offset + length)`. */
  def fromBytes(bytes: Array[Byte], offset: Int, length: Int, kernel: SbbfKernel): SplitBlockBloomFilter = {
    require(isValidSize(length.toLong), s"bitset of $length bytes is not a multiple of $BlockBytes in [$MinBytes, $MaxBytes]")
    val words = new Array[Int](length / 4)
    ByteBuffer.wrap(bytes, offset, length).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(words)
    new SplitBlockBloomFilter(words, kernel)
  }

  def fromBytes(bytes: Array[Byte]): SplitBlockBloomFilter = fromBytes(bytes, 0, bytes.length, SbbfKernels.get())

  /**
   * Expected FPP of a filter of `numBlocks` blocks holding `ndv` distinct values:
   * a block holding k values has each of its 8 probed bits set with probability
   * 1 - (31/32)^k; k is Poisson(ndv / numBlocks). Increasing in `ndv`; 1 for no blocks.
   */
  def expectedFpp(numBlocks: Long, ndv: Long): Double = {
    if (numBlocks <= 0) return 1.0
    if (ndv <= 0) return 0.0
    val lambda = ndv.toDouble / numBlocks
    if (lambda > 600) return 1.0
    val last = (lambda + 12 * math.sqrt(lambda) + 30).toInt
    var pmf = math.exp(-lambda)
    var sum = 0.0
    var k = 0
    while (k <= last) {
      sum += pmf * math.pow(1 - math.pow(31.0 / 32.0, k.toDouble), 8)
      k += 1
      pmf *= lambda / k
    }
    sum
  }

  /** The spec's bits per distinct value for a false-positive probability `fpp`. */
  def bitsPerValue(fpp: Double): Double = -8.0 / math.log(1.0 - math.pow(fpp, 1.0 / 8.0))

  /**
   * Bytes for `ndv` distinct values at `fpp`, from the spec's formula, rounded up
   * to whole blocks (any block count is valid) and bounded to [32 B, 128 MiB].
   */
  def optimalNumBytes(ndv: Long, fpp: Double): Int = {
    require(ndv >= 0, s"ndv must be >= 0, got $ndv")
    require(fpp > 0.0 && fpp < 1.0, s"fpp must be in (0, 1), got $fpp")
    val bits = ndv.toDouble * bitsPerValue(fpp)
    val blocks = math.ceil(bits / (BlockBytes * 8)).max(1.0)
    (blocks * BlockBytes).min(MaxBytes.toDouble).toInt
  }
}
