package io.bloomparquet.write

/**
 * One column chunk's value hashes, appended as they come (a sequential write, no
 * random access per value), made distinct at the end by an LSD radix sort and one
 * pass. On Spark's write path this measured far cheaper than an open-addressing
 * hash set, whose table misses the cache at every insert (docs/benchmarks.md);
 * the sorted result also makes the filter inserts walk the bitset in order. When the
 * buffer of 4M hashes (32 MB) fills, it is compacted (sorted, deduplicated)
 * before growing, so past that memory stays within ~2x 8 bytes per distinct value.
 */
final class HashBuffer(initialCapacity: Int = 1024) {
  private var buf = new Array[Long](math.max(16, initialCapacity))
  private var n = 0
  private var sortedDistinct = 0 // buf[0, sortedDistinct) is sorted and distinct

  def add(hash: Long): Unit = {
    if (n == buf.length) makeRoom()
    buf(n) = hash
    n += 1
  }

  /** The distinct hashes in unsigned order, as `buf[0, count)`; `add` may continue afterwards. */
  def distinct(): (Array[Long], Int) = {
    compact()
    (buf, n)
  }

  private def makeRoom(): Unit = {
    // Small buffers just grow: sorting each time would redo the work.
    if (buf.length >= HashBuffer.CompactAt) compact()
    if (n > buf.length / 2) {
      require(buf.length <= (1 << 29), s"more than ${1 << 28} distinct values in one column chunk")
      buf = java.util.Arrays.copyOf(buf, buf.length * 2)
    }
  }

  private def compact(): Unit = if (sortedDistinct != n) {
    HashBuffer.radixSort(buf, n)
    var w = 0
    var i = 0
    while (i < n) {
      if (w == 0 || buf(w - 1) != buf(i)) { buf(w) = buf(i); w += 1 }
      i += 1
    }
    n = w
    sortedDistinct = w
  }
}

object HashBuffer {
  private val CompactAt = 1 << 22

  // 11-bit digits: 2,048 scatter targets stay in cache (16-bit digits measured slower).
  private val Bits = 11
  private val Mask = (1 << Bits) - 1

  private val Passes = (64 + Bits - 1) / Bits

  /**
   * Sorts `a[0, n)` as unsigned 64-bit values: stable counting passes over 11-bit
   * digits, all digit histograms taken in one read of the input.
   */
  def radixSort(a: Array[Long], n: Int): Unit = {
    if (n < 2) return
    val counts = new Array[Int](Passes << Bits)
    var i = 0
    while (i < n) {
      val v = a(i)
      var p = 0
      while (p < Passes) { counts((p << Bits) + ((v >>> (p * Bits)) & Mask).toInt) += 1; p += 1 }
      i += 1
    }
    var src = a
    var dst = new Array[Long](n)
    var p = 0
    while (p < Passes) {
      val base = p << Bits
      val shift = p * Bits
      // A digit shared by every value leaves the order as it is: skip the pass.
      if (counts(base + ((src(0) >>> shift) & Mask).toInt) != n) {
        var sum = 0
        var d = 0
        while (d <= Mask) { val c = counts(base + d); counts(base + d) = sum; sum += c; d += 1 }
        i = 0
        while (i < n) {
          val v = src(i)
          val slot = base + ((v >>> shift) & Mask).toInt
          dst(counts(slot)) = v
          counts(slot) += 1
          i += 1
        }
        val t = src; src = dst; dst = t
      }
      p += 1
    }
    if (src ne a) System.arraycopy(src, 0, a, 0, n)
  }
}
