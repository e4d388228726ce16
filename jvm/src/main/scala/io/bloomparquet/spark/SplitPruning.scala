package io.bloomparquet.spark

import java.util.concurrent.TimeUnit

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.{PruningMode, ReadSettings}
import io.bloomparquet.digest.DigestPlanning
import io.bloomparquet.planning.{DigestUse, FileBloomIndexCache, FileKey, FileOutcome, FilePruner, ListedVersions, PlanningPool, PrunedFiles}
import io.bloomparquet.pruning.{BloomPredicate, ProbePayoff, SplitPlanner}
import io.bloomparquet.spark.metrics.PruningCounts
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.FileStatus
import org.apache.spark.sql.execution.datasources.PartitionedFile

/**
 * Turns Spark's splits into the splits that hold surviving row groups, reading
 * each distinct file's footer and filters once. Used on the driver while
 * planning and inside tasks alike.
 */
object SplitPruning {

  /**
   * Spark's splits cut down to the surviving row groups, pruned with the scan's `settings`
   * (`bloom.cache`, `bloom.earlyStop` through [[ProbeGate]], the gap reads of [[SplitPlanner]]...)
   * wherever this runs: see [[PruningSite]].
   */
  def prune(splits: Seq[PartitionedFile], predicate: BloomPredicate, conf: Configuration, settings: ReadSettings,
      site: PruningSite): PrunedSplits = {
    val started = System.nanoTime()
    val keyed = splits.map(s => s -> FileKey(SparkCompat.filePath(s), s.fileSize, s.modificationTime))
    val keys = keyed.map(_._2).distinct
    // A file read in several splits, by several tasks, is counted once: by whoever holds its first split.
    val counted = keyed.collect { case (split, key) if split.start == 0 => key }.distinct
    if (predicate == BloomPredicate.NoMatch) {
      // Nothing can match (`x = NULL`, a join whose other side is empty): no footer to read.
      return PrunedSplits(Seq.empty,
        PruningCounts(filesTotal = counted.size, filesPruned = counted.size,
          pruningTimeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)), Map.empty, None)
    }
    val pruned = prunedFiles(site, keys, predicate, conf, settings)
    val gap = gapBytes(predicate, settings)
    var bridged = 0L
    val cut = keyed.map { case (split, key) =>
      pruned.get(key).filter(_.failure.isEmpty) match {
        // A file that could not be read, or that its tasks are to judge, is kept whole.
        case None => CutSplit(split, key, Seq(split))
        case Some(o) =>
          val plan = SplitPlanner.plan(o.spans, o.keep, split.start, split.length, gap)
          bridged += plan.rowGroupsBridged
          CutSplit(split, key, plan.ranges.map(r => SparkCompat.withRange(split, r.start, r.length)))
      }
    }
    val kept = cut.flatMap(_.became)
    val counts = PruningCounts.of(pruned, counted, bridged, started)
    val inTask = if (pruned.inTask.isEmpty) None else Some(TaskJudging(pruned.inTask.map(_.path), predicate))
    PrunedSplits(kept, counts, JudgedFile.of(cut, pruned), inTask)
  }

  /**
   * The largest gap of pruned row groups read between two surviving runs of a file: the scan's
   * `gapBytes` where Spark's own reader would decode those row groups as well, else none. Spark's
   * reader probes bloom filters in tasks for an equality or an IN of at most
   * `spark.sql.parquet.pushdown.inFilterThreshold` values, and skips a row group we pruned by them;
   * reading it in a gap would decode rows Spark's reader does not.
   */
  def gapBytes(predicate: BloomPredicate, settings: ReadSettings): Long =
    if (SplitPlanner.readByAnyReader(predicate, settings.sparkInFilterThreshold)) settings.gapBytes else 0L

  /**
   * The files judged where `site` says: on the driver, in a planning job, or in this task. What
   * every read path cuts from (V2 splits, a V1 or Delta scan's tasks). Planning versions the files
   * from a listing of each directory first ([[ListedVersions]]), not a status call per file, and
   * lets the table's bloom digest decide the files it rules out whole before reading any other;
   * the files it keeps are left unread for their tasks to judge where `site` and
   * `bloom.digestSurvivors` let them.
   */
  def prunedFiles(site: PruningSite, keys: Seq[FileKey], predicate: BloomPredicate, conf: Configuration,
      settings: ReadSettings): PrunedFiles = site match {
    case PruningSite.Planning(spark, table, tasksJudge) =>
      val parallelism = PlanningPool.parallelism(settings.bloom.planningParallelism, keys.headOption.map(_.path))
      val listed = ListedVersions.fill(keys, conf, parallelism)
      val files = keys.map(listed.key).distinct
      val byDigest = table.filter(_ => settings.bloom.digest && files.nonEmpty)
        .map(DigestPlanning.decide(_, files, predicate, conf, settings, parallelism))
        .getOrElse(DigestPlanning.none(DigestUse.NotLookedFor))
      val inTask = if (tasksJudge && settings.bloom.digestSurvivors == PruningMode.Task) byDigest.kept else Set.empty[FileKey]
      val rest = files.filterNot(k => byDigest.ruledOut.contains(k) || inTask(k))
      val judged =
        if (DistributedPlanning.chosen(spark, rest, settings, parallelism))
          DistributedPlanning.outcomes(spark, rest, predicate, conf, settings, parallelism, listed.status)
        else outcomesHere(rest, predicate, conf, settings, parallelism, listed.status)
      val outcomes = byDigest.ruledOut ++ judged
      // By the scan's own keys: those listings versioned are judged under their versioned keys.
      if (listed.versioned.isEmpty) PrunedFiles(outcomes, inTask, byDigest.use)
      else PrunedFiles(keys.flatMap(k => outcomes.get(listed.key(k)).map(k -> _)).toMap,
        keys.filter(k => inTask(listed.key(k))).toSet, byDigest.use)
    case PruningSite.InTask(filesAtOnce) =>
      PrunedFiles(outcomesHere(keys, predicate, conf, settings, filesAtOnce), Set.empty, DigestUse.NotLookedFor)
  }

  /**
   * The outcomes this JVM's cache alone gives (nothing is read; none with `bloom.cache` off). Only files the
   * cache holds some version of are looked up: on a file system whose versions take a status call (HDFS),
   * the others would cost one each, one after the other, before a planning job even starts.
   */
  def outcomesCached(keys: Seq[FileKey], predicate: BloomPredicate, conf: Configuration,
      settings: ReadSettings): Map[FileKey, FileOutcome] =
    if (!settings.bloom.useCache) Map.empty
    else {
      val pass = FilePruner.Pass(predicate, settings, keys, parallelism = 1)
      val held = FileBloomIndexCache.heldFiles
      keys.filter(k => held(k.copy(version = None))).flatMap(k => FilePruner.cached(k, conf, pass).map(k -> _)).toMap
    }

  /** Each file's outcome, read in this JVM: cached ones first, the others `parallelism` at a time. */
  def outcomesHere(keys: Seq[FileKey], predicate: BloomPredicate, conf: Configuration, settings: ReadSettings,
      parallelism: Int, listed: FileKey => Option[FileStatus] = _ => None): Map[FileKey, FileOutcome] = {
    val pass = FilePruner.Pass(predicate, settings, keys, parallelism)
    // Many values: one file first, whose filters' fill may show that no other file's are worth reading.
    val pilot = if (pass.gate.tracking && ProbePayoff.worthPilot(predicate)) 1 else 0
    PlanningPool.forEachFile[FileKey, FileOutcome](keys, parallelism, FilePruner.cached(_, conf, pass),
      key => FilePruner.prune(key, conf, pass, listed(key)), pilot)
  }
}
