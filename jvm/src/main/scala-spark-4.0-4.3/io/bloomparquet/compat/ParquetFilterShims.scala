package io.bloomparquet.compat

import org.apache.hadoop.conf.Configuration
import org.apache.parquet.format.ColumnMetaData
import org.apache.parquet.hadoop.{ParquetOutputFormat, ParquetWriter}
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData

/**
 * parquet-java's bloom filter and writer settings API that 1.14 added (Spark 4.0-4.3 ship 1.15+; Spark
 * 3.5's 1.13 copy of this object says what it does without them).
 */
object ParquetFilterShims {

  /**
   * A chunk's `bloom_filter_length`, when its footer states one (parquet-java reports -1 for none). Any other
   * value, negative included, is what the footer says: the filter reader judges it.
   */
  def bloomFilterLength(chunk: ColumnChunkMetaData): Option[Int] =
    Some(chunk.getBloomFilterLength).filter(_ != -1)

  /** parquet-java's footer model holds every chunk's `bloom_filter_length`. */
  val footerHoldsFilterLengths: Boolean = true

  /** The thrift footer's `bloom_filter_length` of a chunk, when set. */
  def bloomFilterLength(md: ColumnMetaData): Option[Int] =
    if (md.isSetBloom_filter_length) Some(md.getBloom_filter_length) else None

  def setBloomFilterLength(md: ColumnMetaData, length: Int): Unit = md.setBloom_filter_length(length)

  /** Whether parquet-java sizes NDV-less filters by the values a chunk holds (its adaptive filter). */
  val adaptiveFilters: Boolean = true

  /** parquet-java's switch for sizing NDV-less filters by the values a chunk holds. */
  val AdaptiveBloomFilterEnabled: String = ParquetOutputFormat.ADAPTIVE_BLOOM_FILTER_ENABLED

  /** parquet-java's count of candidate filter sizes for adaptive sizing. */
  val BloomFilterCandidatesNumber: String = ParquetOutputFormat.BLOOM_FILTER_CANDIDATES_NUMBER

  /** The writer settings parquet-java 1.14 added (filter size cap, adaptive sizing, statistics switches). */
  def withNewerSettings[B <: ParquetWriter.Builder[_, B]](builder: B, conf: Configuration): B = {
    var b = builder
      .withMaxBloomFilterBytes(ParquetOutputFormat.getBloomFilterMaxBytes(conf))
      .withAdaptiveBloomFilterEnabled(ParquetOutputFormat.getAdaptiveBloomFilterEnabled(conf))
      .withStatisticsEnabled(ParquetOutputFormat.getStatisticsEnabled(conf))
      .withSizeStatisticsEnabled(ParquetOutputFormat.getSizeStatisticsEnabled(conf))
    def perColumn(key: String) = ParquetConf.perColumn(conf, key)
    perColumn(ParquetOutputFormat.BLOOM_FILTER_CANDIDATES_NUMBER).foreach { case (c, v) =>
      b = b.withBloomFilterCandidateNumber(c, v.toInt)
    }
    perColumn(ParquetOutputFormat.STATISTICS_ENABLED).foreach { case (c, v) => b = b.withStatisticsEnabled(c, v.toBoolean) }
    perColumn(ParquetOutputFormat.SIZE_STATISTICS_ENABLED).foreach { case (c, v) =>
      b = b.withSizeStatisticsEnabled(c, v.toBoolean)
    }
    b
  }
}
