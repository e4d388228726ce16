package io.bloomparquet.pruning

/**
 * Whether a key-set filter (`column IN (the keys a join or subquery produces)`, planted before
 * the keys are known) can prune enough of a scan to pay for its subquery, from what is known
 * before the subquery runs: the keys' estimated count n, and a sample of the scan's row groups
 * (their filters' false-positive rates, their min/max). Pure.
 *
 * A row group holding none of the keys survives its filter with probability 1-(1-p)^n, so past
 * n ≈ ln θ / -ln(1-p) keys no filter can prune; its statistics can still prune it when row groups
 * cover narrow slices of the column's values (sorted or clustered data), whatever n is. Where
 * neither can, the filter costs a subquery, a scan that waits for it and a larger plan, and
 * prunes nothing: it is not planted. The answer only ever removes a runtime filter, never rows.
 */
object KeySetPayoff {

  /**
   * One sampled row group's chunk of the key column: its filter's false-positive rate (None: no
   * filter), its min and max, the distinct values its filter holds where they are integers (None:
   * not known or not counted), and its rows (what pruning it saves).
   */
  final case class RowGroupSample(fpp: Option[Double], min: Option[Double], max: Option[Double], ndv: Option[Double] = None,
      rows: Long = 1L)

  /**
   * Statistics may prune when the sampled row groups cover on average less than this share of
   * the values between the sample's least min and greatest max.
   */
  val StatsSpanShare = 0.5

  /**
   * May a filter of about `keys` values prune the sampled row groups? True for an empty sample
   * (nothing known: the filter stays), when statistics may prune, or when the expected share of
   * row groups the bloom filters exclude is at least [[ProbePayoff.Threshold]]. The share only
   * falls as keys grow: a count nothing estimates is judged as a single key.
   */
  def mayPay(samples: Seq[RowGroupSample], keys: Double): Boolean =
    samples.isEmpty || statsMayPrune(samples) || bloomShare(samples, keys) >= ProbePayoff.Threshold

  /**
   * The expected share of the sample's rows the filters exclude: ((1-q)(1-p))^n per row group,
   * weighed by its rows (a file's short last row group saves little); one without a filter counts 0.
   */
  def bloomShare(samples: Seq[RowGroupSample], keys: Double): Double = {
    val rows = samples.map(_.rows.max(1L).toDouble)
    if (samples.isEmpty) 0.0
    else samples.zip(presentShares(samples)).zip(rows).map { case ((s, q), r) =>
      r * s.fpp.fold(0.0)(p => math.pow((1.0 - q) * (1.0 - p.max(0.0).min(1.0)), keys.max(1.0)))
    }.sum / rows.sum
  }

  /**
   * Per row group, q: the share of the integers between the sample's least min and greatest max
   * that its filter holds; 0 where its distinct count or the span is unknown.
   */
  def presentShares(samples: Seq[RowGroupSample]): Seq[Double] = {
    val mins = samples.flatMap(_.min)
    val maxs = samples.flatMap(_.max)
    val span = if (mins.isEmpty || maxs.isEmpty) None else Some(maxs.max - mins.min + 1.0).filter(d => d >= 1.0 && !d.isInfinite)
    samples.map(s => (for (d <- span; n <- s.ndv) yield (n / d).max(0.0).min(1.0)).getOrElse(0.0))
  }

  /** Do the sampled row groups cover narrow slices of the values (every one with a min and max)? */
  def statsMayPrune(samples: Seq[RowGroupSample]): Boolean = {
    val ranges = samples.flatMap(s => for (lo <- s.min; hi <- s.max) yield (lo, hi))
    if (ranges.size < 2 || ranges.size < samples.size) false
    else {
      val span = ranges.map(_._2).max - ranges.map(_._1).min
      span > 0 && !span.isInfinite && ranges.map { case (lo, hi) => (hi - lo) / span }.sum / ranges.size < StatsSpanShare
    }
  }

  /**
   * The keys' count as Spark estimates their plan: its distinct count of the key where known
   * (table statistics), else its row count, else its size over the bytes of a row. At least 1.
   */
  def keysEstimate(distinct: Option[BigInt], rows: Option[BigInt], sizeInBytes: BigInt, rowBytes: Long): Double =
    distinct.orElse(rows).map(_.toDouble).getOrElse(sizeInBytes.toDouble / rowBytes.max(1L)).max(1.0)
}
