package io.bloomparquet.compat

/**
 * Bytes `[start, start + length)` of a file: what a plan of reads names and what [[VectoredReads]] hands
 * the file system, so every package that reads or cuts files speaks of ranges one way.
 */
final case class ByteRange(start: Long, length: Long) {
  def end: Long = start + length
}
