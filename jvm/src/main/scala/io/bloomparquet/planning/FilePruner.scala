package io.bloomparquet.planning

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import io.bloomparquet.compat.ByteRange
import io.bloomparquet.options.{BloomReadOptions, FilterReads, ReadCostSettings, ReadSettings}
import io.bloomparquet.kernel.SbbfKernels
import io.bloomparquet.pruning.SplitPlanner.Span
import io.bloomparquet.pruning.{BloomPredicate, ChunkAt, CompiledPredicate, ImpossibleFilter, ProbePayoff, RowGroupPruner, RowGroupVerdict}
import io.bloomparquet.sbbf.{BloomFilterReader, FilterBlocks, FilterFound}
import io.bloomparquet.sbbf.BloomFilterReader.FilterAt
import io.bloomparquet.tail.{FilterLengths, FooterTail}
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileStatus, Path}
import org.apache.parquet.hadoop.metadata.{BlockMetaData, ColumnChunkMetaData}
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.parquet.io.{InputFile, SeekableInputStream}
import org.apache.parquet.schema.MessageType

/**
 * The decisions for one file: its row groups' spans and verdicts, the filters found broken and the
 * row groups kept unprobed, the version judged, why it could not be read (then kept whole), what
 * judging it read, and whether a planning job on an executor judged it.
 */
final case class FileOutcome(
    spans: IndexedSeq[Span],
    verdicts: IndexedSeq[RowGroupVerdict],
    brokenFilters: Int,
    rowGroupsUnprobed: Int,
    version: FileVersion.Lookup,
    failure: Option[String],
    reads: FileReads,
    readByJob: Boolean) {
  def keep(rg: Int): Boolean = verdicts(rg) == RowGroupVerdict.Keep
}

object FileOutcome {
  /** A file whose decisions could not be made (`failure`): kept whole. */
  def unread(failure: String, footersRead: Int): FileOutcome =
    FileOutcome(IndexedSeq.empty, IndexedSeq.empty, brokenFilters = 0, rowGroupsUnprobed = 0,
      version = FileVersion.NotOffered, failure = Some(failure), reads = FileReads.footerOnly(footersRead),
      readByJob = false)
}

/**
 * What judging one file read: footers (0 when the cache held it), filter bytes and the requests
 * they took, the filters read in blocks, dictionary bytes, and every byte planning fetched.
 */
final case class FileReads(footersRead: Int, filterBytesRead: Long, filterReads: Int, filtersReadInBlocks: Int,
    dictionaryBytesRead: Long, planningBytesRead: Long)

object FileReads {
  /** A footer read or not, and nothing else. */
  def footerOnly(footersRead: Int): FileReads = FileReads(footersRead, filterBytesRead = 0, filterReads = 0,
    filtersReadInBlocks = 0, dictionaryBytesRead = 0, planningBytesRead = 0)
}

