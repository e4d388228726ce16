package io.bloomparquet.write

import java.util.Locale

/**
 * parquet-java's Hadoop settings that make its writer build bloom filters sized by our model
 * ([[FilterSizing]]), for writers we cannot replace (Delta Lake's: its table properties reach
 * parquet-java's writer as Hadoop settings, see [[io.bloomparquet.delta.DeltaTableFilters]]).
 *
 * A column with a known count of distinct values per row group gets a filter for that count;
 * otherwise parquet-java's adaptive filter counts them: it inserts into candidates of halving
 * sizes, largest first, drops each one its count outgrows, and writes the smallest left
 * (parquet-java 1.14 on; 1.13, Spark 3.5's, has none: its filters are sized for a full row group).
 * parquet-java sizes both from the spec's formula, whose filters miss the FPP asked for (see
 * [[FilterSizing]]: ~1.46x at 1 %), so it is given the FPP at which its formula yields our size.
 * Its sizes are powers of two: up to twice the bytes of our writer's exact sizing.
 */
object ParquetJavaFilters {
  val Prefix = "parquet.bloom.filter."
  private val Enabled = Prefix + "enabled"
  private val Ndv = Prefix + "expected.ndv"
  private val Fpp = Prefix + "fpp"
  private val Candidates = Prefix + "candidates.number"
  private val Adaptive = Prefix + "adaptive.enabled"
  private val MaxBytes = Prefix + "max.bytes"
  /**
   * The smallest candidate of an adaptive filter: below it a file's few values barely matter. Each
   * value goes into every candidate its count has not outgrown: all of them only in small files.
   */
  private val SmallestCandidate = 1024
  /**
   * The largest filter written for a column whose distinct values are not given: parquet-java holds
   * every candidate in memory per column per open file (twice this), and 16 MiB is 1 % for 13 M values.
   */
  val LargestUncounted: Int = 16 << 20
  private val LargestFilter = 1 << 27 // parquet-java's bound

  /** A column to write filters for: its path in the files (physical names), FPP, distinct values if known. */
  final case class FilterColumn(path: Seq[String], fpp: Double, ndv: Option[Long]) {
    def dotted: String = path.mkString(".")
  }

  /** Whether `key` is one of parquet-java's bloom filter settings (which [[apply]] makes). */
  def isSetting(key: String): Boolean = key.toLowerCase(Locale.ROOT).startsWith(Prefix)

  /** The column a per-column `enabled` setting turns on or off, if `key` is one. */
  def enabledColumn(key: String): Option[String] =
    if (key.toLowerCase(Locale.ROOT).startsWith(Enabled + "#")) Some(key.substring(Enabled.length + 1)) else None

  /**
   * The settings writing `columns`' filters, and turning off those of `dropped` (dotted paths).
   * `rowsPerRowGroup` bounds the distinct values of a row group where a column's are unknown: its
   * filter for that count is the largest adaptive candidate, or, without `adaptive` filters, the filter.
   */
  def apply(columns: Seq[FilterColumn], dropped: Seq[String], rowsPerRowGroup: Long,
      adaptive: Boolean = true): Map[String, String] = {
    val largest = columns.map { c =>
      val bytes = powerOfTwoAtLeast(FilterSizing.numBytes(c.ndv.getOrElse(rowsPerRowGroup), c.fpp))
      if (c.ndv.isEmpty) math.min(bytes, LargestUncounted) else bytes
    }
    val maxBytes = (largest :+ SmallestCandidate).max
    val perColumn = columns.flatMap { c =>
      val common = Seq(s"$Enabled#${c.dotted}" -> "true", s"$Fpp#${c.dotted}" -> parquetFpp(c.fpp).toString)
      c.ndv match {
        case Some(n) => common :+ (s"$Ndv#${c.dotted}" -> n.toString)
        case None if adaptive => common :+ (s"$Candidates#${c.dotted}" -> candidates(maxBytes).toString)
        case None => common :+ (s"$Ndv#${c.dotted}" -> math.min(rowsPerRowGroup, ndvFitting(LargestUncounted, c.fpp)).toString)
      }
    }
    val off = dropped.filterNot(d => columns.exists(_.dotted == d)).map(d => s"$Enabled#$d" -> "false")
    (perColumn ++ off ++ (if (adaptive) Seq(Adaptive -> "true") else Nil) :+ (MaxBytes -> maxBytes.toString)).toMap
  }

  /**
   * The FPP at which the spec's formula (bits per value `-8 / ln(1 - p^(1/8))`, parquet-java's) gives
   * as many bits per value as [[FilterSizing]] gives for `fpp`.
   */
  def parquetFpp(fpp: Double): Double = {
    val n = 1000000L
    val bitsPerValue = FilterSizing.numBytes(n, fpp) * 8.0 / n
    math.pow(1 - math.exp(-8 / bitsPerValue), 8)
  }

  /** Halving from `maxBytes` down to [[SmallestCandidate]]. */
  private def candidates(maxBytes: Int): Int =
    32 - Integer.numberOfLeadingZeros(math.max(1, maxBytes / SmallestCandidate))

  /** The most distinct values a filter of `bytes` holds at `fpp`. */
  private def ndvFitting(bytes: Int, fpp: Double): Long = {
    var lo = 1L
    var hi = bytes.toLong * 8
    while (hi - lo > 1) {
      val mid = (lo + hi) >>> 1
      if (FilterSizing.numBytes(mid, fpp) <= bytes) lo = mid else hi = mid
    }
    lo
  }

  private def powerOfTwoAtLeast(bytes: Int): Int =
    math.min(LargestFilter, Integer.highestOneBit(math.max(1, bytes - 1)) << 1)
}
