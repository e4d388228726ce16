package io.bloomparquet.spark

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.ReadSettings
import io.bloomparquet.pruning.SourceFilters
import io.bloomparquet.write.BloomWrite
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.FileStatus
import org.apache.hadoop.mapreduce.Job
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.execution.datasources.OutputWriterFactory
import org.apache.spark.sql.execution.datasources.PartitionedFile
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat
import org.apache.spark.sql.sources.Filter
import org.apache.spark.sql.types.StructType

/**
 * The V1 face of `bloomparquet`, which Spark uses for catalog tables
 * (`CREATE TABLE ... USING bloomparquet`), `bloomparquet.`path`` SQL and every
 * write (`df.write.format("bloomparquet")`, CTAS): writes go through
 * [[BloomWrite]] and keep the directory's bloom digest current ([[DigestRefreshingCommitter]]), reads through Spark's Parquet reader after pruning. V1 scans are planned by Spark itself, so
 * pruning here happens inside each task, before Spark's reader opens a split
 * (as `bloom.mode=task` does for V2). Same read options and semantics; no
 * bloom metrics in the V1 scan node.
 */
class BloomParquetFileFormat extends ParquetFileFormat {

  override def shortName(): String = "bloomparquet"
  override def equals(other: Any): Boolean = other.isInstanceOf[BloomParquetFileFormat]
  override def hashCode(): Int = getClass.hashCode
  override def toString: String = "BloomParquet"

  // A path's schema from its first footer on the driver where it stores one, as the V2 table does.
  override def inferSchema(sparkSession: SparkSession, options: Map[String, String],
      files: Seq[FileStatus]): Option[StructType] = StoredSchema.infer(sparkSession, options, files)

  override def prepareWrite(sparkSession: SparkSession, job: Job, options: Map[String, String],
      dataSchema: StructType): OutputWriterFactory = {
    val factory = BloomWrite.prepare(sparkSession, job, options, dataSchema)(
      super.prepareWrite(sparkSession, job, options, dataSchema))
    DigestRefreshingCommitter.install(job) // after Spark's Parquet write has named its committer in the job
    factory
  }

  override def buildReaderWithPartitionValues(
      sparkSession: SparkSession,
      dataSchema: StructType,
      partitionSchema: StructType,
      requiredSchema: StructType,
      filters: Seq[Filter],
      options: Map[String, String],
      hadoopConf: Configuration): PartitionedFile => Iterator[InternalRow] = {
    val settings = ReadSettings.resolve(options, SessionReadConfs.of(sparkSession))
    val bloom = settings.bloom
    val toSpark = ReaderFilters.of(bloom.sparkPushdown, filters, dataSchema, settings.caseSensitive)
    val skipping = if (bloom.enabled) PageSkipping.of(sparkSession, bloom.sparkPushdown, toSpark) else None
    // Spark made this configuration for this scan alone (its own Parquet format sets keys on it too).
    if (bloom.enabled) InTaskParquet.configure(hadoopConf, bloom.sparkPushdown)
    val broadcasts = ScanBroadcasts.of(sparkSession, hadoopConf)
    def reader(pageSkipping: Boolean) =
      broadcasts.reader(Seq(pageSkipping, dataSchema, partitionSchema, requiredSchema, toSpark, options)) {
        super.buildReaderWithPartitionValues(sparkSession, dataSchema, partitionSchema, requiredSchema, toSpark,
          options, if (pageSkipping) PageSkipping.on(hadoopConf) else hadoopConf)
      }
    val plain = reader(pageSkipping = false)
    val predicate =
      if (!bloom.enabled || SparkCompat.matchesByFieldId(settings.fieldIdRead, requiredSchema)) None
      else SourceFilters.fromFilters(filters, dataSchema, settings.caseSensitive)
    if (predicate.isEmpty && skipping.isEmpty) plain
    else {
      val conf = broadcasts.configuration(hadoopConf)
      val read = skipping.fold(plain)(_.choose(plain, reader(pageSkipping = true), conf))
      new V1SplitReading(read, conf, cutByPlanning = false, gapBytes = 0L, predicate.map(V1SplitReading.Judge(_, settings)))
    }
  }
}
