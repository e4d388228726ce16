package io.bloomparquet.planning

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import io.bloomparquet.kernel.SbbfKernels
import io.bloomparquet.pruning.SplitPlanner.Span
import io.bloomparquet.pruning.{BloomPredicate, CompiledPredicate, ImpossibleFilter, ProbePayoff, RowGroupPruner, RowGroupVerdict}
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
    failure: Option[String],
    rowGroupsUnprobed: Int = 0,
    version: FileVersion.Lookup = FileVersion.NotOffered) {
  def keep(rg: Int): Boolean = verdicts(rg) == RowGroupVerdict.Keep
}

/**
 * Reads what one file's decisions need (the footer, then only the bloom
 * filters statistics leave in play, coalesced) through the cache, and decides.
 * The footer comes from one read of the file's end ([[FooterTail]], sized by
 * the scan's [[TailSizer]]), which also serves the filters stored next to it.
 * Encrypted files are read with the session's keys ([[FileDecryption]]).
 * Never throws: a file it can't read (encrypted without keys, I/O error) is kept whole.
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
  private[planning] lazy val footerReadOptions: ParquetReadOptions = ParquetReadOptions.builder().build()

  /**
   * The decisions for one file. With `cachedOnly`, None when they need a footer
   * or filter the cache does not hold (nothing is read then).
   */
  def prune(key: FileKey, conf: Configuration, compiler: Compiler, useCache: Boolean,
      cachedOnly: Boolean = false, gate: ProbeGate = ProbeGate.Off,
      tailSizer: TailSizer = new TailSizer): Option[FileOutcome] =
    try pruneOrThrow(key, conf, compiler, useCache, cachedOnly, gate, tailSizer)
    catch { case NonFatal(e) => Some(FileOutcome(IndexedSeq.empty, IndexedSeq.empty, 0, 0, 0, Some(e.toString))) }

  private def pruneOrThrow(path: FileKey, conf: Configuration, compiler: Compiler, cacheWanted: Boolean,
      cachedOnly: Boolean, gate: ProbeGate, tailSizer: TailSizer): Option[FileOutcome] = {
    // The version judged: the cache's key, and what a task of a plan cut from this footer checks.
    val Versioned(key, version, useCache) = Versioned(path, conf, cacheWanted)
    val cached = if (useCache) FileBloomIndexCache.get(key) else None
    if (cachedOnly && cached.isEmpty) return None
    lazy val file = HadoopInputFile.fromStatus(
      new FileStatus(key.length, false, 1, 0L, key.modificationTime, new Path(key.path)), conf)
    var footersRead = 0
    var stream: org.apache.parquet.io.SeekableInputStream = null
    def open() = { if (stream == null) stream = file.newStream(); stream }
    // The footer's read, kept: filters lying in it are served from memory (one request per file).
    var tail: Option[FooterTail] = None
    try {
      val index = cached.getOrElse {
        val footer = if (FileDecryption.configured(conf)) {
          ParquetFileReader.readFooter(file, FileDecryption.readOptions(conf, new Path(key.path), footerReadOptions), open())
        } else {
          tail = FooterTail.read(open(), key.length, tailSizer.size)
          tail.fold(ParquetFileReader.readFooter(file, footerReadOptions, open()))(_.footer)
        }
        footersRead = 1
        new FileBloomIndex(footer)
      }
      val noKeys = FileDecryption.unreadable(index.footer)
      if (noKeys.isDefined) return Some(FileOutcome(IndexedSeq.empty, IndexedSeq.empty, 0, footersRead, 0, noKeys))
      val blocks = index.footer.getBlocks.asScala.toIndexedSeq
      val compiled = compiler(index.footer.getFileMetaData.getSchema)
      val wanted = RowGroupPruner.filtersWanted(compiled, blocks)
      // The scan's filters so far can't prune: read and probe none here, unless this footer proves they pay off.
      val skip = gate.stopped && wanted.nonEmpty &&
        !ProbePayoff.mayPayOff(ProbeEvidence.footerBound(compiled, blocks, wanted))
      val missing = if (skip) IndexedSeq.empty else wanted.filter { case (rg, c) => index.filter(rg, c).isEmpty }.toIndexedSeq
      if (cachedOnly && missing.nonEmpty) return None
      // I/O errors count for this query only: the index (maybe shared through the cache) keeps real answers.
      val failed = scala.collection.mutable.Map.empty[(Int, Int), BloomFilterRead]
      var filterBytes = 0L
      if (missing.nonEmpty) {
        val chunks = missing.map { case (rg, c) => blocks(rg).getColumns.get(c) }
        val requests = chunks.map(chunk => (chunk.getBloomFilterOffset, chunk.getBloomFilterLength))
        val ciphers = chunks.map(FileDecryption.filterCipher(index.footer, _))
        val reads = BloomFilterReader.readMany(tail.fold(open())(_.stream), key.length, requests, SbbfKernels.get(), ciphers)
        tail.foreach(t => tailSizer.learn(key.length - FilePruner.firstByte(t.footerStart, requests)))
        missing.zip(reads).foreach { case (rgc @ (rg, c), read) =>
          filterBytes += read.bytesRead
          read match {
            case BloomFilterRead.Broken(_, _, true) => failed(rgc) = read
            case _ => index.addFilter(rg, c, plausible(blocks(rg).getColumns.get(c), read))
          }
        }
      }
      def read(rg: Int, c: Int): Option[BloomFilterRead] = index.filter(rg, c).orElse(failed.get((rg, c)))
      val broken = if (skip) 0 else wanted.count { case (rg, c) => read(rg, c).exists(_.isInstanceOf[BloomFilterRead.Broken]) }
      val lookup: RowGroupPruner.FilterLookup = (rg, c) => read(rg, c) match {
        case Some(BloomFilterRead.Loaded(f, _)) if !skip => Some(f)
        case _ => None
      }
      val verdicts = RowGroupPruner.decide(compiled, blocks, lookup)
      val unprobed = if (skip) wanted.map(_._1).distinct.count(verdicts(_) == RowGroupVerdict.Keep) else 0
      if (gate.tracking && !skip && !gate.stopped) {
        gate.observe(ProbeEvidence.tally(compiled, blocks, wanted, verdicts,
          (rg, c) => lookup(rg, c).map(f => (index.fillFpp(rg, c, f), f.numBytes.toLong))))
      }
      // Re-weighed (under the cache's lock) only when this query added to it. Encrypted files stay out:
      // the shared cache would hand their decrypted footer and filters to queries that hold no keys.
      if (useCache && !FileDecryption.isEncrypted(index.footer) && (footersRead > 0 || missing.size > failed.size))
        FileBloomIndexCache.put(key, index)
      val spans = blocks.map(b => Span(b.getStartingPos, b.getCompressedSize))
      Some(FileOutcome(spans, verdicts, filterBytes, footersRead, broken, None, unprobed, version))
    } finally {
      if (stream != null) stream.close()
    }
  }

  /** Where the footer and the in-file filters among `requests` start: what a tail read must reach. */
  private def firstByte(footerStart: Long, requests: Seq[(Long, Int)]): Long =
    requests.iterator.map(_._1).filter(o => o >= 0 && o < footerStart).foldLeft(footerStart)(math.min)

  /** A loaded filter that excludes its chunk's own min or max is broken (corrupt bitset). */
  private def plausible(chunk: ColumnChunkMetaData, read: BloomFilterRead): BloomFilterRead = read match {
    case BloomFilterRead.Loaded(f, n) =>
      ImpossibleFilter.reason(chunk.getPrimitiveType, chunk.getStatistics, f).fold(read)(BloomFilterRead.Broken(_, n))
    case other => other
  }
}
