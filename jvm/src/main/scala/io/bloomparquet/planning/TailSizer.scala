package io.bloomparquet.planning

import java.util.concurrent.atomic.AtomicLong

/**
 * How many bytes to read from a file's end at once, learned over one scan:
 * `initial` at first (64 KiB; on a local disk, where a second read costs less
 * than reading ahead, [[TailSizer.forCost]] starts smaller), then the most any
 * file of the scan needed for its footer and wanted filters, so files like those
 * already read cost one read. A need above 4 MiB is not learned: a tail cut at
 * 4 MiB would stop short of what it needed, and the rest be read again.
 */
final class TailSizer(initial: Long = TailSizer.Initial) {
  private val learned = new AtomicLong(initial)

  def size: Long = learned.get

  /** A file needed its last `bytes` bytes (footer and the filters it read). */
  def learn(bytes: Long): Unit = if (bytes <= TailSizer.Max) learned.accumulateAndGet(bytes, math.max)
}

object TailSizer {
  val Initial: Long = 64L << 10
  val Max: Long = 4L << 20
  private val Least: Long = 8L << 10

  /** A sizer starting at what a request costs in bytes (`cost.gapBytes`), between 8 and 64 KiB. */
  def forCost(cost: ReadCost): TailSizer = new TailSizer(math.max(Least, math.min(Initial, cost.oneAfterAnother.gapBytes)))
}
