package io.bloomparquet.planning

import java.util.concurrent.ConcurrentHashMap

import io.bloomparquet.compat.ParquetFilterShims
import io.bloomparquet.pruning.ChunkAt
import io.bloomparquet.sbbf.{BloomProbe, FillEstimates, FilterFound, SplitBlockBloomFilter}
import io.bloomparquet.tail.FilterLengths
import org.apache.parquet.hadoop.metadata.ParquetMetadata

/**
 * Identity of a file version: a changed length, modification time or (where the
 * file system offers one, see [[FileVersion]]) version is another file.
 */
final case class FileKey(path: String, length: Long, modificationTime: Long, version: Option[String] = None) {
  // Computed once: planning keys maps and sets by a scan's files, up to a table's hundreds of thousands.
  override val hashCode: Int = java.util.Objects.hash(path, Long.box(length), Long.box(modificationTime), version)

  /** Heap bytes of this key: the case class, its path and version strings. */
  def heapBytes: Long = 40 + HeapBytes.string(path.length) + version.fold(0L)(v => 16 + HeapBytes.string(v.length))
}

/**
 * What we know of one file: its footer (with the filter lengths its bytes state
 * where parquet-java's model lacks them) and the bloom filters read so far,
 * keyed by chunk, whole or the blocks probes hashed to, and the
 * dictionaries of chunks without a filter. Filters (and blocks) and dictionaries
 * are added as queries need them.
 */
final class FileBloomIndex(val footer: ParquetMetadata, filterLengths: FilterLengths) {

  /** The chunk's `bloom_filter_length`, when its footer states one. */
  def filterLength(at: ChunkAt): Option[Int] =
    ParquetFilterShims.bloomFilterLength(footer.getBlocks.get(at.rowGroup).getColumns.get(at.column))
      .orElse(filterLengths(at.rowGroup, at.column))

  private val filters = new ConcurrentHashMap[ChunkAt, FilterFound]()

  def filter(at: ChunkAt): Option[FilterFound] = Option(filters.get(at))

  /**
   * Adds what a read gave: blocks join the blocks of the same filter read before, a whole read's
   * answer replaces anything, and blocks never replace a whole answer (another query's whole
   * filter, or its finding that the filter is broken, which these blocks alone might not show).
   */
  def addFilter(at: ChunkAt, read: FilterFound): Unit =
    filters.merge(at, read,
      (held, added) =>
        (held, added) match {
          case (FilterFound.Blocks(a, n), FilterFound.Blocks(b, m)) if a.numBlocks == b.numBlocks => FilterFound.Blocks(a.merge(b), n + m)
          case (_: FilterFound.Whole, _: FilterFound.Blocks) => held
          case _ => added
        })

  private val dictionaries = new ConcurrentHashMap[ChunkAt, ChunkDictionary]()

  /** The chunk's dictionary read so far, as hashes or why it can't be used. */
  def dictionary(at: ChunkAt): Option[ChunkDictionary] = Option(dictionaries.get(at))

  def addDictionary(at: ChunkAt, read: ChunkDictionary): Unit = dictionaries.put(at, read)

  private val fpps = new ConcurrentHashMap[ChunkAt, java.lang.Double]()

  /** The false-positive rate of the chunk's loaded filter `f`, from its bit fill: counted once. */
  def fillFpp(at: ChunkAt, f: BloomProbe): Double = f match {
    case _: SplitBlockBloomFilter => fpps.computeIfAbsent(at, _ => FillEstimates.fpp(f.sampledWords))
    // A sample that grows as queries add blocks: estimated afresh, and "no better than chance" from no block.
    case _ => val words = f.sampledWords; if (words.isEmpty) 1.0 else FillEstimates.fpp(words)
  }

  private lazy val footerBytes = HeapBytes.footer(footer) + filterLengths.heapBytes

  /**
   * The heap bytes this index holds, for the cache's budget: the footer, and per
   * filter read its bitset (an int array) with the objects around it.
   */
  def heapBytes: Long = {
    var bytes = 16 + 3 * 64 /* this object, three maps */ + footerBytes
    filters.forEach { (_, read) =>
      bytes += HeapBytes.ChunkMapEntry +
        (read match {
          case FilterFound.Loaded(f, _) => 24 + 24 + HeapBytes.array(f.numBytes) // Loaded, filter, words
          // Blocks, FilterBlocks, its map; per block a map entry, a boxed index and eight words.
          case FilterFound.Blocks(b, _) => 24 + 32 + 64 + b.blockCount * (48 + 16 + HeapBytes.array(32))
          case FilterFound.Broken(reason, _, _) => 32 + HeapBytes.string(reason.length)
          case FilterFound.Absent => 0
        })
    }
    dictionaries.forEach { (_, read) =>
      bytes += HeapBytes.ChunkMapEntry +
        (read match {
          case ChunkDictionary.Values(h, _) => 24 + 16 + HeapBytes.array(h.numBytes.toLong) // Values, hashes, longs
          case ChunkDictionary.Unusable(reason, _) => 32 + HeapBytes.string(reason.length)
        })
    }
    bytes += fpps.size * (HeapBytes.ChunkMapEntry + 16) // a boxed Double each
    bytes
  }
}
