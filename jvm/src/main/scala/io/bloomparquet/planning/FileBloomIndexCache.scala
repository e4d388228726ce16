package io.bloomparquet.planning

import com.github.benmanes.caffeine.cache.{Cache, Caffeine}

/**
 * The process-wide cache of [[FileBloomIndex]]es, bounded by the heap bytes
 * they hold ([[FileBloomIndex.heapBytes]]), so repeated queries on the same
 * files read neither footers nor filters again. Caffeine (shaded into our jar)
 * does the bounding; its maintenance runs on the calling thread, so a put has
 * evicted what exceeds the budget when it returns.
 */
object FileBloomIndexCache {
  private lazy val cache: Cache[FileKey, FileBloomIndex] = Caffeine.newBuilder()
    .maximumWeight(ProcessConfs.cacheBytes)
    .weigher[FileKey, FileBloomIndex]((key: FileKey, index: FileBloomIndex) =>
      math.min(Int.MaxValue.toLong, key.heapBytes + index.heapBytes).toInt)
    .executor((task: Runnable) => task.run())
    .build[FileKey, FileBloomIndex]()

  /** Sets the bound (tests; otherwise `spark.bloomparquet.cache.maxMb`, read once per JVM: [[ProcessConfs]]). */
  def setBudget(bytes: Long): Unit = {
    cache.policy.eviction.ifPresent(_.setMaximum(bytes))
    cache.cleanUp()
  }

  def budget: Long = cache.policy.eviction.get.getMaximum

  def get(key: FileKey): Option[FileBloomIndex] = Option(cache.getIfPresent(key))

  /** (files held, their heap bytes): what the budget is counted against. */
  def held: (Int, Long) = {
    cache.cleanUp()
    (cache.estimatedSize.toInt, cache.policy.eviction.get.weightedSize.orElse(0L))
  }

  /** The files held, without their versions (estimates only: a held version may be an older one). */
  def heldFiles: Set[FileKey] = {
    val held = Set.newBuilder[FileKey]
    cache.asMap.keySet.forEach(k => held += k.copy(version = None))
    held.result()
  }

  /** Adds or re-weighs (after filters were added) the index of `key`. */
  def put(key: FileKey, index: FileBloomIndex): Unit = cache.put(key, index)

  /** Drops every entry (tests). */
  def clear(): Unit = { cache.invalidateAll(); cache.cleanUp() }
}
