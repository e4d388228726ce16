package io.bloomparquet.pruning

/** Bytes `[start, start + length)` of a file. */
final case class ByteRange(start: Long, length: Long)
