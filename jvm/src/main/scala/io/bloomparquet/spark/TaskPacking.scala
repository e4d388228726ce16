package io.bloomparquet.spark

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.pruning.TaskBalancer
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.execution.datasources.{FilePartition, PartitionedFile}

/**
 * The surviving splits as tasks: as many as Spark's own packing would make,
 * rounded up to whole waves of the scan's parallelism, with even loads
 * (split bytes + Spark's open cost) across them ([[TaskBalancer]]).
 */
object TaskPacking {
  def pack(spark: SparkSession, files: Seq[PartitionedFile]): Seq[FilePartition] = {
    val conf = SparkCompat.sqlConf(spark)
    val openCost = conf.filesOpenCostInBytes
    val (_, sparkTasks) = SparkCompat.sparkPacking(spark, files, openCost)
    val groups = TaskBalancer.balance(files.map(_.length + openCost).toIndexedSeq,
      TaskBalancer.tasks(sparkTasks, SparkCompat.minFilePartitions(spark), conf.filesMaxPartitionNum))
    val indexed = files.toIndexedSeq
    groups.zipWithIndex.map { case (members, i) => SparkCompat.newFilePartition(i, members.map(indexed).toArray) }
  }
}
