package io.bloomparquet.write

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.{BloomColumn, ParquetCrypto}
import org.apache.hadoop.mapreduce.{Job, TaskAttemptContext}
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.execution.datasources.{OutputWriter, OutputWriterFactory}
import org.apache.spark.sql.types.StructType

/**
 * A Parquet write with right-sized bloom filters: the write of `bloomparquet`
 * ([[io.bloomparquet.spark.BloomParquetFileFormat]], whose own write is Spark's
 * Parquet write). Options are checked here, on the driver,
 * before any task writes data ([[BloomWriteOptions]]). Into encrypted files
 * parquet-java writes the filters ([[EncryptedFilters]]).
 */
object BloomWrite {

  /**
   * The writer factory for `dataSchema` under `options`: `parquetFactory` (Spark's
   * own, built from the same job) when no column wants a filter, else ours.
   */
  def prepare(spark: SparkSession, job: Job, options: Map[String, String], dataSchema: StructType)(
      parquetFactory: => OutputWriterFactory): OutputWriterFactory = {
    val columns = BloomWriteOptions.parse(options, dataSchema, SparkCompat.caseSensitive(spark),
      SparkCompat.parquetOutputTimestampType(spark))
    val conf = job.getConfiguration
    if (columns.nonEmpty && ParquetCrypto.configured(conf)) {
      EncryptedFilters.delegate(conf, columns)
      return parquetFactory
    }
    val parquet = parquetFactory
    if (columns.isEmpty) return parquet
    // Ours replace parquet-java's for these columns: never two filters for one chunk.
    columns.foreach(c => conf.setBoolean(s"parquet.bloom.filter.enabled#${c.dotted}", false))
    new Factory(parquet, columns)
  }

  // Serialized to executors with the write job, columns included.
  private final class Factory(parquet: OutputWriterFactory, columns: Seq[BloomColumn]) extends OutputWriterFactory {

    override def getFileExtension(context: TaskAttemptContext): String = parquet.getFileExtension(context)

    override def newInstance(path: String, dataSchema: StructType, context: TaskAttemptContext): OutputWriter =
      new BloomParquetOutputWriter(path, context, columns)
  }
}
