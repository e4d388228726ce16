package io.bloomparquet.spark

import scala.util.control.NonFatal

import io.bloomparquet.options.{OptionRegistry, PlanningPlaceSetting, ReadSettings}
import io.bloomparquet.planning.{FileBloomIndexCache, FileKey, FileOutcome, PlanningExecutors, PlanningPlace, PlanningPool, PlanningReads, ReadCost, TailSizer}
import io.bloomparquet.pruning.BloomPredicate
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.FileStatus
import org.apache.spark.bloomparquet.ActiveExecutors
import org.apache.spark.sql.SparkSession
import org.apache.spark.util.SerializableConfiguration
import org.slf4j.LoggerFactory

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
  private val log = LoggerFactory.getLogger(getClass)

  /**
   * Whether `files` (listed, versioned keys) are read by a job, `parallelism` files at once per task or on the
   * driver. A job reads only what the driver's cache does not hold ([[outcomes]]): both places are priced by those.
   */
  def chosen(spark: SparkSession, files: Seq[FileKey], settings: ReadSettings, parallelism: Int): Boolean =
    files.nonEmpty &&
      (settings.planningPlace match {
        case PlanningPlaceSetting.Driver => false
        case PlanningPlaceSetting.Executors => true
        case PlanningPlaceSetting.Auto =>
          val executors = executorsOf(spark)
          val costAt = (n: Int) => ReadCost.forPath(files.head.path, settings.bloom.readCost.copy(filesAtOnce = n))
          // The driver reads at most its pool's threads and the planning thread at once.
          val driverAtOnce = math.min(parallelism, PlanningPool.maxThreads + 1)
          val pays = (reads: PlanningReads) =>
            PlanningPlace.onExecutors(reads, driverAtOnce, parallelism, executors, settings.planningJobSeconds, costAt)
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

  /**
   * The executors a job would run on: none on a `local[n]` master (its executor is the driver's JVM). Their
   * task slots are each executor's cores as Spark's status store has them.
   */
  def executorsOf(spark: SparkSession): PlanningExecutors = {
    val sc = spark.sparkContext
    val executors = if (sc.isLocal) Nil else ActiveExecutors.of(sc)
    if (executors.isEmpty) PlanningExecutors.None
    else PlanningExecutors(executors.size, executors.map(_.cores).sum / executors.size,
      OptionRegistry.PlanningThreads.from(sc.getConf.getOption).toInt)
  }

  /**
   * Each file's outcome: those the driver's cache answers here (nothing read), the others computed on the
   * executors in one job. The statuses a listing gave the files (`listed`) go with them: executors open the
   * files with them, as the driver would (no status request per file: [[io.bloomparquet.planning.PlanningOpen]]).
   * A file goes to the same executor every time while the executors stay (its slice is its path's hash, each
   * slice preferring one executor), so a repeat finds it in that executor's cache. If the job fails (an
   * executor lost, a serializer that refuses Hadoop's statuses), the driver reads the files itself.
   */
  def outcomes(spark: SparkSession, keys: Seq[FileKey], predicate: BloomPredicate, conf: Configuration,
      settings: ReadSettings, parallelism: Int, listed: FileKey => Option[FileStatus] = _ => None)
      : Map[FileKey, FileOutcome] = {
    val cached = SplitPruning.outcomesCached(keys, predicate, conf, settings)
    val toRead = keys.filterNot(cached.contains)
    if (toRead.isEmpty) return cached
    val read = try inJob(spark, toRead, predicate, conf, settings, listed)
    catch {
      case NonFatal(e) =>
        log.warn(s"bloomparquet: the planning job failed; planning reads the ${toRead.size} files on the driver", e)
        SplitPruning.outcomesHere(toRead, predicate, conf, settings, parallelism, listed)
    }
    cached ++ read
  }

  private def inJob(spark: SparkSession, keys: Seq[FileKey], predicate: BloomPredicate, conf: Configuration,
      settings: ReadSettings, listed: FileKey => Option[FileStatus]): Map[FileKey, FileOutcome] = {
    val sc = spark.sparkContext
    val executors = if (sc.isLocal) Nil else ActiveExecutors.of(sc)
    // A few slices per task slot, so one slow executor does not hold the whole plan back.
    val slots = if (executors.isEmpty) sc.defaultParallelism else executors.map(_.cores).sum
    val slices = math.max(1, math.min(keys.size, slots * 4))
    val located = keys.groupBy(k => Math.floorMod(k.path.hashCode, slices)).toSeq.sortBy(_._1).map { case (slice, files) =>
      (files.map(k => k -> listed(k)), executors.lift(slice % math.max(1, executors.size)).map(_.location).toSeq)
    }
    val hadoopConf = sc.broadcast(new SerializableConfiguration(conf))
    try {
      sc.makeRDD(located).flatMap { slice =>
        val files = slice.toMap
        SplitPruning.outcomesHere(slice.map(_._1), predicate, hadoopConf.value.value, settings,
          PlanningPool.parallelism(settings.bloom.planningParallelism, slice.headOption.map(_._1.path)),
          k => files.getOrElse(k, None))
      }.collect().toMap.map { case (key, outcome) => key -> outcome.copy(readByJob = true) }
    } finally hadoopConf.destroy()
  }
}
