package io.bloomparquet.planning

import io.bloomparquet.compat.VectoredReads
import io.bloomparquet.options.ReadCostSettings

/**
 * What a read costs on a file system, for choosing between reading probed filters whole and
 * reading only the blocks their probes hash to: time = rounds x `latencySeconds` + bytes /
 * `bytesPerSecond`, the bandwidth one planning read gets (a stream's, or its share of the
 * driver's when many files are read at once: [[ReadCost.forPath]]). A file's ranges go in rounds
 * of `parallelRanges` (above 1: one vectored read, whose ranges the file system fetches
 * together; 1: one after the other). Where a request costs no more than [[ReadCost.UnnoticedSeconds]]
 * (a local disk's page cache), time cannot tell planning's ways apart, and the fewest bytes decide
 * among those within a file's open of the fastest ([[cheapest]]). Pure.
 */
final case class ReadCost(latencySeconds: Double, bytesPerSecond: Double, parallelRanges: Int = 1) {

  /** Whether a file's ranges are read in one vectored read. */
  def vectored: Boolean = parallelRanges > 1

  /** The cost of reads issued one after the other. */
  def oneAfterAnother: ReadCost = copy(parallelRanges = 1)

  def seconds(requests: Int, bytes: Long): Double = rounds(requests) * latencySeconds + bytes / bytesPerSecond

  /** The rounds of requests `requests` ranges of one file take. */
  def rounds(requests: Int): Int = (requests + parallelRanges - 1) / parallelRanges

  /** What holding `blocks` blocks read apart costs beyond their bytes (each is sliced, mapped and looked up). */
  def blockSeconds(blocks: Int): Double = blocks * ReadCost.SecondsPerBlock

  /**
   * The gap between two ranges read rather than skipped. One after the other, a gap this long costs
   * as much to read as a request. In a vectored read the ranges share rounds, so a gap saves no
   * latency unless it saves a round: only gaps of [[ReadCost.VectoredMergeBytes]] are read (the
   * cost model then weighs the rounds the ranges take against a whole read).
   */
  def gapBytes: Long =
    if (vectored) ReadCost.VectoredMergeBytes else math.max(0L, (latencySeconds * bytesPerSecond).toLong)

  /**
   * How much further than the footer a tail is worth reading to hold filters read in blocks: a
   * request's worth of bytes, or none where requests go unnoticed (bytes decide there).
   */
  def tailReachBytes: Long = if (requestsUnnoticed) 0L else oneAfterAnother.gapBytes

  /** Whether a request costs too little for planning's time to show it: bytes then decide. */
  def requestsUnnoticed: Boolean = latencySeconds <= ReadCost.UnnoticedSeconds

  /**
   * How much slower than the fastest a way may be and still win on bytes: where requests go unnoticed,
   * what opening a local file costs (a way within it changes a file's planning by less than its open;
   * any file system told a request costs 10 µs or less is taken to be that fast); elsewhere nothing.
   */
  def tolerance: Double = if (requestsUnnoticed) ReadCost.LocalOpenSeconds else 0.0

  /** Of `ways` (each with its time by this model and the bytes it fetches), the fewest bytes within [[tolerance]] of the fastest. */
  def cheapest[A](ways: Seq[A])(seconds: A => Double, bytes: A => Long): A = {
    val fastest = ways.map(seconds).min
    ways.filter(w => seconds(w) <= fastest + tolerance).minBy(w => (bytes(w), seconds(w)))
  }
}

object ReadCost {
  private val MB = 1e6

  /**
   * Measured (bench/filter_reads.py, IN 1,000 absent over 400 files of 1 MiB filters): 1,000 blocks
   * a filter, read in one coalesced range, took 1.1 µs a block longer to plan than the whole filter.
   */
  val SecondsPerBlock: Double = 1.1e-6

  /** Schemes of object stores' Hadoop clients. */
  val ObjectStores: Set[String] = Set("s3a", "s3", "s3n", "gs", "abfs", "abfss", "wasb", "wasbs", "oss", "cos", "cosn")

