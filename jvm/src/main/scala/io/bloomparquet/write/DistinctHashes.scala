package io.bloomparquet.write

/**
 * The set of distinct 64-bit hashes seen in one column chunk: open addressing,
 * linear probing, power-of-two table kept at most half full. A filter only
 * cares about distinct hashes, so its size (the exact distinct count) and its
 * bits (inserting each member once) both come from here. Memory is 16 bytes
 * per distinct value at worst, bounded by the row group.
 */
final class DistinctHashes(initialCapacity: Int = 1024) {
  private var table = new Array[Long](DistinctHashes.tableSizeFor(initialCapacity))
  private var mask = table.length - 1
  // 0 marks an empty slot; the hash 0 itself is tracked on the side.
  private var hasZero = false
  private var used = 0

  def size: Long = used.toLong + (if (hasZero) 1 else 0)

  def add(hash: Long): Unit = {
    if (hash == 0L) { hasZero = true; return }
    var i = slot(hash)
    while (true) {
      val cur = table(i)
      if (cur == hash) return
      if (cur == 0L) {
        table(i) = hash
        used += 1
        if (used > (table.length >>> 1)) grow()
        return
      }
      i = (i + 1) & mask
    }
  }

  /** Calls `f` once per distinct hash. */
  def foreach(f: Long => Unit): Unit = {
    if (hasZero) f(0L)
    var i = 0
    while (i < table.length) {
      val h = table(i)
      if (h != 0L) f(h)
      i += 1
    }
  }

  /** The distinct hashes, in table order. */
  def toArray: Array[Long] = {
    val out = new Array[Long](size.toInt)
    var n = 0
    foreach { h => out(n) = h; n += 1 }
    out
  }

  // xxHash64 output is well mixed: the low bits are as good as any.
  private def slot(hash: Long): Int = (hash ^ (hash >>> 32)).toInt & mask

  private def grow(): Unit = {
    val old = table
    require(old.length <= (1 << 29), s"more than ${1 << 28} distinct values in one column chunk")
    table = new Array[Long](old.length << 1)
    mask = table.length - 1
    var i = 0
    while (i < old.length) {
      val h = old(i)
      if (h != 0L) {
        var j = slot(h)
        while (table(j) != 0L) j = (j + 1) & mask
        table(j) = h
      }
      i += 1
    }
  }
}

object DistinctHashes {
  private[write] def tableSizeFor(n: Int): Int = {
    val want = math.max(16, n.toLong * 2)
    java.lang.Long.highestOneBit(math.min(want, 1L << 30) * 2 - 1).toInt
  }
}
