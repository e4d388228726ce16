package io.bloomparquet.planning

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import io.bloomparquet.compat.ParquetFilterShims
import io.bloomparquet.kernel.SbbfKernels
import io.bloomparquet.pruning.SplitPlanner.Span
import io.bloomparquet.pruning.{BloomPredicate, CompiledPredicate, ImpossibleFilter, ProbePayoff, RowGroupPruner, RowGroupVerdict}
import io.bloomparquet.sbbf.{BloomFilterReader, FilterFound}
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileStatus, Path}
import org.apache.parquet.hadoop.metadata.{BlockMetaData, ColumnChunkMetaData}
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.parquet.io.{InputFile, SeekableInputStream}
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
 * The footer comes from one read of the file's end ([[FileFooter]], sized by
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
    val file = new LazyFile(key, conf)
    try {
      // The footer's read, kept: filters lying in it are served from memory (one request per file).
      val (index, tail) = cached.fold {
        val (footer, tail) = FileFooter.read(file.input, new Path(key.path), conf, tailSizer.size, file.stream())
        (new FileBloomIndex(footer), tail)
      }(index => (index, None))
      val footersRead = if (cached.isEmpty) 1 else 0
      val noKeys = FileDecryption.unreadable(index.footer)
      if (noKeys.isDefined) return Some(FileOutcome(IndexedSeq.empty, IndexedSeq.empty, 0, footersRead, 0, noKeys))
      val blocks = index.footer.getBlocks.asScala.toIndexedSeq
      val compiled = compiler(index.footer.getFileMetaData.getSchema)
      val wanted = filtersWanted(index, compiled, blocks, gate)
      if (cachedOnly && wanted.missing.nonEmpty) return None
      val fetched = readMissing(index, blocks, wanted.missing, tail.fold(file.stream())(_.stream), key.length)
      if (fetched.requests.nonEmpty) tail.foreach(t => tailSizer.learn(key.length - firstByte(t.footerStart, fetched.requests)))
      val decided = decide(index, compiled, blocks, wanted, fetched, gate)
      // Re-weighed only when this query added to it. Encrypted files stay out: the shared
      // cache would hand their decrypted footer and filters to queries that hold no keys.
      if (useCache && !FileDecryption.isEncrypted(index.footer) && (footersRead > 0 || fetched.added > 0))
        FileBloomIndexCache.put(key, index)
      val spans = blocks.map(b => Span(b.getStartingPos, b.getCompressedSize))
      Some(FileOutcome(spans, decided.verdicts, fetched.bytesRead, footersRead, decided.broken, None, decided.unprobed,
          version))
    } finally file.close()
  }

  /** A file opened on first use (a cached decision reads nothing), closed once. */
  private final class LazyFile(key: FileKey, conf: Configuration) {
    lazy val input: InputFile = HadoopInputFile.fromStatus(
      new FileStatus(key.length, false, 1, 0L, key.modificationTime, new Path(key.path)), conf)
    private var opened: SeekableInputStream = null
    def stream(): SeekableInputStream = { if (opened == null) opened = input.newStream(); opened }
    def close(): Unit = if (opened != null) opened.close()
  }

  /**
   * The (row group, chunk) filters statistics leave in play, whether the scan's
   * gate skips probing them (the scan's filters so far can't prune and this
   * footer does not prove they pay off), and those of them the index lacks.
   */
  private final case class Wanted(all: Seq[(Int, Int)], skip: Boolean, missing: IndexedSeq[(Int, Int)])

  private def filtersWanted(index: FileBloomIndex, compiled: CompiledPredicate, blocks: IndexedSeq[BlockMetaData],
      gate: ProbeGate): Wanted = {
    val all = RowGroupPruner.filtersWanted(compiled, blocks)
    val skip = gate.stopped && all.nonEmpty && !ProbePayoff.mayPayOff(ProbeEvidence.footerBound(compiled, blocks, all))
    val missing = if (skip) IndexedSeq.empty else all.filter { case (rg, c) => index.filter(rg, c).isEmpty }.toIndexedSeq
    Wanted(all, skip, missing)
  }

  /**
   * What reading the missing filters gave: each is added to the index but I/O
   * errors, which count for this query only (the index, maybe shared through the
   * cache, keeps real answers).
   */
  private final case class Fetched(requests: IndexedSeq[(Long, Int)], failed: Map[(Int, Int), FilterFound],
      bytesRead: Long, added: Int)

  private def readMissing(index: FileBloomIndex, blocks: IndexedSeq[BlockMetaData], missing: IndexedSeq[(Int, Int)],
      in: => SeekableInputStream, fileLength: Long): Fetched = {
    if (missing.isEmpty) return Fetched(IndexedSeq.empty, Map.empty, 0, 0)
    val chunks = missing.map { case (rg, c) => blocks(rg).getColumns.get(c) }
    val requests =
      chunks.map(chunk =>
        (chunk.getBloomFilterOffset, ParquetFilterShims.bloomFilterLength(chunk).getOrElse(BloomFilterReader.UnknownLength)))
    val ciphers = chunks.map(FileDecryption.filterCipher(index.footer, _))
    val reads = BloomFilterReader.readMany(in, fileLength, requests, SbbfKernels.get(), ciphers)
    val failed = missing.zip(reads).collect { case (rgc, read @ FilterFound.Broken(_, _, true)) => rgc -> read }.toMap
    missing.zip(chunks).zip(reads).foreach { case (((rg, c), chunk), read) =>
      if (!failed.contains((rg, c))) index.addFilter(rg, c, plausible(chunk, read))
    }
    Fetched(requests, failed, reads.map(_.bytesRead).sum, missing.size - failed.size)
  }

  /** The verdicts, with the wanted filters found broken and the row groups kept unprobed (the gate's skip). */
  private final case class Decided(verdicts: IndexedSeq[RowGroupVerdict], broken: Int, unprobed: Int)

  private def decide(index: FileBloomIndex, compiled: CompiledPredicate, blocks: IndexedSeq[BlockMetaData],
      wanted: Wanted, fetched: Fetched, gate: ProbeGate): Decided = {
    def read(rg: Int, c: Int): Option[FilterFound] = index.filter(rg, c).orElse(fetched.failed.get((rg, c)))
    val broken =
      if (wanted.skip) 0 else wanted.all.count { case (rg, c) => read(rg, c).exists(_.isInstanceOf[FilterFound.Broken]) }
    val lookup: RowGroupPruner.FilterLookup = (rg, c) =>
      read(rg, c) match {
        case Some(FilterFound.Loaded(f, _)) if !wanted.skip => Some(f)
        case _ => None
      }
    val verdicts = RowGroupPruner.decide(compiled, blocks, lookup)
    val unprobed = if (wanted.skip) wanted.all.map(_._1).distinct.count(verdicts(_) == RowGroupVerdict.Keep) else 0
    if (gate.tracking && !wanted.skip && !gate.stopped) {
      gate.observe(ProbeEvidence.tally(compiled, blocks, wanted.all, verdicts,
          (rg, c) => lookup(rg, c).map(f => (index.fillFpp(rg, c, f), f.numBytes.toLong))))
    }
    Decided(verdicts, broken, unprobed)
  }

  /** Where the footer and the in-file filters among `requests` start: what a tail read must reach. */
  private def firstByte(footerStart: Long, requests: Seq[(Long, Int)]): Long =
    requests.iterator.map(_._1).filter(o => o >= 0 && o < footerStart).foldLeft(footerStart)(math.min)

  /** A loaded filter that excludes its chunk's own min or max is broken (corrupt bitset). */
  private def plausible(chunk: ColumnChunkMetaData, read: FilterFound): FilterFound = read match {
    case FilterFound.Loaded(f, n) =>
      ImpossibleFilter.reason(chunk.getPrimitiveType, chunk.getStatistics, f).fold(read)(FilterFound.Broken(_, n))
    case other => other
  }
}
