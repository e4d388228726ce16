package io.bloomparquet.spark

import io.bloomparquet.options.{OptionRegistry, PlanningPlaceSetting, ReadSettings}
import io.bloomparquet.planning.{FileBloomIndexCache, FileKey, FileOutcome, PlanningExecutors, PlanningPlace, PlanningPool, PlanningReads, ReadCost, TailSizer}
import io.bloomparquet.pruning.BloomPredicate
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.FileStatus
import org.apache.spark.sql.SparkSession
import org.apache.spark.util.SerializableConfiguration

/**
 * Plan-time pruning as a Spark job: the files are spread over the executors,
 * each reads its files' footers and filters (through its own planning pool and
 * cache) and returns their outcomes to the driver, which cuts the splits as
 * when it reads them itself. The decisions are the same pure functions either
 * way; only where the reads happen changes. Whether a scan plans so is
 * `spark.bloomparquet.planning.distributed`: by default [[PlanningPlace]]'s
 * estimate of the time each place takes.
 */
object DistributedPlanning {

  /** Whether `files` (listed, versioned keys) are read by a job, `parallelism` files at once per task or on the driver. */
  def chosen(spark: SparkSession, files: Seq[FileKey], settings: ReadSettings, parallelism: Int): Boolean =
    files.nonEmpty &&
      (settings.planningPlace match {
        case PlanningPlaceSetting.Driver => false
        case PlanningPlaceSetting.Executors => true
        case PlanningPlaceSetting.Auto =>
          val executors = executorsOf(spark)
          val costAt = (n: Int) => ReadCost.forPath(files.head.path, settings.bloom.readCost.copy(filesAtOnce = n))
          val pays = (reads: PlanningReads) =>
            PlanningPlace.onExecutors(reads, parallelism, executors, settings.planningJobSeconds, costAt)
          val tail = TailSizer.forCost(costAt(1)).size
          // A job pays the more the more files there are to read (but for the steps of whole waves):
          // where it can't with every file to read, the cache is not looked through.
          executors.count > 0 && pays(PlanningReads(files.size, PlanningReads.RoundsPerFile, tail)) &&
          pays(PlanningReads(uncached(files, settings), PlanningReads.RoundsPerFile, tail))
      })

  /** The files the driver's cache holds no footer of (of any version: this only estimates). */
  private def uncached(files: Seq[FileKey], settings: ReadSettings): Int =
    if (!settings.bloom.useCache) files.size
    else {
      val held = FileBloomIndexCache.heldFiles
      files.count(k => !held(k.copy(version = None)))
    }

  /** The executors a job would run on: none on a `local[n]` master (its executor is the driver's JVM). */
  def executorsOf(spark: SparkSession): PlanningExecutors = {
    val sc = spark.sparkContext
    // The status tracker lists the driver too.
    val count = if (sc.isLocal) 0 else math.max(0, sc.statusTracker.getExecutorInfos.length - 1)
    if (count == 0) PlanningExecutors.None
    else PlanningExecutors(count, math.max(1, sc.defaultParallelism / count),
      OptionRegistry.PlanningThreads.from(sc.getConf.getOption).toInt)
  }

  /**
   * Each file's outcome, computed on the executors in one job. The statuses a listing gave the
   * files (`listed`) go with them: executors open the files with them, as the driver would (no
   * status request per file: [[io.bloomparquet.planning.PlanningOpen]]).
   */
  def outcomes(spark: SparkSession, keys: Seq[FileKey], predicate: BloomPredicate, conf: Configuration,
      settings: ReadSettings, listed: FileKey => Option[FileStatus] = _ => None): Map[FileKey, FileOutcome] = {
    val sc = spark.sparkContext
    val hadoopConf = sc.broadcast(new SerializableConfiguration(conf))
    // A few slices per core, so one slow executor does not hold the whole plan back.
    val slices = math.max(1, math.min(keys.size, sc.defaultParallelism * 4))
    try {
      sc.parallelize(keys.map(k => k -> listed(k)), slices).mapPartitions { part =>
        val files = part.toMap
        SplitPruning.outcomesHere(files.keys.toSeq, predicate, hadoopConf.value.value, settings,
          PlanningPool.parallelism(settings.bloom.planningParallelism, files.headOption.map(_._1.path)),
          k => files.getOrElse(k, None)).iterator
      }.collect().toMap.map { case (key, outcome) => key -> outcome.copy(readByJob = true) }
    } finally hadoopConf.destroy()
  }
}