/**
 * Reads what one file's decisions need (the footer, then only the bloom
 * filters statistics leave in play, coalesced, then the dictionaries of chunks
 * without a filter that could prune what they kept: [[DictionaryPruning]]) through
 * the cache, and decides.
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
   * One scan's pruning of its files, shared by them: its predicate bound per file schema, its early
   * stop, and its read options whole. `costs`: the read cost model, with the files read at once;
   * `tailSizer` learns from each file read how much of the next one's end to read.
   */
  final class Pass(predicate: BloomPredicate, caseSensitive: Boolean, val options: BloomReadOptions,
      val costs: ReadCostSettings, val tailSizer: TailSizer) {
    val compiler = new Compiler(predicate, caseSensitive)
    val gate: ProbeGate = ProbeGate(predicate, options.earlyStop)
  }

  object Pass {
    /** The pass of a scan whose files `keys` are read `parallelism` at a time: they share this JVM's bandwidth. */
    def apply(predicate: BloomPredicate, settings: ReadSettings, keys: Seq[FileKey], parallelism: Int): Pass = {
      val costs = settings.bloom.readCost.copy(filesAtOnce = math.max(1, math.min(parallelism, keys.size)))
      val tailSizer = keys.headOption.fold(new TailSizer)(k => TailSizer.forCost(ReadCost.forPath(k.path, costs)))
      new Pass(predicate, settings.caseSensitive, settings.bloom, costs, tailSizer)
    }
  }

  /** The decisions for one file, read as `pass` says; `listed`: its status, if its listing gave one. */
  def prune(key: FileKey, conf: Configuration, pass: Pass, listed: Option[FileStatus]): FileOutcome =
    orFailure(pruneOrThrow(key, conf, pass, cachedOnly = false, listed)).get

  /** The decisions for one file from this JVM's cache alone: None when they need a footer or filter it does not hold. */
  def cached(key: FileKey, conf: Configuration, pass: Pass): Option[FileOutcome] =
    if (!pass.options.useCache) None else orFailure(pruneOrThrow(key, conf, pass, cachedOnly = true, listed = None))

  private def orFailure(outcome: => Option[FileOutcome]): Option[FileOutcome] =
    try outcome
    catch { case NonFatal(e) => Some(FileOutcome.unread(e.toString, footersRead = 0)) }

  private def pruneOrThrow(path: FileKey, conf: Configuration, pass: Pass, cachedOnly: Boolean,
      listed: Option[FileStatus]): Option[FileOutcome] = {
    val (compiler, gate, tailSizer, reads, costs) =
      (pass.compiler, pass.gate, pass.tailSizer, pass.options.filterReads, pass.costs)
    // The version judged: the cache's key, and what a task of a plan cut from this footer checks.
    val hadoopPath = new Path(path.path)
    val Versioned(key, version, useCache, asked) = Versioned(path, hadoopPath, conf, pass.options.useCache)
    val cached = if (useCache) FileBloomIndexCache.get(key) else None
    if (cachedOnly && cached.isEmpty) return None
    val file = new LazyFile(listed.orElse(asked).getOrElse(PlanningOpen.status(key, hadoopPath)), conf)
    try {
      // The footer's read, kept: filters lying in it are served from memory (one request per file).
      val (index, tail) = cached.fold {
        val (footer, tail) = FileFooter.read(file.input, hadoopPath, conf, tailSizer.size, file.stream())
        (new FileBloomIndex(footer, tail.fold(FilterLengths.Empty)(_.filterLengths)), tail)
      }(index => (index, None))
      val footersRead = if (cached.isEmpty) 1 else 0
      val noKeys = FileDecryption.unreadable(index.footer)
      if (noKeys.isDefined) return Some(FileOutcome.unread(noKeys.get, footersRead))
      val blocks = index.footer.getBlocks.asScala.toIndexedSeq
      val compiled = compiler(index.footer.getFileMetaData.getSchema)
      val wanted = filtersWanted(index, compiled, blocks, gate)
      if (cachedOnly && wanted.missing.nonEmpty) return None
      val cost = ReadCost.forPath(key.path, costs)
      val fetched = readMissing(index, blocks, wanted, tail.fold(file.stream())(_.stream), key.length, cost,
        tail.map(_.stream.start), reads)
      // A tail that reaches the filters read makes files like this one cost one request; the blocks of
      // large filters only where reaching them costs less than the request it saves.
      tail.foreach { t =>
        tailSizer.learn(key.length - t.footerStart) // the footer, at least
        val needed = key.length - firstByte(t.footerStart, fetched.requests)
        if (!fetched.byBlocks || needed - (key.length - t.stream.start) <= cost.tailReachBytes) tailSizer.learn(needed)
      }
      val decided = decide(index, compiled, blocks, wanted, fetched, gate)
      // Dictionaries too where the gate still probes: encrypted files keep theirs unread.
      val dictionaryWanted =
        if (!pass.options.dictionaries || wanted.skip || FileDecryption.isEncrypted(index.footer)) Nil
        else DictionaryPruning.wanted(compiled, blocks, decided.verdicts, decided.filters)
      val judged =
        if (dictionaryWanted.isEmpty) DictionaryPruning.Judged(decided.verdicts, 0, 0)
        else DictionaryPruning.judge(index, compiled, blocks, decided.verdicts, decided.filters, dictionaryWanted,
          file.stream(), conf, cachedOnly) match {
          case Some(j) => j
          case None => return None
        }
      // Re-weighed only when this query added to it. Encrypted files stay out: the shared
      // cache would hand their decrypted footer and filters to queries that hold no keys.
      if (useCache && !FileDecryption.isEncrypted(index.footer) && (footersRead > 0 || fetched.added > 0 || judged.reads > 0))
        FileBloomIndexCache.put(key, index)
      val spans = blocks.map(b => Span(b.getStartingPos, b.getCompressedSize))
      val planningBytes = tail.fold(0L)(_.bytesRead) + fetched.fetchedBytes + judged.bytesRead
      val fileReads = FileReads(footersRead, filterBytesRead = fetched.bytesRead, filterReads = fetched.reads,
        filtersReadInBlocks = fetched.inBlocks, dictionaryBytesRead = judged.bytesRead, planningBytesRead = planningBytes)
      Some(FileOutcome(spans, judged.verdicts, brokenFilters = decided.broken, rowGroupsUnprobed = decided.unprobed,
          version = version, failure = None, reads = fileReads, readByJob = false))
    } finally file.close()
  }

  /** A file opened on first use (a cached decision reads nothing), once ([[PlanningOpen]]), closed once. */
  private final class LazyFile(status: FileStatus, conf: Configuration) {
    lazy val input: InputFile = HadoopInputFile.fromStatus(status, conf)
    private var opened: SeekableInputStream = null
    def stream(): SeekableInputStream = {
      if (opened == null) opened = PlanningOpen.stream(status, input, conf)
      opened
    }
    def close(): Unit = if (opened != null) opened.close()
  }

  /**
   * Adds to `index` the whole filters lying in `tail` (read with the footer: no request), judged as
   * any filter read is. A footer read for another purpose ([[BloomColumns]]) then leaves pruning
   * nothing to fetch again where the tail held the filters too (our writer's files).
   */
  def addFiltersInTail(index: FileBloomIndex, tail: FooterTail, key: FileKey): Unit = {
    val blocks = index.footer.getBlocks.asScala.toIndexedSeq
    val inTail = for {
      (block, rg) <- blocks.zipWithIndex
      (chunk, c) <- block.getColumns.asScala.zipWithIndex
      at = ChunkAt(rg, c)
      if chunk.getBloomFilterOffset >= tail.stream.start && index.filter(at).isEmpty &&
        index.filterLength(at).isDefined && FileDecryption.filterCipher(index.footer, chunk).isEmpty
    } yield at
    if (inTail.nonEmpty) readMissing(index, blocks, Wanted(inTail, skip = false, inTail, _ => Nil), tail.stream,
      key.length, ReadCost.forPath(key.path, ReadCostSettings()), Some(tail.stream.start), FilterReads.Whole)
  }

  /** The buffer of a planning read's stream: a file system reads at least this much per seek. */
  val ReadBufferBytes: Int = 4096

  /**
   * The (row group, chunk) filters statistics leave in play, whether the scan's
   * gate skips probing them (the scan's filters so far can't prune and this
   * footer does not prove they pay off), those of them the index lacks or holds
   * only blocks of that miss a probed hash, and the hashes each is probed with
   * (its leaves' values, and its chunk's min and max for [[ImpossibleFilter]]).
   */
  private final case class Wanted(all: Seq[ChunkAt], skip: Boolean, missing: IndexedSeq[ChunkAt], hashes: ChunkAt => Seq[Long])

  private def filtersWanted(index: FileBloomIndex, compiled: CompiledPredicate, blocks: IndexedSeq[BlockMetaData],
      gate: ProbeGate): Wanted = {
    val all = RowGroupPruner.filtersWanted(compiled, blocks)
    val skip = gate.stopped && all.nonEmpty && !ProbePayoff.mayPayOff(ProbeEvidence.footerBound(compiled, blocks, all, index.filterLength))
    // Only asked of filters not held whole: a cached whole filter costs no hashing.
    val byChunk = new java.util.concurrent.ConcurrentHashMap[Int, Array[Long]]()
    val hashes: ChunkAt => Seq[Long] = { case ChunkAt(rg, c) =>
      val chunk = blocks(rg).getColumns.get(c)
      val own = try ImpossibleFilter.hashes(chunk.getPrimitiveType, chunk.getStatistics)
      catch { case NonFatal(_) => Nil }
      byChunk.computeIfAbsent(c, k => RowGroupPruner.probedHashes(compiled, k)).toSeq ++ own
    }
    val missing =
      if (skip) IndexedSeq.empty
      else all.filter { at =>
        index.filter(at) match {
          case None => true
          case Some(FilterFound.Blocks(held, _)) => held.missing(hashes(at)).nonEmpty
          case Some(_) => false
        }
      }.toIndexedSeq
    Wanted(all, skip, missing, hashes)
  }

  /**
   * What reading the missing filters gave: each is added to the index but I/O
   * errors, which count for this query only (the index, maybe shared through the
   * cache, keeps real answers). `byBlocks`: the filters were read in blocks.
   */
  private final case class Fetched(requests: IndexedSeq[FilterAt], failed: Map[ChunkAt, FilterFound],
      bytesRead: Long, added: Int, byBlocks: Boolean, reads: Int, inBlocks: Int, fetchedBytes: Long)

  private val fetchedNothing = Fetched(IndexedSeq.empty, Map.empty, bytesRead = 0, added = 0, byBlocks = false,
    reads = 0, inBlocks = 0, fetchedBytes = 0)

  /**
   * Reads the missing filters whole, or (where `cost` says it takes less time) the blocks their
   * probed hashes fall in ([[BloomFilterReader.readBlocks]]). Encrypted filters and those without
   * a usable `bloom_filter_length` are read whole. Bytes at or after `inMemoryFrom` (the tail
   * read with the footer) cost nothing. `reads` may force either way.
   */
  private def readMissing(index: FileBloomIndex, blocks: IndexedSeq[BlockMetaData], wanted: Wanted,
      in: => SeekableInputStream, fileLength: Long, cost: ReadCost, inMemoryFrom: Option[Long],
      reads: FilterReads): Fetched = {
    val missing = wanted.missing
    if (missing.isEmpty) return fetchedNothing
    val chunks = missing.map { case ChunkAt(rg, c) => blocks(rg).getColumns.get(c) }
    val requests = missing.zip(chunks).map { case (at, chunk) =>
      FilterAt(chunk.getBloomFilterOffset, index.filterLength(at).getOrElse(BloomFilterReader.UnknownLength))
    }
    val ciphers = chunks.map(FileDecryption.filterCipher(index.footer, _))
    val kernel = SbbfKernels.get()
    val blockRequests = missing.indices.collect {
      case i if ciphers(i).isEmpty && BloomFilterReader.blockLayout(requests(i).length).isDefined =>
        val FilterAt(offset, length) = requests(i)
        val numBlocks = BloomFilterReader.blockLayout(length).get._2
        val probe = FilterBlocks.empty(numBlocks, kernel)
        val held = index.filter(missing(i)) match {
          case Some(FilterFound.Blocks(b, _)) if b.numBlocks == numBlocks => b
          case _ => probe
        }
        i -> BloomFilterReader.BlockRequest(offset, length, held.missing(wanted.hashes(missing(i))))
    }
    val inBlocks = blockRequests.map(_._1).toSet
    val whole = missing.indices.filterNot(inBlocks)
    val wholeReads = BloomFilterReader.coalesce(requests, blockRequests.map(_._1)).map(_.range)
    // Ways to read: whole filters (one by one), or blocks with gaps up to a request's worth read, or
    // (where requests go unnoticed) none; the model's fastest, or the fewest bytes within its tolerance.
    val blockCpu = cost.blockSeconds(blockRequests.map(_._2.blocks.size).sum)
    val blockWays = (if (cost.requestsUnnoticed) Seq(cost.gapBytes, 0L) else Seq(cost.gapBytes)).distinct.map { gap =>
      val ranges = BloomFilterReader.blockReads(blockRequests.map(_._2), gap)
      Way(Some(gap), ranges, seconds(cost, ranges, inMemoryFrom) + blockCpu, fetchedBytes(ranges, inMemoryFrom))
    }
    val wholeWay = Way(None, wholeReads, seconds(cost.oneAfterAnother, wholeReads, inMemoryFrom),
      fetchedBytes(wholeReads, inMemoryFrom))
    val ways = reads match {
      case _ if blockRequests.isEmpty => Seq(wholeWay)
      case FilterReads.Whole => Seq(wholeWay)
      case FilterReads.Blocks => blockWays
      case FilterReads.Auto => wholeWay +: blockWays
    }
    val way = cost.cheapest(ways)(_.seconds, _.bytes)
    val byBlocks = way.gap.isDefined
    // The reads that leave memory: block ranges, coalesced whole filters, and one per filter of unknown length.
    val (sized, allUnsized) = (if (byBlocks) whole else missing.indices).partition(i => requests(i).length > 0)
    val unsized = allUnsized.filter(i => leavesMemory(requests(i).offset, inMemoryFrom)) // the rest lie in the tail
    val sizedReads = BloomFilterReader.coalesce(requests, sized).map(_.range)
    val issued = (if (byBlocks) fetchedReads(way.ranges, inMemoryFrom) else 0) + fetchedReads(sizedReads, inMemoryFrom) +
      unsized.size
    val issuedBytes = (if (byBlocks) way.bytes else 0L) + fetchedBytes(sizedReads, inMemoryFrom)
    // Filters read in blocks whose header did not confirm their layout, then read whole: (reads, bytes).
    val (found: IndexedSeq[FilterFound], wholeAfter: (Int, Long)) =
      if (!byBlocks) (BloomFilterReader.readMany(in, fileLength, requests, kernel, ciphers), (0, 0L))
      else {
        val out = new Array[FilterFound](missing.size)
        val blockReads =
          BloomFilterReader.readBlocks(in, fileLength, blockRequests.map(_._2), way.gap.get, kernel, cost.vectored)
        blockReads.found.zip(blockRequests).foreach { case (read, (i, _)) => out(i) = read }
        val fellBack = blockReads.readWhole.filter { case (j, _) => leavesMemory(blockRequests(j)._2.offset, inMemoryFrom) }
        BloomFilterReader.readMany(in, fileLength, whole.map(requests), kernel, whole.map(ciphers)).zip(whole)
          .foreach { case (read, i) => out(i) = read }
        (out.toIndexedSeq, (fellBack.size, fellBack.values.sum))
      }
    val failed = missing.zip(found).collect { case (at, read @ FilterFound.Broken(_, _, true)) => at -> read }.toMap
    missing.zip(chunks).zip(found).foreach { case ((at, chunk), read) =>
      if (!failed.contains(at)) {
        index.addFilter(at, read)
        // Judged on all the blocks held now: a later query's blocks may show what this one's did not.
        index.filter(at).foreach(held => if (plausible(chunk, held) ne held) index.addFilter(at, plausible(chunk, held)))
      }
    }
    val readInBlocks = found.count(_.isInstanceOf[FilterFound.Blocks])
    // Filters of unknown length are read apart, header first: their bytes as read.
    val unsizedBytes = unsized.map(i => found(i).bytesRead).sum
    Fetched(requests, failed, bytesRead = found.map(_.bytesRead).sum, added = missing.size - failed.size, byBlocks = byBlocks,
      reads = issued + wholeAfter._1, inBlocks = readInBlocks, fetchedBytes = issuedBytes + unsizedBytes + wholeAfter._2)
  }

  /** A way to read a file's missing filters: blocks with gaps up to `gap` read (None: whole), its reads, time and bytes. */
  private final case class Way(gap: Option[Long], ranges: Seq[ByteRange], seconds: Double, bytes: Long)

  /** Whether a read starting at `start` leaves memory: it starts before `inMemoryFrom` (the tail read with the footer). */
  private def leavesMemory(start: Long, inMemoryFrom: Option[Long]): Boolean = !inMemoryFrom.exists(start >= _)

  /** The reads among `reads` that leave memory. */
  private def leavingMemory(reads: Seq[ByteRange], inMemoryFrom: Option[Long]): Seq[ByteRange] =
    reads.filter(r => leavesMemory(r.start, inMemoryFrom))

  private def fetchedReads(reads: Seq[ByteRange], inMemoryFrom: Option[Long]): Int = leavingMemory(reads, inMemoryFrom).size

  private def fetchedBytes(reads: Seq[ByteRange], inMemoryFrom: Option[Long]): Long =
    leavingMemory(reads, inMemoryFrom).map(_.length).sum

  /** What `reads` take: rounds of requests x latency + bytes / bandwidth, nothing for ranges already in memory. */
  private def seconds(cost: ReadCost, reads: Seq[ByteRange], inMemoryFrom: Option[Long]): Double =
    cost.seconds(fetchedReads(reads, inMemoryFrom), fetchedBytes(reads, inMemoryFrom))

  /**
   * The verdicts, with the wanted filters found broken, the row groups kept unprobed (the gate's skip)
   * and the filters they were decided with.
   */
  private final case class Decided(verdicts: IndexedSeq[RowGroupVerdict], broken: Int, unprobed: Int,
      filters: RowGroupPruner.FilterLookup)

  private def decide(index: FileBloomIndex, compiled: CompiledPredicate, blocks: IndexedSeq[BlockMetaData],
      wanted: Wanted, fetched: Fetched, gate: ProbeGate): Decided = {
    def read(at: ChunkAt): Option[FilterFound] = index.filter(at).orElse(fetched.failed.get(at))
    val broken = if (wanted.skip) 0 else wanted.all.count(read(_).exists(_.isInstanceOf[FilterFound.Broken]))
    val lookup: RowGroupPruner.FilterLookup = at =>
      read(at) match {
        case Some(FilterFound.Loaded(f, _)) if !wanted.skip => Some(f)
        case Some(FilterFound.Blocks(b, _)) if !wanted.skip => Some(b) // a block it lacks answers "may be"
        case _ => None
      }
    val verdicts = RowGroupPruner.decide(compiled, blocks, lookup)
    val unprobed = if (wanted.skip) wanted.all.map(_.rowGroup).distinct.count(verdicts(_) == RowGroupVerdict.Keep) else 0
    if (gate.tracking && !wanted.skip && !gate.stopped) {
      gate.observe(ProbeEvidence.tally(compiled, blocks, wanted.all, verdicts,
          at => lookup(at).map(f => (index.fillFpp(at, f), f.numBytes.toLong))))
    }
    Decided(verdicts, broken, unprobed, lookup)
  }

  /** Where the footer and the in-file filters among `requests` start: what a tail read must reach. */
  private def firstByte(footerStart: Long, requests: Seq[FilterAt]): Long =
    requests.iterator.map(_.offset).filter(o => o >= 0 && o < footerStart).foldLeft(footerStart)(math.min)

  /** A loaded filter (or blocks of one) that excludes its chunk's own min or max is broken (corrupt bitset). */
  private def plausible(chunk: ColumnChunkMetaData, read: FilterFound): FilterFound = read match {
    case FilterFound.Loaded(f, n) =>
      ImpossibleFilter.reason(chunk.getPrimitiveType, chunk.getStatistics, f).fold(read)(FilterFound.Broken(_, n))
    case FilterFound.Blocks(b, n) =>
      ImpossibleFilter.reason(chunk.getPrimitiveType, chunk.getStatistics, b).fold(read)(FilterFound.Broken(_, n))
    case other => other
  }
}
