package io.bloomparquet.spark

import java.util.Locale
import java.util.concurrent.ConcurrentHashMap

import scala.jdk.CollectionConverters._

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.kernel.SbbfKernels
import io.bloomparquet.options.{BloomReadOptions, ReadSettings}
import io.bloomparquet.planning.KeySetSample
import io.bloomparquet.pruning.KeySetPayoff
import io.bloomparquet.schema.{ColumnResolver, FileColumn}
import org.apache.hadoop.fs.FileStatus
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.connector.read.ScanBuilder
import org.apache.spark.sql.connector.write.{LogicalWriteInfo, Write, WriteBuilder}
import org.apache.spark.sql.execution.datasources.FileFormat
import org.apache.spark.sql.execution.datasources.v2.FileTable
import org.apache.spark.sql.types.{DataType, StructType}
import org.apache.spark.sql.util.CaseInsensitiveStringMap

/** A directory of Parquet files read with bloom-filter pruning; everything else is Spark's Parquet. */
class BloomParquetTable(
    val name: String,
    sparkSession: SparkSession,
    options: CaseInsensitiveStringMap,
    paths: Seq[String],
    userSpecifiedSchema: Option[StructType],
    val fallbackFileFormat: Class[_ <: FileFormat])
    extends FileTable(sparkSession, options, paths, userSpecifiedSchema) {

  // Validate before any file is listed.
  private val readOptions = BloomReadOptions.parse(options)

  private def settings(options: CaseInsensitiveStringMap) = ReadSettings.resolve(options, SessionReadConfs.of(sparkSession))

  /**
   * The kernel, before this table's first footer read: here rather than in the optimizer rule that
   * builds the SQL route's table, which only rewrites the plan.
   */
  private def readyToRead(): Unit =
    SbbfKernels.get() // picks the kernel now, so its background warm-up runs while the scan plans

  override def newScanBuilder(options: CaseInsensitiveStringMap): ScanBuilder = {
    readyToRead()
    val merged = SparkCompat.withTableOptions(this.options, options)
    // The scan's settings, resolved once: they travel with the scan to its reader factory and tasks.
    val scan = settings(merged)
    val bloom = scan.bloom
    // Spark builds the scan's Hadoop configuration from these options (Spark's scan compares them).
    val userOptions = PlanNotes.withoutNotes(merged.asCaseSensitiveMap.asScala.toMap)
    val scanOptions = new CaseInsensitiveStringMap(
      (if (!bloom.enabled) userOptions else userOptions ++ InTaskParquet.settings(bloom.sparkPushdown)).asJava)
    new BloomParquetScanBuilder(
      SparkCompat.newParquetScanBuilder(sparkSession, fileIndex, schema, dataSchema, scanOptions), scan,
      PlanNotes.of(merged))
  }

  /**
   * The columns a runtime filter can prune ([[RuntimeFilterColumns]]), top-level names: the
   * footers are looked at once per table object, and only when a key-set filter is considered.
   */
  private lazy val runtimeFilterNames: Seq[String] = {
    readyToRead()
    (RuntimeFilterColumns.partition(fileIndex.partitionSchema.fields.toSeq) ++
      RuntimeFilterColumns.data(dataSchema.fields.toSeq, fileIndex, hadoopConf, settings(options))).map(_.name)
  }

  private lazy val hadoopConf = SparkCompat.newHadoopConf(sparkSession, options.asCaseSensitiveMap.asScala.toMap)

  def isRuntimeFilterColumn(name: String): Boolean =
    runtimeFilterNames.exists(ColumnResolver.sameName(_, name, SparkCompat.caseSensitive(sparkSession)))

  /**
   * May a runtime filter of about `keys` values on column `name` prune, and pay for its subquery?
   * `keys` is estimated only for a column some file has filters on: the estimate walks the key
   * side's statistics, and most join columns have none.
   */
  def runtimeFilterMayPay(name: String, keys: => Double): Boolean =
    isRuntimeFilterColumn(name) && keySetMayPay(name, keys)

  private val keySetSamples = new ConcurrentHashMap[String, Option[Seq[KeySetPayoff.RowGroupSample]]]()

  /**
   * May a key-set filter of about `keys` values on column `name` pay for its subquery
   * ([[KeySetPayoff]], on a sample of the files' row groups read once per table object)?
   * A partition column always may: its filter drops files by their paths.
   */
  def keySetMayPay(name: String, keys: Double): Boolean = {
    val caseSensitive = SparkCompat.caseSensitive(sparkSession)
    fileIndex.partitionSchema.fieldNames.exists(ColumnResolver.sameName(_, name, caseSensitive)) || {
      val sample = keySetSamples.computeIfAbsent(if (caseSensitive) name else name.toLowerCase(Locale.ROOT),
        _ => {
          readyToRead()
          KeySetSample.of(fileIndex.allFiles(), FileColumn.topLevel(name), caseSensitive, hadoopConf, settings(options).bloom.useCache)
        })
      sample.forall(KeySetPayoff.mayPay(_, keys))
    }
  }

  override def inferSchema(files: Seq[FileStatus]): Option[StructType] =
    StoredSchema.infer(sparkSession, options.asScala.toMap, files)

  override def newWriteBuilder(info: LogicalWriteInfo): WriteBuilder = new WriteBuilder {
    override def build(): Write = SparkCompat.newParquetWrite(paths, formatName, supportsDataType,
      SparkCompat.withTableOptions(BloomParquetTable.this.options, info))
  }

  private lazy val parquetTypes =
    SparkCompat.parquetSupportsDataType(sparkSession, options, paths, userSpecifiedSchema, fallbackFileFormat)
  override def supportsDataType(dataType: DataType): Boolean = parquetTypes(dataType)

  override def formatName: String = "BloomParquet"

  /** The options this table was opened with (a reader's, or a V1 relation's): a V1 relation over it reads with them. */
  def openedWith: Map[String, String] = options.asCaseSensitiveMap.asScala.toMap

  override def toString: String = s"BloomParquetTable($name, $readOptions)"
}
