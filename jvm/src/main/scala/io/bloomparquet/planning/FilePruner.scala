package io.bloomparquet.planning

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import io.bloomparquet.kernel.SbbfKernels
import io.bloomparquet.pruning.SplitPlanner.Span
import io.bloomparquet.pruning.{BloomPredicate, CompiledPredicate, ImpossibleFilter, RowGroupPruner, RowGroupVerdict}
import io.bloomparquet.sbbf.{BloomFilterRead, BloomFilterReader}
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileStatus, Path}
import org.apache.parquet.ParquetReadOptions
import org.apache.parquet.hadoop.ParquetFileReader
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.parquet.schema.MessageType

/** The decisions for one file, and what it cost to make them. */
final case class FileOutcome(
    spans: IndexedSeq[Span],
    verdicts: IndexedSeq[RowGroupVerdict],
    filterBytesRead: Long,
    footersRead: Int,
    brokenFilters: Int,
    failure: Option[String]) {
  def keep(rg: Int): Boolean = verdicts(rg) == RowGroupVerdict.Keep
}

/**
 * Reads what one file's decisions need (the footer, then only the bloom
 * filters statistics leave in play, coalesced) through the cache, and decides.
 * Never throws: a file it can't read (encrypted footer, I/O error) is kept whole.
 */
object FilePruner {

  /** Binds a predicate to file schemas, once per distinct schema (files of a table mostly share one). */
  final class Compiler(predicate: BloomPredicate, caseSensitive: Boolean) {
    private val bySchema = new java.util.concurrent.ConcurrentHashMap[MessageType, CompiledPredicate]()
    def apply(schema: MessageType): CompiledPredicate =
      bySchema.computeIfAbsent(schema, s => CompiledPredicate.compile(predicate, s, caseSensitive))
  }

  // Built once: ParquetReadOptions.builder() makes a fresh Hadoop Configuration, which parses the
  // default XML resources from the classpath (~5 ms; 1,000 files took 5 s to plan before this).
  private lazy val footerReadOptions: ParquetReadOptions = ParquetReadOptions.builder().build()

  /**
   * The decisions for one file. With `cachedOnly`, None when they need a footer
   * or filter the cache does not hold (nothing is read then).
   */
  def prune(key: FileKey, conf: Configuration, compiler: Compiler, useCache: Boolean,
      cachedOnly: Boolean = false): Option[FileOutcome] =
    try pruneOrThrow(key, conf, compiler, useCache, cachedOnly)
    catch { case NonFatal(e) => Some(FileOutcome(IndexedSeq.empty, IndexedSeq.empty, 0, 0, 0, Some(e.toString))) }

  private def pruneOrThrow(path: FileKey, conf: Configuration, compiler: Compiler, cacheWanted: Boolean,
      cachedOnly: Boolean): Option[FileOutcome] = {
    // Only the cache needs the etag: without it a query reads the file as it is.
    val version = if (cacheWanted) FileVersion.of(path.path, conf) else FileVersion.NotOffered
    val useCache = cacheWanted && version != FileVersion.Unknown
    val key = version match {
      case FileVersion.Etag(tag) => path.copy(etag = Some(tag))
      case _ => path
    }
    val cached = if (useCache) FileBloomIndexCache.get(key) else None
    if (cachedOnly && cached.isEmpty) return None
    lazy val file = HadoopInputFile.fromStatus(
      new FileStatus(key.length, false, 1, 0L, key.modificationTime, new Path(key.path)), conf)
    var footersRead = 0
    var stream: org.apache.parquet.io.SeekableInputStream = null
    def open() = { if (stream == null) stream = file.newStream(); stream }
    try {
      val index = cached.getOrElse {
        val footer = ParquetFileReader.readFooter(file, footerReadOptions, open())
        footersRead = 1
        new FileBloomIndex(footer)
      }
      val blocks = index.footer.getBlocks.asScala.toIndexedSeq
      val compiled = compiler(index.footer.getFileMetaData.getSchema)
      val wanted = RowGroupPruner.filtersWanted(compiled, blocks)
      val missing = wanted.filter { case (rg, c) => index.filter(rg, c).isEmpty }.toIndexedSeq
      if (cachedOnly && missing.nonEmpty) return None
      // I/O errors count for this query only: the index (maybe shared through the cache) keeps real answers.
      val failed = scala.collection.mutable.Map.empty[(Int, Int), BloomFilterRead]
      var filterBytes = 0L
      if (missing.nonEmpty) {
        val requests = missing.map { case (rg, c) =>
          val chunk = blocks(rg).getColumns.get(c)
          (chunk.getBloomFilterOffset, chunk.getBloomFilterLength)
        }
        val reads = BloomFilterReader.readMany(open(), key.length, requests, SbbfKernels.get())
        missing.zip(reads).foreach { case (rgc @ (rg, c), read) =>
          filterBytes += read.bytesRead
          read match {
            case BloomFilterRead.Broken(_, _, true) => failed(rgc) = read
            case _ => index.addFilter(rg, c, plausible(blocks(rg).getColumns.get(c), read))
          }
        }
      }
      def read(rg: Int, c: Int): Option[BloomFilterRead] = index.filter(rg, c).orElse(failed.get((rg, c)))
      val broken = wanted.count { case (rg, c) => read(rg, c).exists(_.isInstanceOf[BloomFilterRead.Broken]) }
      val lookup: RowGroupPruner.FilterLookup = (rg, c) => read(rg, c) match {
        case Some(BloomFilterRead.Loaded(f, _)) => Some(f)
        case _ => None
      }
      val verdicts = RowGroupPruner.decide(compiled, blocks, lookup)
      // Re-weighed (under the cache's lock) only when this query added to it.
      if (useCache && (footersRead > 0 || missing.size > failed.size)) FileBloomIndexCache.put(key, index)
      val spans = blocks.map(b => Span(b.getStartingPos, b.getCompressedSize))
      Some(FileOutcome(spans, verdicts, filterBytes, footersRead, broken, None))
    } finally {
      if (stream != null) stream.close()
    }
  }

  /** A loaded filter that excludes its chunk's own min or max is broken (corrupt bitset). */
  private def plausible(chunk: ColumnChunkMetaData, read: BloomFilterRead): BloomFilterRead = read match {
    case BloomFilterRead.Loaded(f, n) =>
      ImpossibleFilter.reason(chunk.getPrimitiveType, chunk.getStatistics, f).fold(read)(BloomFilterRead.Broken(_, n))
    case other => other
  }
}
