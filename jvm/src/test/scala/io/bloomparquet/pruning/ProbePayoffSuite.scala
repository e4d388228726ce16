package io.bloomparquet.pruning

import io.bloomparquet.kernel.SbbfKernels
import io.bloomparquet.pruning.BloomPredicate.{AllOf, AnyOf, ColumnIn}
import io.bloomparquet.pruning.CompiledPredicate.{And, Const, Leaf, Or}
import io.bloomparquet.pruning.ProbePayoff.Tally
import io.bloomparquet.sbbf.{FillEstimates, SplitBlockBloomFilter}
import org.apache.spark.sql.types.LongType

/** When probing filters can still pay off: the physics 1-(1-p)^n and the spec's sizing numbers. */
class ProbePayoffSuite extends munit.FunSuite {

  private def near(got: Double, want: Double, relative: Double): Unit =
    assert(math.abs(got - want) <= want * relative, s"$got is not within ${relative * 100} % of $want")

  private def expected(blocks: Long, ndv: Long) = SplitBlockBloomFilter.expectedFpp(blocks, ndv)

  test("the rate model the bounds rely on: the spec's table, real filters' fill, increasing in the values") {
    for ((bits, fpp) <- Seq(6.0 -> 0.10, 10.5 -> 0.01, 16.9 -> 0.001, 26.4 -> 0.0001, 41.0 -> 0.00001))
      near(expected(1000, (256.0 / bits * 1000).round), fpp, 0.02)
    val f = SplitBlockBloomFilter(32 * 2048, SbbfKernels.get())
    val rng = new scala.util.Random(3)
    Array.fill(51200)(rng.nextLong()).foreach(f.insertHash) // 10 bits per value: about 1.3 %
    near(FillEstimates.fpp(f.words), expected(2048, 51200), 0.05)
    val rates = Seq(1L, 10L, 100L, 1000L, 10000L, 100000L, 10000000L, 1000000000000L).map(expected(64, _))
    assertEquals(rates, rates.sorted)
    assertEquals(expected(64, 0), 0.0)
    assertEquals(expected(0, 5), 1.0)
    near(expected(1, 1000000000000L), 1.0, 1e-9)
  }

  test("the footer's bound: NDV <= values bounds the rate from above; no length, no bound") {
    val values = 20000L
    val bytes = SplitBlockBloomFilter.optimalNumBytes(values, 0.001)
    val f = SplitBlockBloomFilter(bytes, SbbfKernels.get())
    val rng = new scala.util.Random(5)
    for ((ndv, more) <- Seq(100 -> 100, 5000 -> 4900, 20000 -> 15000)) {
      Array.fill(more)(rng.nextLong()).foreach(f.insertHash)
      assert(FillEstimates.fpp(f.words) <= ProbePayoff.fppUpperBound(bytes + 20L, values).get * 1.1, s"ndv $ndv")
    }
    assertEquals(ProbePayoff.fppUpperBound(-1, values), None)
    assertEquals(ProbePayoff.fppUpperBound(0, values), None)
  }

  test("exclusion chance (1-p)^n: no values, a rate of zero, a saturated filter") {
    assertEquals(ProbePayoff.exclusionChance(0.5, 0), 1.0)
    assertEquals(ProbePayoff.exclusionChance(0.0, 20000), 1.0)
    assertEquals(ProbePayoff.exclusionChance(1.0, 1), 0.0)
    near(ProbePayoff.exclusionChance(0.001, 20000), math.exp(-20.0), 0.01)
    near(ProbePayoff.exclusionChance(0.01, 20), 0.818, 0.001)
    assertEquals(ProbePayoff.exclusionChance(-0.1, 3), 1.0) // a nonsense estimate is clamped, not trusted
  }

  private val probe = PhysicalProbe.AnyOf(IndexedSeq.empty)
  private val (a, b) = (Leaf(0, probe), Leaf(1, probe))

