package io.bloomparquet.pruning

import io.bloomparquet.sbbf.{BloomProbe, ParquetHash}
import org.apache.parquet.column.statistics.Statistics
import org.apache.parquet.schema.PrimitiveType
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName._

/**
 * A filter that excludes its own chunk's min or max (values the chunk's
 * statistics say it holds) is corrupt: an all-zero or damaged bitset that parses
 * fine. Two probes per chunk. Float and double are not checked: writers store
 * `-0.0` as the min of a chunk holding `0.0` (the spec asks for it), and the
 * filter holds only `0.0`'s hash. A false alarm only costs pruning on that chunk
 * (truncated binary statistics would raise one); a missed alarm is what we had.
 */
object ImpossibleFilter {

  /** Why `filter` cannot be the filter of a chunk of `column` with `stats`, if it can't. */
  def reason(column: PrimitiveType, stats: Statistics[_], filter: BloomProbe): Option[String] =
    if (stats == null || !stats.hasNonNullValue || !checkable(column)) None
    else {
      def excluded(bytes: Array[Byte]) = bytes != null && !filter.mightContain(ParquetHash.bytes(bytes))
      if (excluded(stats.getMinBytes)) Some(s"filter excludes the chunk's own min (${stats.minAsString})")
      else if (excluded(stats.getMaxBytes)) Some(s"filter excludes the chunk's own max (${stats.maxAsString})")
      else None
    }

  /** The hashes [[reason]] probes: a filter read in blocks reads theirs too, so the check still runs. */
  def hashes(column: PrimitiveType, stats: Statistics[_]): Seq[Long] =
    if (stats == null || !stats.hasNonNullValue || !checkable(column)) Nil
    else Seq(stats.getMinBytes, stats.getMaxBytes).filter(_ != null).map(ParquetHash.bytes)

  // Statistics bytes are the PLAIN encoding the filter hashed (no length prefix for binary).
  private def checkable(column: PrimitiveType): Boolean = column.getPrimitiveTypeName match {
    case INT32 | INT64 | BINARY | FIXED_LEN_BYTE_ARRAY => true
    case _ => false
  }
}
