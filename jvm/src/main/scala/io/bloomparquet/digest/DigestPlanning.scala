package io.bloomparquet.digest

import scala.collection.concurrent.TrieMap
import scala.util.control.NonFatal

import io.bloomparquet.digest.TableDigest.{Missing, Opened, Refused}
import io.bloomparquet.kernel.SbbfKernels
import io.bloomparquet.options.ReadSettings
import io.bloomparquet.planning.{DigestUse, FileKey, FileOutcome, FileReads, FileVersion, PlanningPool}
import io.bloomparquet.pruning.SplitPlanner.Span
import io.bloomparquet.pruning.{BloomPredicate, RowGroupVerdict}
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileSystem, Path}
import org.slf4j.LoggerFactory

/**
 * A scan's files as its table's bloom digest decides them, before any of them is read: a file the
 * digest covers at the version planning sees, all of whose row groups it rules out, is pruned with
 * no read of its own. Every other file (not covered, of another version, or with a row group the
 * digest keeps) is left to be judged on its own, exactly as without a digest: the digest's entries
 * are the files' own filters folded, which keep every value those keep, so a file it rules out
 * its own filters rule out too, and what planning decides is what it decides without the digest;
 * only what it reads changes. A digest that cannot be trusted is refused (warned once) and
 * changes nothing.
 */
object DigestPlanning {
  private val log = LoggerFactory.getLogger(getClass)
  private val warned = TrieMap.empty[String, Unit]

  /**
   * The files the digest rules out whole, with their outcomes; those it covers and keeps (some row
   * group not ruled out: their own filters, statistics and dictionaries still to judge); and what
   * using it took.
   */
  final case class Decided(ruledOut: Map[FileKey, FileOutcome], kept: Set[FileKey], use: DigestUse)

  /** A digest that decided nothing: every file judged on its own. */
  def none(use: DigestUse): Decided = Decided(Map.empty, Set.empty, use)

  /**
   * What the digest of the table at `table` decides of `files` (keyed as planning lists them, with
   * the etags listings gave). `parallelism`: version lookups at once where the listing gave none.
   */
  def decide(table: Path, files: Seq[FileKey], predicate: BloomPredicate, conf: Configuration, settings: ReadSettings,
      parallelism: Int): Decided =
    try {
      val fs = table.getFileSystem(conf)
      val root = fs.makeQualified(table)
      TableDigest.openHeld(fs, root, settings.bloom.useCache) match {
        case Missing(reads) => none(DigestUse.NotLookedFor.copy(requests = reads))
        case Refused(why, reads) =>
          refused(root, why)
          none(DigestUse.NotLookedFor.copy(requests = reads, refused = 1))
        case opened: Opened => decideWith(fs, root, opened, files, predicate, conf, settings, parallelism)
      }
    } catch {
      case NonFatal(e) =>
        refused(table, e.toString)
        none(DigestUse.NotLookedFor.copy(refused = 1))
    }

  private def refused(root: Path, why: String): Unit =
    if (warned.putIfAbsent(s"$root $why", ()).isEmpty)
      log.warn(s"bloomparquet: the bloom digest of $root is not used (every file is judged on its own): $why")

  /**
   * Block checks (a value against an entry) past which the digest is left unprobed: about 0.6 s of
   * the vector kernel. A long IN list or key set is then judged file by file, where reading
   * filters stops early once they show too little can be pruned ([[io.bloomparquet.planning.ProbeGate]]).
   */
  val MaxProbeChecks: Long = 1000000000L

  private def decideWith(fs: FileSystem, root: Path, opened: Opened, files: Seq[FileKey], predicate: BloomPredicate,
      conf: Configuration, settings: ReadSettings, parallelism: Int): Decided = {
    if (DigestVerdicts.probeChecks(opened.digest, predicate, settings.caseSensitive) > MaxProbeChecks)
      none(DigestUse.NotLookedFor.copy(requests = opened.reads, bytesRead = opened.bytesRead))
    else probed(fs, root, opened, files, predicate, conf, settings, parallelism)
  }

  private def probed(fs: FileSystem, root: Path, opened: Opened, files: Seq[FileKey], predicate: BloomPredicate,
      conf: Configuration, settings: ReadSettings, parallelism: Int): Decided = {
    val digest = opened.digest
    val relative = DigestRoot.relativeTo(root)
    // Passes by position in the listing, with no map per pass: a table's files are planned 100,000 at a time.
    val listed = files.toIndexedSeq
    val entryOf = listed.map(k => relative(k.path).fold(-1)(digest.fileAt)).toArray
    val inDigest = listed.indices.filter(entryOf(_) >= 0)
    val current = PlanningPool.inParallel(inDigest.size, parallelism) { j =>
      holdsFor(digest.index.files(entryOf(inDigest(j))), listed(inDigest(j)), fs)
    }
    val covered = inDigest.indices.collect { case j if current(j) => inDigest(j) }
    val rows = new DigestRows(fs, opened)
    rows.fetch(DigestVerdicts.rowsNeeded(digest, predicate, settings.caseSensitive), parallelism)
    val kept = DigestVerdicts.of(digest, predicate, settings.caseSensitive, rows.words, SbbfKernels.get())
    val ruledOut = Map.newBuilder[FileKey, FileOutcome]
    val keptFiles = Set.newBuilder[FileKey]
    val coveredFiles = new java.util.BitSet(digest.index.files.size)
    covered.foreach { i =>
      val entry = entryOf(i)
      coveredFiles.set(entry)
      if (kept.keepsAny(entry)) keptFiles += listed(i)
      else ruledOut += listed(i) -> outcome(digest.index.files(entry))
      ()
    }
    val entries = DigestVerdicts.probedRowGroups(digest, predicate, settings.caseSensitive, coveredFiles)
    Decided(ruledOut.result(), keptFiles.result(),
      DigestUse(entries = entries.cardinality, entriesPruned = kept.ruledOutOf(entries),
        requests = opened.reads + rows.requests, bytesRead = opened.bytesRead + rows.bytesRead,
        filesNotCovered = files.size - covered.size, refused = 0))
  }

  /**
   * Whether the entries of `file` hold for the listed `key`: its version now is the listing's etag,
   * else asked of `fs` (an inode and change time locally, a status call on HDFS or for an object the
   * listing did not version), as the per-file path asks.
   */
  private def holdsFor(file: DigestFile, key: FileKey, fs: FileSystem): Boolean =
    file.holdsFor(key.length, key.modificationTime,
      key.version.map(FileVersion.Version).getOrElse {
        val path = new Path(key.path)
        FileVersion.of(fs, path, fs.getFileStatus(path))
      })

  // One verdict vector per row-group count, shared by the files the digest rules out (most of a table).
  private val ruledOutVerdicts: IndexedSeq[IndexedSeq[RowGroupVerdict]] = (0 to 64).map(
    IndexedSeq.fill(_)(RowGroupVerdict.PrunedByBloomFilter))

  /** A file the digest rules out whole: its row groups' places and verdicts, nothing read. */
  private def outcome(file: DigestFile): FileOutcome =
    FileOutcome(
      file.rowGroups.map(rg => Span(rg.start, rg.length)),
      ruledOutVerdicts.lift(file.rowGroups.size).getOrElse(IndexedSeq.fill(file.rowGroups.size)(RowGroupVerdict.PrunedByBloomFilter)),
      brokenFilters = 0, rowGroupsUnprobed = 0,
      version = file.version.fold[FileVersion.Lookup](FileVersion.NotOffered)(FileVersion.Version), failure = None,
      reads = FileReads.footerOnly(0), readByJob = false)
}
