package io.bloomparquet.planning

import java.util.concurrent.ConcurrentHashMap

import io.bloomparquet.options.OptionRegistry
import io.bloomparquet.sbbf.{BloomFilterRead, FillEstimates, SplitBlockBloomFilter}
import org.apache.parquet.hadoop.metadata.ParquetMetadata

/**
 * Identity of a file version: a changed length, modification time or (where the
 * file system offers one, see [[FileVersion]]) version is another file.
 */
final case class FileKey(path: String, length: Long, modificationTime: Long, version: Option[String] = None)

/**
 * What we know of one file: its footer and the bloom filters read so far,
 * keyed by (row group, chunk). Filters are added as queries need them.
 */
final class FileBloomIndex(val footer: ParquetMetadata) {
  private val filters = new ConcurrentHashMap[(Int, Int), BloomFilterRead]()

  def filter(rg: Int, chunk: Int): Option[BloomFilterRead] = Option(filters.get((rg, chunk)))
  def addFilter(rg: Int, chunk: Int, read: BloomFilterRead): Unit = filters.put((rg, chunk), read)

  private val fpps = new ConcurrentHashMap[(Int, Int), java.lang.Double]()

  /** The false-positive rate of (row group, chunk)'s loaded filter `f`, from its bit fill: counted once. */
  def fillFpp(rg: Int, chunk: Int, f: SplitBlockBloomFilter): Double =
    fpps.computeIfAbsent((rg, chunk), _ => FillEstimates.fpp(f.words))

  /** Approximate heap cost, for the cache budget. */
  def weight: Long = {
    val blocks = footer.getBlocks
    var chunks = 0L
    for (i <- 0 until blocks.size) chunks += blocks.get(i).getColumns.size
    var bytes = 1024L + chunks * 400L
    filters.values.forEach {
      case BloomFilterRead.Loaded(f, _) => bytes += f.numBytes + 64L
      case _ => bytes += 64L
    }
    bytes
  }
}

/**
 * A process-wide LRU of [[FileBloomIndex]]es bounded by approximate bytes, so
 * repeated queries on the same files read neither footers nor filters again.
 */
object FileBloomIndexCache {
  private final class Entry(val index: FileBloomIndex, var weight: Long)
  private val entries = new java.util.LinkedHashMap[FileKey, Entry](64, 0.75f, true)
  private var total = 0L
  private var budget: Long = OptionRegistry.CacheMaxMb.default.get << 20

  /** Sets the bound (`spark.bloomparquet.cache.maxMb`, once per JVM: [[io.bloomparquet.spark.ProcessConfs]]). */
  def setBudget(bytes: Long): Unit = synchronized { budget = bytes; evict() }

  def get(key: FileKey): Option[FileBloomIndex] = synchronized(Option(entries.get(key)).map(_.index))

  /** (files held, their approximate bytes): what the budget is counted against. */
  def held: (Int, Long) = synchronized((entries.size, total))

  /** Adds or re-weighs (after filters were added) the index of `key`. */
  def put(key: FileKey, index: FileBloomIndex): Unit = {
    val weight = index.weight // walks every chunk and filter: outside the lock
    synchronized {
      Option(entries.put(key, new Entry(index, weight))).foreach(old => total -= old.weight)
      total += weight
      evict()
    }
  }

  private def evict(): Unit = {
    val it = entries.values.iterator
    while (total > budget && it.hasNext) {
      total -= it.next().weight
      it.remove()
    }
  }
}
