package io.bloomparquet.spark.compat

import io.bloomparquet.pruning.{FileKey, TaskBalancer}
import org.apache.spark.broadcast.Broadcast
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.connector.read.PartitionReaderFactory
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.execution.datasources.{FilePartition, PartitionedFile, PartitioningAwareFileIndex}
import org.apache.spark.sql.execution.datasources.v2.parquet.{ParquetPartitionReaderFactory, ParquetScanBuilder}
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap
import org.apache.spark.util.SerializableConfiguration

/**
 * Every call into Spark internals whose shape changes between Spark releases
 * (case-class constructors and copies, planning helpers) lives here, so a new
 * Spark version is a change to this file only.
 */
object SparkCompat {

  def newParquetScanBuilder(spark: SparkSession, fileIndex: PartitioningAwareFileIndex, schema: StructType,
      dataSchema: StructType, options: CaseInsensitiveStringMap): ParquetScanBuilder =
    ParquetScanBuilder(spark, fileIndex, schema, dataSchema, options)

  def withRange(file: PartitionedFile, start: Long, length: Long): PartitionedFile =
    file.copy(start = start, length = length)

  def fileKey(file: PartitionedFile): FileKey = FileKey(file.toPath.toString, file.fileSize, file.modificationTime)

  def newFilePartition(index: Int, files: Array[PartitionedFile]): FilePartition = FilePartition(index, files)

  /**
   * The surviving splits as tasks: as many as Spark's own packing would make,
   * rounded up to whole waves of the scan's parallelism, with even loads
   * (split bytes + Spark's open cost) across them ([[TaskBalancer]]).
   */
  def packIntoPartitions(spark: SparkSession, files: Seq[PartitionedFile]): Seq[FilePartition] = {
    val conf = spark.sessionState.conf
    val openCost = conf.filesOpenCostInBytes
    val maxSplitBytes = FilePartition.maxSplitBytes(spark, files.map(_.length + openCost).sum)
    val sparkTasks = FilePartition.getFilePartitions(spark, files.sortBy(-_.length), maxSplitBytes).size
    // Spark's own minimum partition count (its leafNodeDefaultParallelism is private[sql]).
    val slots = conf.filesMinPartitionNum.orElse(conf.getConf(SQLConf.LEAF_NODE_DEFAULT_PARALLELISM))
      .getOrElse(spark.sparkContext.defaultParallelism)
    val groups = TaskBalancer.balance(files.map(_.length + openCost).toIndexedSeq,
      TaskBalancer.tasks(sparkTasks, slots, conf.filesMaxPartitionNum))
    val indexed = files.toIndexedSeq
    groups.zipWithIndex.map { case (members, i) => FilePartition(i, members.map(indexed).toArray) }
  }

  /** `value` cut to `spark.sql.maxMetadataStringLength`, as Spark cuts its own scan metadata. */
  def abbreviateMetadata(spark: SparkSession, value: String): String = {
    val max = math.max(spark.sessionState.conf.maxMetadataStringLength, 4)
    if (value.length <= max) value else value.take(max - 3) + "..."
  }

  /** The Hadoop configuration Spark's Parquet reader factory has already broadcast, if `factory` is one. */
  def broadcastConf(factory: PartitionReaderFactory): Option[Broadcast[SerializableConfiguration]] = factory match {
    case f: ParquetPartitionReaderFactory => Some(f.broadcastedConf)
    case _ => None
  }

  def caseSensitive(spark: SparkSession): Boolean = spark.sessionState.conf.caseSensitiveAnalysis

  /** With field-id matching on, files are matched by id, not by the names we resolve. */
  def fieldIdReadEnabled(spark: SparkSession): Boolean = spark.sessionState.conf.parquetFieldIdReadEnabled
}
