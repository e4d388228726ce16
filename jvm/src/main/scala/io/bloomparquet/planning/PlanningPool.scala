package io.bloomparquet.planning

import java.util.concurrent.atomic.{AtomicInteger, AtomicReferenceArray}
import java.util.concurrent.{Future, LinkedBlockingQueue, ThreadFactory, ThreadPoolExecutor, TimeUnit}

/**
 * The JVM-wide pool that reads footers and filters while planning: at most
 * [[maxThreads]] daemon threads (`spark.bloomparquet.planning.threads`, read
 * once per JVM: [[ProcessConfs]]), idle ones retired after a minute. Queries
 * share it; each asks for at most its own parallelism, and the calling thread
 * works too, so a saturated pool slows planning but never stalls it.
 */
object PlanningPool {
  private val daemonThreads: ThreadFactory = (r: Runnable) => {
    val t = new Thread(r, "bloomparquet-planning")
    t.setDaemon(true)
    t
  }

  private lazy val pool: ThreadPoolExecutor = {
    val threads = ProcessConfs.planningThreads
    val p = new ThreadPoolExecutor(threads, threads, 60L, TimeUnit.SECONDS,
      new LinkedBlockingQueue[Runnable](), daemonThreads)
    p.allowCoreThreadTimeOut(true)
    p
  }

  /** Files planned at once by default: on an object store planning waits on requests (20 ms each), elsewhere on I/O and CPU. */
  val ObjectStoreParallelism: Int = 64
  val DefaultParallelism: Int = 16

  /** The files a scan of `path`'s file system plans at once: its `bloom.planningParallelism`, or (0) the scheme's default. */
  def parallelism(setting: Int, path: Option[String]): Int =
    if (setting > 0) setting
    else if (path.exists(ReadCost.onObjectStore)) ObjectStoreParallelism
    else DefaultParallelism

  /** Threads the pool may run at once. */
  def maxThreads: Int = pool.getMaximumPoolSize

  /**
   * Each key's outcome: `fromCache` on the caller first (microseconds when the
   * footer and filters are cached), then `read` for the others on at most
   * `parallelism` threads (the caller and pool workers), each pulling the next key.
   * The first `pilot` keys to read are read on the caller before the others start,
   * so what they teach (a [[ProbeGate]]) applies to all the rest.
   */
  def forEachFile[K, T](keys: Seq[K], parallelism: Int, fromCache: K => Option[T], read: K => T,
      pilot: Int = 0): Map[K, T] = {
    val cached = keys.flatMap(k => fromCache(k).map(k -> _)).toMap
    val (first, uncached) = keys.filterNot(cached.contains).toIndexedSeq.splitAt(pilot.max(0))
    val piloted = first.map(k => k -> read(k))
    val fromPool = inParallel(uncached.size, parallelism)(i => read(uncached(i)))
    cached ++ piloted ++ uncached.zip(fromPool)
  }

  /**
   * `work(i)` for each i below `n`, on at most `parallelism` threads (the caller and pool workers,
   * each taking the next i), by position: what a pass over a scan's files by their place in the
   * listing takes, with no map built.
   */
  def inParallel[T](n: Int, parallelism: Int)(work: Int => T): IndexedSeq[T] = {
    val workers = math.min(parallelism, n)
    if (workers <= 1) (0 until n).map(work)
    else {
      val results = new AtomicReferenceArray[Any](n)
      val next = new AtomicInteger()
      val worker: Runnable = () => {
        var i = next.getAndIncrement()
        while (i < n) { results.set(i, work(i)); i = next.getAndIncrement() }
      }
      val submitted: Seq[Future[_]] = Seq.fill(workers - 1)(pool.submit(worker))
      worker.run()
      submitted.foreach(_.get())
      (0 until n).map(results.get(_).asInstanceOf[T])
    }
  }
}
