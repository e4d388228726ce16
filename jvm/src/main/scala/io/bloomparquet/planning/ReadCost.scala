package io.bloomparquet.planning

/**
 * What a read costs on a file system, for choosing between reading probed filters whole and
 * reading only the blocks their probes hash to: time = requests x `latencySeconds` + bytes /
 * `bytesPerSecond`, the bandwidth one planning thread gets (the driver's, shared by the
 * planning threads). Pure.
 */
final case class ReadCost(latencySeconds: Double, bytesPerSecond: Double) {
  def seconds(requests: Int, bytes: Long): Double = requests * latencySeconds + bytes / bytesPerSecond

  /** What holding `blocks` blocks read apart costs beyond their bytes (each is sliced, mapped and looked up). */
  def blockSeconds(blocks: Int): Double = blocks * ReadCost.SecondsPerBlock

  /** A gap between two ranges this long costs as much to read as a request: shorter gaps are read. */
  def gapBytes: Long = math.max(0L, (latencySeconds * bytesPerSecond).toLong)
}

object ReadCost {
  private val MB = 1e6

  /**
   * Measured (bench/filter_reads.py, IN 1,000 absent over 400 files of 1 MiB filters): 1,000 blocks
   * a filter, read in one coalesced range, took 1.1 µs a block longer to plan than the whole filter.
   */
  val SecondsPerBlock: Double = 1.1e-6

  /**
   * Per scheme: a local file system's positioned read costs ~20 µs and streams ~2 GB/s; HDFS a
   * round trip of ~1 ms at ~200 MB/s; an object store a request of ~20 ms at ~100 MB/s per stream
   * (the figures of issue 25's simulated store); any other file system 5 ms at 100 MB/s.
   */
  def forScheme(scheme: Option[String]): ReadCost = scheme.map(_.toLowerCase(java.util.Locale.ROOT)) match {
    case None | Some("file") => ReadCost(20e-6, 2000 * MB)
    case Some("hdfs" | "viewfs") => ReadCost(1e-3, 200 * MB)
    case Some("s3a" | "s3" | "s3n" | "gs" | "abfs" | "abfss" | "wasb" | "wasbs" | "oss" | "cos" | "cosn") =>
      ReadCost(20e-3, 100 * MB)
    case Some(_) => ReadCost(5e-3, 100 * MB)
  }

  def forPath(path: String): ReadCost =
    forScheme(Option(new org.apache.hadoop.fs.Path(path).toUri.getScheme))
}