  test("row group chance through AND and OR; a leaf without a filter (missing or broken) excludes nothing") {
    val chances: Leaf => Option[Double] = l => if (l eq a) Some(0.5) else Some(0.2)
    assertEquals(ProbePayoff.rowGroupChance(a, chances), 0.5)
    near(ProbePayoff.rowGroupChance(And(Seq(a, b)), chances), 1 - 0.5 * 0.8, 1e-12)
    near(ProbePayoff.rowGroupChance(Or(Seq(a, b)), chances), 0.1, 1e-12)
    val bMissing: Leaf => Option[Double] = l => if (l eq a) Some(0.5) else None
    assertEquals(ProbePayoff.rowGroupChance(And(Seq(a, b)), bMissing), 0.5)
    assertEquals(ProbePayoff.rowGroupChance(Or(Seq(a, b)), bMissing), 0.0)
    assertEquals(ProbePayoff.rowGroupChance(Const(true), bMissing), 0.0)
    assertEquals(ProbePayoff.rowGroupChance(Const(false), bMissing), 1.0)
  }

  /** `rowGroups` probed row groups of one sizing: rate `fpp`, `n` values each, `pruned` of them pruned. */
  private def probed(rowGroups: Int, fpp: Double, n: Int, pruned: Int = 0, filterBytes: Long = 1 << 20,
      dataBytes: Long = 8 << 20): Tally = (0 until rowGroups).map(i =>
    ProbePayoff.rowGroup(ProbePayoff.exclusionChance(fpp, n), i < pruned, filterBytes,
      dataBytes)).foldLeft(Tally())(_ + _)

  test("cannot pay off: 20,000 values at 0.1 % or 1,000 at 1 %, once enough row groups agree") {
    assert(ProbePayoff.cannotPayOff(probed(4, 0.001, 20000)))
    assert(ProbePayoff.cannotPayOff(probed(16, 0.01, 1000)))
    assert(!ProbePayoff.cannotPayOff(probed(ProbePayoff.MinRowGroups - 1, 0.001, 20000)), "too few to trust")
    assert(!ProbePayoff.cannotPayOff(Tally()), "nothing seen")
  }

  test("may pay off: point lookups, small IN lists, selective big ones (a point lookup never stops)") {
    for ((fpp, n) <- Seq(0.5 -> 1, 0.01 -> 1, 0.01 -> 10, 0.001 -> 100, 0.0001 -> 10000, 0.01 -> 400)) {
      assert(!ProbePayoff.cannotPayOff(probed(1000, fpp, n)), s"p $fpp, n $n")
      assert(ProbePayoff.mayPayOff(probed(1000, fpp, n)), s"p $fpp, n $n")
    }
  }

  test("observed pruning that disagrees with the estimate keeps probing") {
    assert(!ProbePayoff.cannotPayOff(probed(8, 0.001, 20000, pruned = 1)))
    assert(ProbePayoff.cannotPayOff(probed(200, 0.001, 20000, pruned = 1)), "1 in 200 is below 1 %")
  }

  test("weighed against the filter bytes: wide row groups make a small chance worth it") {
    // 0.5 % expected pruning: 0.5 % of 400 MiB of row group saves more than a 1 MiB filter costs.
    assert(!ProbePayoff.cannotPayOff(probed(100, 0.01, 527, dataBytes = 400L << 20)))
    assert(ProbePayoff.cannotPayOff(probed(100, 0.01, 527, dataBytes = 8L << 20)))
  }

  test("no filter bytes and no chance: neither pays off nor counts as evidence of paying off") {
    assert(!ProbePayoff.mayPayOff(Tally(rowGroups = 3)))
    assert(!ProbePayoff.mayPayOff(Tally()))
  }

  test("which predicates are worth watching: the largest IN list decides") {
    def in(n: Int) = ColumnIn(Seq("k"), LongType, (0 until n).map(_.toLong))
    assertEquals(ProbePayoff.maxValues(AllOf(Seq(in(3), AnyOf(Seq(in(50), in(2)))))), 50)
    assertEquals(ProbePayoff.maxValues(BloomPredicate.NoMatch), 0)
    assertEquals(ProbePayoff.valuesToStopAt(0.5), 7)
    assertEquals(ProbePayoff.valuesToStopAt(0.1), 44)
    assert(!ProbePayoff.worthTracking(in(1)) && !ProbePayoff.worthTracking(in(6)) && ProbePayoff.worthTracking(in(7)))
    assert(!ProbePayoff.worthPilot(in(43)) && ProbePayoff.worthPilot(in(44)))
  }
}
