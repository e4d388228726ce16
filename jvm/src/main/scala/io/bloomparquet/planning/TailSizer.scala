package io.bloomparquet.planning

import java.util.concurrent.atomic.AtomicLong

/**
 * How many bytes to read from a file's end at once, learned over one scan:
 * 64 KiB at first, then the most any file of the scan needed for its footer and
 * wanted filters (at most 4 MiB), so files like those already read cost one read.
 */
final class TailSizer {
  private val learned = new AtomicLong(TailSizer.Initial)

  def size: Long = learned.get

  /** A file needed its last `bytes` bytes (footer and the filters it read). */
  def learn(bytes: Long): Unit = learned.accumulateAndGet(math.min(bytes, TailSizer.Max), math.max)
}

object TailSizer {
  val Initial: Long = 64L << 10
  val Max: Long = 4L << 20
}
