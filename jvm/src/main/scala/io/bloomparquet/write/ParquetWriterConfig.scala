package io.bloomparquet.write

import io.bloomparquet.compat.{ParquetConf, ParquetFilterShims, ParquetShims}
import org.apache.hadoop.conf.Configuration
import org.apache.parquet.column.ParquetProperties
import org.apache.parquet.hadoop.{ParquetOutputFormat => POF, ParquetWriter}

/**
 * Applies the `parquet.*` writer settings of a Hadoop configuration to a
 * `ParquetWriter.Builder`, the same settings `ParquetOutputFormat` reads for
 * Spark's own writer (page and row-group sizes, dictionary, writer version,
 * statistics, page indexes, parquet-java's bloom filters, per-column `key#col`
 * variants). We build through `ParquetWriter.Builder` because it is the public
 * way to write through our own `OutputFile`.
 */
object ParquetWriterConfig {

  def apply[B <: ParquetWriter.Builder[_, B]](builder: B, conf: Configuration): B = {
    var b = ParquetFilterShims.withNewerSettings(ParquetShims.withRowGroupRowCountLimit(builder, conf), conf)
      .withConf(conf)
      .withRowGroupSize(POF.getLongBlockSize(conf))
      .withPageSize(POF.getPageSize(conf))
      .withDictionaryPageSize(POF.getDictionaryPageSize(conf))
      .withDictionaryEncoding(POF.getEnableDictionary(conf))
      .withWriterVersion(POF.getWriterVersion(conf))
      .withMinRowCountForPageSizeCheck(POF.getMinRowCountForPageSizeCheck(conf))
      .withMaxRowCountForPageSizeCheck(POF.getMaxRowCountForPageSizeCheck(conf))
      .withBloomFilterEnabled(POF.getBloomFilterEnabled(conf))
      .withPageWriteChecksumEnabled(POF.getPageWriteChecksumEnabled(conf))
      .withValidation(POF.getValidation(conf))
      .withMaxPaddingSize(conf.getInt(POF.MAX_PADDING_BYTES, ParquetWriter.MAX_PADDING_SIZE_DEFAULT))
      .withColumnIndexTruncateLength(
        conf.getInt(POF.COLUMN_INDEX_TRUNCATE_LENGTH, ParquetProperties.DEFAULT_COLUMN_INDEX_TRUNCATE_LENGTH))
      .withStatisticsTruncateLength(
        conf.getInt(POF.STATISTICS_TRUNCATE_LENGTH, ParquetProperties.DEFAULT_STATISTICS_TRUNCATE_LENGTH))
      .withPageRowCountLimit(conf.getInt(POF.PAGE_ROW_COUNT_LIMIT, ParquetProperties.DEFAULT_PAGE_ROW_COUNT_LIMIT))
    def perColumn(conf: Configuration, key: String) = ParquetConf.perColumn(conf, key)
    perColumn(conf, POF.ENABLE_DICTIONARY).foreach { case (c, v) => b = b.withDictionaryEncoding(c, v.toBoolean) }
    perColumn(conf, POF.BLOOM_FILTER_ENABLED).foreach { case (c, v) => b = b.withBloomFilterEnabled(c, v.toBoolean) }
    perColumn(conf, POF.BLOOM_FILTER_EXPECTED_NDV).foreach { case (c, v) => b = b.withBloomFilterNDV(c, v.toLong) }
    perColumn(conf, POF.BLOOM_FILTER_FPP).foreach { case (c, v) => b = b.withBloomFilterFPP(c, v.toDouble) }
    b
  }
}
