package io.bloomparquet.spark

import java.util.concurrent.TimeUnit

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.planning.{FileKey, FileOutcome, FilePruner, PlanningPool, ProbeGate, TailSizer}
import io.bloomparquet.pruning.{BloomPredicate, ProbePayoff, RowGroupVerdict, SplitPlanner}
import io.bloomparquet.spark.metrics.PruningCounts
import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.execution.datasources.PartitionedFile

/**
 * Turns Spark's splits into the splits that hold surviving row groups, reading
 * each distinct file's footer and filters once (at most `parallelism` files at
 * a time). Used on the driver while planning and inside tasks alike.
 */
object SplitPruning {

  /**
   * `useCache`: read and fill the JVM's footer and filter cache (`bloom.cache`); `earlyStop`:
   * read no more filters once those read show they can't prune (`bloom.earlyStop`, [[ProbeGate]]);
   * `distributed`: the session and the number of files from which the reads run as a Spark job
   * on the executors ([[DistributedPlanning]]) rather than here; `gapBytes`: pruned row groups
   * between two surviving runs are read when they hold at most this many bytes, rather than
   * the file opened once more (Spark's `spark.sql.files.openCostInBytes`, [[SplitPlanner]]).
   */
  def prune(splits: Seq[PartitionedFile], predicate: BloomPredicate, conf: Configuration, caseSensitive: Boolean,
      useCache: Boolean, parallelism: Int, gapBytes: Long, earlyStop: Boolean = true,
      distributed: Option[(SparkSession, Long)] = None): PrunedSplits = {
    val started = System.nanoTime()
    val keyed = splits.map(s => s -> FileKey(SparkCompat.filePath(s), s.fileSize, s.modificationTime))
    val keys = keyed.map(_._2).distinct
    // A file read in several splits, by several tasks, is counted once: by whoever holds its first split.
    val counted = keyed.collect { case (split, key) if split.start == 0 => key }.distinct
    if (predicate == BloomPredicate.NoMatch) {
      // Nothing can match (`x = NULL`, a join whose other side is empty): no footer to read.
      return PrunedSplits(Seq.empty, PruningCounts(filesTotal = counted.size, filesPruned = counted.size,
        pruningTimeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)), Map.empty)
    }
    val outcomes = distributed.filter { case (_, threshold) => keys.size >= threshold } match {
      case Some((spark, _)) =>
        DistributedPlanning.outcomes(spark, keys, predicate, conf, caseSensitive, useCache, parallelism, earlyStop)
      case None => outcomesHere(keys, predicate, conf, caseSensitive, useCache, parallelism, earlyStop)
    }
    // A file that could not be read is kept whole (no plan).
    val plans = keyed.map { case (split, key) =>
      Some(outcomes(key)).filter(_.failure.isEmpty)
        .map(o => SplitPlanner.plan(o.spans, o.keep, split.start, split.length, gapBytes))
    }
    val cut = keyed.zip(plans).map {
      case ((split, key), None) => (split, key, Seq(split))
      case ((split, key), Some(plan)) =>
        (split, key, plan.ranges.map { case (start, length) => SparkCompat.withRange(split, start, length) })
    }
    val kept = cut.flatMap(_._3)
    val mine = counted.map(outcomes)
    val ok = mine.filter(_.failure.isEmpty)
    val counts = PruningCounts(
      filesTotal = counted.size,
      filesPruned = ok.count(o => !o.verdicts.contains(RowGroupVerdict.Keep)),
      rowGroupsTotal = ok.map(_.verdicts.size.toLong).sum,
      rowGroupsPrunedByStats = ok.map(_.verdicts.count(_ == RowGroupVerdict.PrunedByStatistics).toLong).sum,
      rowGroupsPrunedByBloom = ok.map(_.verdicts.count(_ == RowGroupVerdict.PrunedByBloomFilter).toLong).sum,
      rowGroupsUnprobed = ok.map(_.rowGroupsUnprobed.toLong).sum,
      rowGroupsReadInGaps = plans.flatten.map(_.rowGroupsBridged.toLong).sum,
      // Reads are work this JVM did, each counted where it happened.
      filterBytesRead = outcomes.values.map(_.filterBytesRead).sum,
      footersRead = outcomes.values.map(_.footersRead.toLong).sum,
      brokenFilters = mine.map(_.brokenFilters.toLong).sum,
      unreadableFiles = mine.count(_.failure.isDefined).toLong,
      pruningTimeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started))
    PrunedSplits(kept, counts, JudgedFile.of(cut, outcomes))
  }

  /** Each file's outcome, read in this JVM: cached ones first, the others `parallelism` at a time. */
  def outcomesHere(keys: Seq[FileKey], predicate: BloomPredicate, conf: Configuration, caseSensitive: Boolean,
      useCache: Boolean, parallelism: Int, earlyStop: Boolean): Map[FileKey, FileOutcome] = {
    ProcessConfs.applyOnExecutor()
    val compiler = new FilePruner.Compiler(predicate, caseSensitive)
    val tailSizer = new TailSizer
    val gate = ProbeGate(predicate, earlyStop)
    // Many values: one file first, whose filters' fill may show that no other file's are worth reading.
    val pilot = if (gate.tracking && ProbePayoff.worthPilot(predicate)) 1 else 0
    PlanningPool.forEachFile[FileKey, FileOutcome](keys, parallelism,
      key => if (useCache) FilePruner.prune(key, conf, compiler, useCache, cachedOnly = true, gate) else None,
      key => FilePruner.prune(key, conf, compiler, useCache, gate = gate, tailSizer = tailSizer).get, pilot)
  }
}
