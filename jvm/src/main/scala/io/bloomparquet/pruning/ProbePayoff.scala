package io.bloomparquet.pruning

import io.bloomparquet.pruning.BloomPredicate.{AllOf, AnyOf, ColumnIn}
import io.bloomparquet.pruning.CompiledPredicate.{And, Const, Leaf, Or}
import io.bloomparquet.sbbf.SplitBlockBloomFilter

/**
 * Whether probing bloom filters can still pay off in a scan. A row group that
 * holds none of n probed values survives a filter of false-positive rate p with
 * probability 1-(1-p)^n: with n·p ≫ 1 no filter can prune, and reading them is
 * wasted work. Pure: the numbers in, a yes or no out. The answer only ever
 * decides to read fewer filters (and keep their row groups), never to drop one.
 */
object ProbePayoff {

  /** Below this expected share of prunable row groups, probing the rest of a scan is not worth it. */
  val Threshold = 0.01

  /** Row groups probed (with their filters' fill estimated) before the estimate is trusted. */
  val MinRowGroups = 4

  /**
   * What the probed row groups so far predict and showed. `expectedPruned`: the sum of each
   * one's chance to be pruned (from its filters' fill); `pruned`: how many were; `filterBytes`:
   * bytes of the filters probed; `expectedSavedBytes`: the sum of chance × the row group's bytes.
   */
  final case class Tally(rowGroups: Long = 0, expectedPruned: Double = 0, pruned: Long = 0, filterBytes: Long = 0,
      expectedSavedBytes: Double = 0) {
    def +(o: Tally): Tally = Tally(rowGroups + o.rowGroups, expectedPruned + o.expectedPruned, pruned + o.pruned,
      filterBytes + o.filterBytes, expectedSavedBytes + o.expectedSavedBytes)
  }

  /** One probed row group as a [[Tally]]. */
  def rowGroup(chance: Double, pruned: Boolean, filterBytes: Long, dataBytes: Long): Tally =
    Tally(1, chance, if (pruned) 1 else 0, filterBytes, chance * dataBytes)

  /**
   * True when the filters probed so far say the rest cannot pay off: enough of them, an
   * expected pruning below [[Threshold]] that the observed pruning agrees with, and the bytes
   * the expected pruning would save below the bytes of filters read to get it.
   */
  def cannotPayOff(t: Tally): Boolean =
    t.rowGroups >= MinRowGroups && !mayPayOff(t) && t.pruned <= Threshold * t.rowGroups

  /**
   * What the chances in `t` promise is worth the filters: an expected pruning of at least
   * [[Threshold]] of the row groups, or more bytes saved than filter bytes read. False for no row groups.
   */
  def mayPayOff(t: Tally): Boolean = t.rowGroups > 0 &&
    t.expectedPruned >= Threshold * t.rowGroups || t.expectedSavedBytes > 0 && t.expectedSavedBytes >= t.filterBytes

  /** Chance that a filter of false-positive rate `fpp` rejects all of `n` absent values: (1-p)^n. */
  def exclusionChance(fpp: Double, n: Int): Double =
    if (n <= 0) 1.0 else math.pow(1.0 - fpp.max(0.0).min(1.0), n.toDouble)

  /**
   * Chance that a row group holding none of the values is pruned, from each leaf's chance
   * (None: nothing can exclude through it, e.g. no filter). Leaves are taken as independent.
   */
  def rowGroupChance(p: CompiledPredicate, leafChance: Leaf => Option[Double]): Double = p match {
    case Const(mayMatch) => if (mayMatch) 0.0 else 1.0
    case l: Leaf => leafChance(l).getOrElse(0.0)
    case And(cs) => 1.0 - cs.map(c => 1.0 - rowGroupChance(c, leafChance)).product // any child excludes
    case Or(cs) => cs.map(rowGroupChance(_, leafChance)).product // every child must exclude
  }

  /** The most values one column is probed with. */
  def maxValues(p: BloomPredicate): Int = p match {
    case ColumnIn(_, _, values, _) => values.size
    case AllOf(cs) => cs.map(maxValues).foldLeft(0)(_ max _)
    case AnyOf(cs) => cs.map(maxValues).foldLeft(0)(_ max _)
    case _ => 0
  }

  /** The fewest values for which a filter of rate `fpp` prunes less than [[Threshold]]: ln θ / ln(1-p). */
  def valuesToStopAt(fpp: Double): Int = math.ceil(math.log(Threshold) / math.log1p(-fpp)).toInt

  /**
   * Worth watching at all: only a filter of rate > 50 % could stop a probe of fewer values
   * (n = 1 needs p > 99 %), and such filters prune little anyway. Point lookups pay nothing.
   */
  def worthTracking(p: BloomPredicate): Boolean = maxValues(p) >= valuesToStopAt(0.5)

  /**
   * Worth planning one file first, alone, to learn the filters' fill before the others are read:
   * when filters of a common rate (≤ 10 %) could already be hopeless for this many values.
   */
  def worthPilot(p: BloomPredicate): Boolean = maxValues(p) >= valuesToStopAt(0.1)

  /**
   * An upper bound on a chunk's filter rate from its footer alone: `bloom_filter_length`
   * (header and bitset) against the chunk's value count, since NDV ≤ values and the
   * expected rate ([[SplitBlockBloomFilter.expectedFpp]]) grows with NDV. The header is
   * counted as bitset (more blocks, a lower rate): the bound errs towards "can pay off".
   * None when the length is not written.
   */
  def fppUpperBound(filterLength: Long, values: Long): Option[Double] =
    if (filterLength <= 0) None
    else Some(SplitBlockBloomFilter.expectedFpp((filterLength + 31) / 32, values))
}
