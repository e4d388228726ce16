package io.bloomparquet.spark

import java.util.concurrent.atomic.{AtomicInteger, AtomicReferenceArray}
import java.util.concurrent.{ExecutorService, SynchronousQueue, ThreadFactory, ThreadPoolExecutor, TimeUnit}

import io.bloomparquet.pruning.{BloomPredicate, FileBloomIndexCache, FileKey, FilePruner, RowGroupVerdict, SplitPlanner}
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

  /**
   * `cacheBytes`: the process-wide footer and filter cache's budget (0: this
   * query neither reads nor fills it, and leaves it as it is).
   */
  def prune(splits: Seq[PartitionedFile], predicate: BloomPredicate, conf: Configuration, caseSensitive: Boolean,
      cacheBytes: Long, parallelism: Int): (Seq[PartitionedFile], PruningCounts) = {
    val started = System.nanoTime()
    val keyed = splits.map(s => s -> SparkCompat.fileKey(s))
    val keys = keyed.map(_._2).distinct
    if (predicate == BloomPredicate.NoMatch) {
      // Nothing can match (`x = NULL`, a join whose other side is empty): no footer to read.
      return (Seq.empty, PruningCounts(filesTotal = keys.size, filesPruned = keys.size,
        pruningTimeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)))
    }
    val useCache = cacheBytes > 0
    if (useCache) FileBloomIndexCache.setBudget(cacheBytes)
    val compiler = new FilePruner.Compiler(predicate, caseSensitive)
    val outcomes = forEachFile(keys, parallelism,
      key => if (useCache) FilePruner.prune(key, conf, compiler, useCache, cachedOnly = true) else None,
      key => FilePruner.prune(key, conf, compiler, useCache).get)
    val kept = keyed.flatMap { case (split, key) =>
      val outcome = outcomes(key)
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

  /**
   * Each key's outcome: `fromCache` on the caller first (microseconds when the
   * footer and filters are cached), then `read` for the others on at most
   * `parallelism` threads of a shared pool, each pulling the next key.
   */
  private def forEachFile[T](keys: Seq[FileKey], parallelism: Int, fromCache: FileKey => Option[T],
      read: FileKey => T): Map[FileKey, T] = {
    val cached = keys.flatMap(k => fromCache(k).map(k -> _)).toMap
    val uncached = keys.filterNot(cached.contains).toIndexedSeq
    val workers = math.min(parallelism, uncached.size)
    val fromPool = if (workers <= 1) uncached.map(k => k -> read(k)) else {
      val results = new AtomicReferenceArray[(FileKey, T)](uncached.size)
      val next = new AtomicInteger()
      val worker: Runnable = () => {
        var i = next.getAndIncrement()
        while (i < uncached.size) { results.set(i, uncached(i) -> read(uncached(i))); i = next.getAndIncrement() }
      }
      // The caller works too, so a saturated pool can't stall planning.
      val submitted: Seq[java.util.concurrent.Future[_]] = Seq.fill(workers - 1)(pool.submit(worker))
      worker.run()
      submitted.foreach(_.get())
      uncached.indices.map(results.get)
    }
    (cached ++ fromPool).toMap
  }

  // Daemon threads kept for a minute between queries; the per-query bound is the number of workers.
  private lazy val pool: ExecutorService =
    new ThreadPoolExecutor(0, Int.MaxValue, 60L, TimeUnit.SECONDS, new SynchronousQueue[Runnable](), daemonThreads)

  private val daemonThreads: ThreadFactory = (r: Runnable) => {
    val t = new Thread(r, "bloomparquet-planning")
    t.setDaemon(true)
    t
  }
}
