package io.bloomparquet.spark

import java.io.InterruptedIOException
import java.nio.channels.ClosedByInterruptException

import scala.util.control.NonFatal

import com.github.benmanes.caffeine.cache.{Cache, Caffeine}
import io.bloomparquet.compat.{ParquetSchemas, SparkCompat}
import io.bloomparquet.planning.FileKey
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.FileStatus
import org.apache.parquet.HadoopReadOptions
import org.apache.parquet.format.converter.ParquetMetadataConverter
import org.apache.parquet.hadoop.ParquetFileReader
import org.apache.parquet.hadoop.metadata.ParquetMetadata
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.types.StructType
import org.slf4j.LoggerFactory

/**
 * A path's schema without Spark's schema job. Without `mergeSchema`, Spark takes a Parquet path's
 * schema from one footer, the first data file's by path, read in a one-task job
 * (`ParquetUtils.inferSchema`): tens of milliseconds of a point lookup's time, more on a cluster.
 * Where that footer stores its writer's Spark schema (Spark's files and ours), the schema is that
 * string: read here on the driver from the same footer, as Spark reads it. Everything else is
 * Spark's inference, unchanged: files without a stored schema (whose Parquet types Spark converts
 * by session settings), merged schemas, summary files, a footer that does not read.
 */
object StoredSchema {
  private val log = LoggerFactory.getLogger(getClass)

  def infer(spark: SparkSession, options: Map[String, String], files: Seq[FileStatus]): Option[StructType] =
    onDriver(spark, options, files).orElse(ParquetSchemas.inferInJob(spark, options, files))

  private def onDriver(spark: SparkSession, options: Map[String, String], files: Seq[FileStatus]): Option[StructType] = {
    val conf = SparkCompat.sqlConf(spark)
    ParquetSchemas.soleFooterFile(options, conf, files).filterNot(Unstored.holds).flatMap { file =>
      try {
        val schema = ParquetSchemas.stored(readFooter(file, SparkCompat.newHadoopConf(spark, options)), file.getPath, conf)
        if (schema.isEmpty) Unstored.add(file)
        schema
      } catch {
        case e: ClosedByInterruptException => throw e // a cancelled query
        // Also a cancelled query; a timeout (a subclass: SocketTimeoutException...) goes to Spark's job and its retries.
        case e: InterruptedIOException if e.getClass == classOf[InterruptedIOException] || Thread.currentThread.isInterrupted =>
          throw e
        // Spark's job then does what Spark does with the file: skips it as corrupt, or fails as Spark fails.
        // Not remembered: a read can fail for want of keys or credentials the next read has.
        case NonFatal(e) =>
          log.debug(s"${file.getPath}: footer not read on the driver, Spark's schema job reads it", e)
          None
      }
    }
  }

  /**
   * The file versions whose footer was read here and stores no schema Spark would take: later
   * reads of them go straight to Spark's job rather than reading the footer twice, once here in
   * vain. A version rewritten in place is another key; an entry can only send a read to Spark's job.
   */
  private object Unstored {
    private val held: Cache[FileKey, java.lang.Boolean] = Caffeine.newBuilder().maximumSize(4096).build()
    private def key(f: FileStatus) = FileKey(f.getPath.toString, f.getLen, f.getModificationTime)
    def holds(f: FileStatus): Boolean = held.getIfPresent(key(f)) != null
    def add(f: FileStatus): Unit = held.put(key(f), java.lang.Boolean.TRUE)
  }

  /** The footer without its row groups, read as Spark's schema job reads it (the options' keys decrypt it). */
  private def readFooter(file: FileStatus, conf: Configuration): ParquetMetadata = {
    val options = HadoopReadOptions.builder(conf, file.getPath)
      .withMetadataFilter(ParquetMetadataConverter.SKIP_ROW_GROUPS).build()
    val reader = ParquetFileReader.open(HadoopInputFile.fromStatus(file, conf), options)
    try reader.getFooter
    finally reader.close()
  }
}
