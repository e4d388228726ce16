package io.bloomparquet.spark

import io.bloomparquet.options.ReadSettings
import io.bloomparquet.planning.{FileKey, FileOutcome, PlanningPool}
import io.bloomparquet.pruning.BloomPredicate
import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.SparkSession
import org.apache.spark.util.SerializableConfiguration

/**
 * Plan-time pruning as a Spark job: the files are spread over the executors,
 * each reads its files' footers and filters (through its own planning pool and
 * cache) and returns their outcomes to the driver, which cuts the splits as
 * when it reads them itself. The decisions are the same pure functions either
 * way; only where the reads happen changes.
 */
object DistributedPlanning {

  /** Each file's outcome, computed on the executors in one job. */
  def outcomes(spark: SparkSession, keys: Seq[FileKey], predicate: BloomPredicate, conf: Configuration,
      settings: ReadSettings): Map[FileKey, FileOutcome] = {
    val sc = spark.sparkContext
    val hadoopConf = sc.broadcast(new SerializableConfiguration(conf))
    // A few slices per core, so one slow executor does not hold the whole plan back.
    val slices = math.max(1, math.min(keys.size, sc.defaultParallelism * 4))
    try {
      sc.parallelize(keys, slices).mapPartitions { part =>
        val files = part.toSeq
        SplitPruning.outcomesHere(files, predicate, hadoopConf.value.value, settings,
          PlanningPool.parallelism(settings.bloom.planningParallelism, files.headOption.map(_.path))).iterator
      }.collect().toMap
    } finally hadoopConf.destroy()
  }
}
