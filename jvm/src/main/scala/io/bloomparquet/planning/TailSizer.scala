package io.bloomparquet.planning

import java.util.concurrent.atomic.AtomicLong

/**
 * How many bytes to read from a file's end at once, learned over one scan: `initial` until a
 * file of the scan has been read (64 KiB; less where a second read costs less, [[TailSizer.forCost]]),
 * then the most any file needed for its footer and wanted filters, at least `floor`. Reading past
 * a need costs its bytes; a file needing more than the tail costs one more request. Files of one
 * table have footers alike, so reading ahead pays up to what a request costs times a small chance
 * that a file needs more than every file before it ([[TailSizer.forCost]]). A need above 4 MiB is
 * not learned: a tail cut at 4 MiB would stop short of what it needed, and the rest be read again.
 */
final class TailSizer(initial: Long = TailSizer.Initial, floor: Long = TailSizer.Initial) {
  private val learned = new AtomicLong(0L)

  def size: Long = learned.get match {
    case 0L => initial
    case need => math.max(need, floor)
  }

  /** A file needed its last `bytes` bytes (footer and the filters it read). */
  def learn(bytes: Long): Unit = if (bytes > 0 && bytes <= TailSizer.Max) learned.accumulateAndGet(bytes, math.max)
}

object TailSizer {
  val Initial: Long = 64L << 10
  val Max: Long = 4L << 20
  private[planning] val Least: Long = 1L << 10

  /** The chance taken that a file of a table needs a longer tail than every file read before it. */
  private val LongerThanAll = 32

  /**
   * A sizer for reads costing `cost`: first what a request costs in bytes (`gapBytes`, between 1
   * and 64 KiB), then what files needed, read ahead by 1/32 of a request's bytes (at most 64 KiB).
   * Those bytes are priced at a file's share of the bandwidth: 62.5 KB on S3 alone, ~10 KB with 64
   * files at once sharing the driver's 1 GB/s. Where requests go unnoticed (a local disk's page
   * cache) the fewest bytes: 1 KiB, then exactly the most needed.
   */
  def forCost(cost: ReadCost): TailSizer =
    if (cost.requestsUnnoticed) new TailSizer(Least, 0L)
    else {
      val request = cost.oneAfterAnother.gapBytes
      new TailSizer(math.max(Least, math.min(Initial, request)), math.min(Initial, request / LongerThanAll))
    }
}