  /**
   * The scheme of `path`, lower case (None for a path without one), as Hadoop's `Path` reads it: what
   * precedes a colon that comes before any slash. Read per planned file, so without parsing the URI.
   */
  def scheme(path: String): Option[String] = {
    val colon = path.indexOf(':')
    val slash = path.indexOf('/')
    if (colon > 0 && (slash < 0 || colon < slash)) Some(path.substring(0, colon).toLowerCase(java.util.Locale.ROOT))
    else None
  }

  /** Whether `path` lies on an object store. */
  def onObjectStore(path: String): Boolean = scheme(path).exists(ObjectStores)

  /** Ranges of a vectored read this close are read as one (S3A merges them itself: `fs.s3a.vectored.read.min.seek.size`). */
  val VectoredMergeBytes: Long = 4096

  /**
   * A request this cheap does not show in planning's time: a file's open alone costs more (~38 µs on
   * a local disk; a seek and read of 32 bytes 2.2 µs, of 1 MiB 117 µs: `LocalReadBench`, bench/jmh.sh).
   */
  val UnnoticedSeconds: Double = 10e-6

  /** What opening a local file and reading from it costs (38-41 µs measured: `LocalReadBench.openAndRead`). */
  val LocalOpenSeconds: Double = 40e-6

  /**
   * Per scheme: a local file system's seek and read costs ~2 µs and streams ~8 GB/s (Hadoop's
   * checksummed local file system from the page cache, measured: `LocalReadBench`); HDFS a
   * round trip of ~1 ms at ~200 MB/s; an object store a request of ~20 ms at ~100 MB/s per stream
   * (the simulated store of `bench/scale.py`); any other file system 5 ms at 100 MB/s. S3A
   * fetches the ranges of a vectored read 4 at a time (`fs.s3a.vectored.active.ranged.reads`);
   * Hadoop's other file systems read them one after the other.
   */
  def forScheme(scheme: Option[String]): ReadCost = scheme.map(_.toLowerCase(java.util.Locale.ROOT)) match {
    case None | Some("file") => ReadCost(2e-6, 8000 * MB)
    case Some("hdfs" | "viewfs") => ReadCost(1e-3, 200 * MB)
    case Some("s3a") => ReadCost(20e-3, 100 * MB, if (VectoredReads.supported) 4 else 1)
    case Some(s) if ObjectStores(s) => ReadCost(20e-3, 100 * MB)
    case Some(_) => ReadCost(5e-3, 100 * MB)
  }

  def forPath(path: String): ReadCost =
    forScheme(scheme(path))

  /**
   * The bandwidth of all planning reads at once (a driver's network: ~10 Gbit/s), per scheme:
   * HDFS and object stores 1,000 MB/s; local files (the page cache) and others unlimited.
   */
  def driverBytesPerSecond(scheme: Option[String]): Double = scheme.map(_.toLowerCase(java.util.Locale.ROOT)) match {
    case None | Some("file") => Double.PositiveInfinity
    case Some(s) if ObjectStores(s) || s == "hdfs" || s == "viewfs" => 1000 * MB
    case Some(_) => Double.PositiveInfinity
  }

  /**
   * The scheme's cost with what a scan's `bloom.readCost.*` settings give (0: the scheme's figure).
   * A read gets its stream's bandwidth, or its share of the driver's when the files read at once
   * (`filesAtOnce`) would together exceed it: at scale, whole filters lose for the bytes alone.
   */
  def forPath(path: String, settings: ReadCostSettings): ReadCost = {
    val pathScheme = scheme(path)
    val base = forScheme(pathScheme)
    val stream = if (settings.megabytesPerSecond > 0) settings.megabytesPerSecond * MB else base.bytesPerSecond
    val driver =
      if (settings.driverMegabytesPerSecond > 0) settings.driverMegabytesPerSecond * MB else driverBytesPerSecond(pathScheme)
    ReadCost(
      if (settings.latencyMicros > 0) settings.latencyMicros * 1e-6 else base.latencySeconds,
      math.min(stream, driver / math.max(1, settings.filesAtOnce)),
      if (!VectoredReads.supported) 1 else if (settings.parallelRanges > 0) settings.parallelRanges.toInt else base.parallelRanges)
  }
}
