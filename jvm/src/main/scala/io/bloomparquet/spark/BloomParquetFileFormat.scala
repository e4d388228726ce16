package io.bloomparquet.spark

import scala.jdk.CollectionConverters._

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.BloomReadOptions
import io.bloomparquet.pruning.SourceFilters
import io.bloomparquet.write.BloomWrite
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.mapreduce.Job
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.execution.datasources.OutputWriterFactory
import org.apache.spark.sql.execution.datasources.PartitionedFile
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat
import org.apache.spark.sql.sources.Filter
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap
import org.apache.spark.util.SerializableConfiguration

/**
 * The V1 face of `bloomparquet`, which Spark uses for catalog tables
 * (`CREATE TABLE ... USING bloomparquet`), `bloomparquet.`path`` SQL and every
 * write (`df.write.format("bloomparquet")`, CTAS): writes go through
 * [[BloomWrite]], reads through Spark's Parquet reader after pruning. V1 scans are planned by Spark itself, so
 * pruning here happens inside each task, before Spark's reader opens a split
 * (as `bloom.mode=task` does for V2). Same read options and semantics; no
 * bloom metrics in the V1 scan node.
 */
class BloomParquetFileFormat extends ParquetFileFormat {

  override def shortName(): String = "bloomparquet"
  override def equals(other: Any): Boolean = other.isInstanceOf[BloomParquetFileFormat]
  override def hashCode(): Int = getClass.hashCode
  override def toString: String = "BloomParquet"

  override def prepareWrite(sparkSession: SparkSession, job: Job, options: Map[String, String],
      dataSchema: StructType): OutputWriterFactory =
    BloomWrite.prepare(sparkSession, job, options, dataSchema)(super.prepareWrite(sparkSession, job, options, dataSchema))

  override def buildReaderWithPartitionValues(
      sparkSession: SparkSession,
      dataSchema: StructType,
      partitionSchema: StructType,
      requiredSchema: StructType,
      filters: Seq[Filter],
      options: Map[String, String],
      hadoopConf: Configuration): PartitionedFile => Iterator[InternalRow] = {
    ProcessConfs.applyOnDriver(sparkSession)
    val settings = BloomReadOptions.parse(new CaseInsensitiveStringMap(options.asJava))
    val caseSensitive = SparkCompat.caseSensitive(sparkSession)
    val toSpark = filters.filterNot(settings.sparkPushdown.withholds(_, dataSchema, caseSensitive))
    // Spark made this configuration for this scan alone (its own Parquet format sets keys on it too).
    if (settings.enabled) InTaskParquet.configure(hadoopConf, settings.sparkPushdown)
    val read = super.buildReaderWithPartitionValues(sparkSession, dataSchema, partitionSchema, requiredSchema, toSpark,
      options, hadoopConf)
    val predicate =
      if (!settings.enabled || SparkCompat.fieldIdReadEnabled(sparkSession)) None
      else SourceFilters.fromFilters(filters, dataSchema, caseSensitive)
    predicate match {
      case None => read
      case Some(p) =>
        val conf = sparkSession.sparkContext.broadcast(new SerializableConfiguration(hadoopConf))
        val useCache = settings.useCache
        val gapBytes = SparkCompat.sqlConf(sparkSession).filesOpenCostInBytes
        (file: PartitionedFile) => {
          val PrunedSplits(kept, _, _) = SplitPruning.prune(Seq(file), p, conf.value.value, caseSensitive, useCache, 1, gapBytes)
          kept.iterator.flatMap(read)
        }
    }
  }
}
