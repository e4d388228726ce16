package io.bloomparquet.compat

import org.apache.hadoop.conf.Configuration
import org.apache.parquet.format.ColumnMetaData
import org.apache.parquet.hadoop.ParquetWriter
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData

/**
 * parquet-java's bloom filter and writer settings API, in Spark 3.5's parquet-java (1.13), which predates
 * 1.14's: no `bloom_filter_length` in its footer model (parquet-format 2.9: planning reads it from the
 * footer's bytes itself, [[io.bloomparquet.tail.FilterLengths]]), no adaptive filter sizing, no
 * statistics switches.
 */
object ParquetFilterShims {

  /** 1.13's footer model has no `bloom_filter_length`: planning reads it from the footer's bytes. */
  val footerHoldsFilterLengths: Boolean = false

  /** 1.13's footer model has no `bloom_filter_length`. */
  def bloomFilterLength(chunk: ColumnChunkMetaData): Option[Int] = None

  def bloomFilterLength(md: ColumnMetaData): Option[Int] = None

  /** Files written here carry no `bloom_filter_length` (optional in the format; readers find the header). */
  def setBloomFilterLength(md: ColumnMetaData, length: Int): Unit = ()

  /** Whether parquet-java sizes NDV-less filters by the values a chunk holds: 1.13 cannot. */
  val adaptiveFilters: Boolean = false

  /** parquet-java 1.14's key; 1.13 ignores it (an NDV-less filter takes `parquet.bloom.filter.max.bytes`). */
  val AdaptiveBloomFilterEnabled: String = "parquet.bloom.filter.adaptive.enabled"

  /** parquet-java 1.14's key; 1.13 ignores it. */
  val BloomFilterCandidatesNumber: String = "parquet.bloom.filter.candidates.number"

  /** parquet-java 1.13 has none of 1.14's writer settings: nothing to apply. */
  def withNewerSettings[B <: ParquetWriter.Builder[_, B]](builder: B, conf: Configuration): B = builder
}
