package io.bloomparquet.sbbf

/** What reading one column chunk's bloom filter gave. Reading never throws. */
sealed trait FilterFound {
  /** Bytes fetched from the file to get this answer. */
  def bytesRead: Long
}

object FilterFound {
  /** What reading a filter whole gives: it is absent, loaded or broken. */
  sealed trait Whole extends FilterFound

  /** The chunk has no bloom filter (no `bloom_filter_offset`). */
  case object Absent extends Whole { val bytesRead = 0L }

  final case class Loaded(filter: SplitBlockBloomFilter, bytesRead: Long) extends Whole

  /** The blocks of the filter the probes so far hashed to ([[FilterBlocks]]), not the whole bitset. */
  final case class Blocks(blocks: FilterBlocks, bytesRead: Long) extends FilterFound

  /**
   * The chunk claims a filter we cannot use: the data must be read without it.
   * `transient`: an I/O error rather than a bad filter, so worth reading again later.
   */
  final case class Broken(reason: String, bytesRead: Long, transient: Boolean = false) extends Whole
}
