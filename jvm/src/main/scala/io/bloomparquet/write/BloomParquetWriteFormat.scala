package io.bloomparquet.write

import org.apache.hadoop.mapreduce.{Job, TaskAttemptContext}
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.execution.datasources.{OutputWriter, OutputWriterFactory}
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat
import org.apache.spark.sql.types.StructType

/**
 * Spark's Parquet file format with right-sized split block bloom filters on
 * write: `df.write.format(classOf[BloomParquetWriteFormat].getName).option("bloom.columns", "id")`.
 * Files stay standard Parquet; reading is Spark's Parquet reader unchanged.
 * Options are listed in [[BloomWriteOptions]] and checked here, on the driver,
 * before any task writes data.
 */
class BloomParquetWriteFormat extends ParquetFileFormat {

  override def toString: String = "BloomParquet"
  override def hashCode(): Int = getClass.hashCode()
  override def equals(other: Any): Boolean = other.isInstanceOf[BloomParquetWriteFormat]

  override def prepareWrite(
      sparkSession: SparkSession,
      job: Job,
      options: Map[String, String],
      dataSchema: StructType): OutputWriterFactory = {
    val sqlConf = getSqlConf(sparkSession)
    val columns = BloomWriteOptions.parse(options, dataSchema, sqlConf.caseSensitiveAnalysis,
      sqlConf.parquetOutputTimestampType.toString)
    val conf = job.getConfiguration
    if (columns.nonEmpty) BloomParquetOutputWriter.refuseEncryption(conf)
    val parquetFactory = super.prepareWrite(sparkSession, job, options, dataSchema)
    if (columns.isEmpty) return parquetFactory
    // Ours replace parquet-java's for these columns: never two filters for one chunk.
    columns.foreach(c => conf.setBoolean(s"parquet.bloom.filter.enabled#${c.dotted}", false))
    new BloomParquetWriteFormat.Factory(parquetFactory, columns)
  }
}

object BloomParquetWriteFormat {
  // Serialized to executors with the write job, columns included.
  private final class Factory(parquet: OutputWriterFactory, columns: Seq[BloomColumn]) extends OutputWriterFactory {

    override def getFileExtension(context: TaskAttemptContext): String = parquet.getFileExtension(context)

    override def newInstance(path: String, dataSchema: StructType, context: TaskAttemptContext): OutputWriter =
      new BloomParquetOutputWriter(path, context, columns)
  }
}
