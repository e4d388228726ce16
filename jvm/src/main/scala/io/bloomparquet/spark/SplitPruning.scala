package io.bloomparquet.spark

import java.util.concurrent.{Executors, ThreadFactory, TimeUnit}

import scala.concurrent.duration.Duration
import scala.concurrent.{Await, ExecutionContext, Future}

import io.bloomparquet.pruning.{BloomPredicate, FileKey, FileOutcome, FilePruner, RowGroupVerdict, SplitPlanner}
import io.bloomparquet.spark.compat.SparkCompat
import io.bloomparquet.spark.metrics.PruningCounts
import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.execution.datasources.PartitionedFile

/**
 * Turns Spark's splits into the splits that hold surviving row groups, reading
 * each distinct file's footer and filters once (at most `parallelism` files at
 * a time). Used on the driver while planning and inside tasks alike.
 */
object SplitPruning {

  def prune(splits: Seq[PartitionedFile], predicate: BloomPredicate, conf: Configuration, caseSensitive: Boolean,
      useCache: Boolean, parallelism: Int): (Seq[PartitionedFile], PruningCounts) = {
    val started = System.nanoTime()
    val keys = splits.map(SparkCompat.fileKey).distinct
    val compiler = new FilePruner.Compiler(predicate, caseSensitive)
    val outcomes: Map[FileKey, FileOutcome] = forEachFile(keys, parallelism) { key =>
      FilePruner.prune(key, conf, compiler, useCache)
    }
    val kept = splits.flatMap { split =>
      val outcome = outcomes(SparkCompat.fileKey(split))
      if (outcome.failure.isDefined) Seq(split)
      else SplitPlanner.ranges(outcome.spans, outcome.keep, split.start, split.length)
        .map { case (start, length) => SparkCompat.withRange(split, start, length) }
    }
    val keptFiles = kept.map(SparkCompat.fileKey).toSet
    val ok = outcomes.values.filter(_.failure.isEmpty)
    val counts = PruningCounts(
      filesTotal = keys.size,
      filesPruned = keys.count(k => !keptFiles.contains(k)),
      rowGroupsTotal = ok.map(_.verdicts.size.toLong).sum,
      rowGroupsPrunedByStats = ok.map(_.verdicts.count(_ == RowGroupVerdict.PrunedByStatistics).toLong).sum,
      rowGroupsPrunedByBloom = ok.map(_.verdicts.count(_ == RowGroupVerdict.PrunedByBloomFilter).toLong).sum,
      filterBytesRead = outcomes.values.map(_.filterBytesRead).sum,
      footersRead = outcomes.values.map(_.footersRead.toLong).sum,
      brokenFilters = outcomes.values.map(_.brokenFilters.toLong).sum,
      unreadableFiles = outcomes.values.count(_.failure.isDefined).toLong,
      pruningTimeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started))
    (kept, counts)
  }

  private def forEachFile[T](keys: Seq[FileKey], parallelism: Int)(f: FileKey => T): Map[FileKey, T] =
    if (parallelism <= 1 || keys.size <= 1) keys.map(k => k -> f(k)).toMap
    else {
      val pool = Executors.newFixedThreadPool(math.min(parallelism, keys.size), daemonThreads)
      try {
        implicit val ec: ExecutionContext = ExecutionContext.fromExecutor(pool)
        Await.result(Future.traverse(keys)(k => Future(k -> f(k))), Duration.Inf).toMap
      } finally pool.shutdown()
    }

  private val daemonThreads: ThreadFactory = (r: Runnable) => {
    val t = new Thread(r, "bloomparquet-planning")
    t.setDaemon(true)
    t
  }
}
