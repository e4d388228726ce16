package io.bloomparquet.pruning

import io.bloomparquet.pruning.KeySetPayoff.RowGroupSample

/** When a key-set filter can pay: 1-(1-p)^n against the sampled filters, and statistics of sorted files. */
class KeySetPayoffSuite extends munit.FunSuite {

  private def filtered(p: Double, lo: Double = 0, hi: Double = 100) = RowGroupSample(Some(p), Some(lo), Some(hi))

  test("past ln θ / -ln(1-p) keys no 1 % filter prunes a shuffled file; below, it may") {
    val shuffled = Seq.fill(4)(filtered(0.01))
    val stop = ProbePayoff.valuesToStopAt(0.01) // 459: 0.99^459 < 1 %
    assert(KeySetPayoff.mayPay(shuffled, stop - 1.0))
    assert(!KeySetPayoff.mayPay(shuffled, stop + 1.0))
    assert(KeySetPayoff.mayPay(shuffled, 1))
    assert(!KeySetPayoff.mayPay(shuffled, 1e9))
    // Finer filters prune more keys: 0.1 % still prunes a few thousand.
    assert(KeySetPayoff.mayPay(Seq.fill(4)(filtered(0.001)), 4000))
  }

  test("the share is a mean over the sample; a row group without a filter counts nothing") {
    val half = Seq(filtered(0.0), RowGroupSample(None, Some(0), Some(100)))
    assertEqualsDouble(KeySetPayoff.bloomShare(half, 1e6), 0.5, 1e-12)
    assert(!KeySetPayoff.mayPay(Seq.fill(3)(RowGroupSample(None, Some(0), Some(100))), 1))
    assertEqualsDouble(KeySetPayoff.bloomShare(Seq(filtered(0.5)), 2), 0.25, 1e-12)
    assertEqualsDouble(KeySetPayoff.bloomShare(Seq(filtered(0.5)), 0), 0.5, 1e-12) // at least one key
  }

  test("row groups over narrow slices of the values (sorted files) may prune whatever the keys") {
    val sorted = Seq(filtered(0.01, 0, 10), filtered(0.01, 10, 20), filtered(0.01, 80, 90), filtered(0.01, 90, 100))
    assert(KeySetPayoff.statsMayPrune(sorted))
    assert(KeySetPayoff.mayPay(sorted, 1e9))
    val overlapping = Seq(filtered(0.01, 0, 90), filtered(0.01, 5, 100))
    assert(!KeySetPayoff.statsMayPrune(overlapping))
    // A row group without min and max (strings, no statistics): statistics judge nothing.
    assert(!KeySetPayoff.statsMayPrune(sorted :+ RowGroupSample(Some(0.01), None, None)))
    assert(!KeySetPayoff.statsMayPrune(Seq(filtered(0.01, 0, 10))))
    assert(!KeySetPayoff.statsMayPrune(Seq(filtered(0.01, 5, 5), filtered(0.01, 5, 5))))
  }

  test("a key present in every row group (a foreign key spread over them) is pruned by no filter") {
    // Each row group holds about all 500 integers between the sample's min and max: q near 1.
    val spread = Seq.fill(2)(RowGroupSample(Some(0.008), Some(0), Some(499), Some(497), rows = 1500))
    assertEqualsDouble(KeySetPayoff.presentShares(spread).head, 497.0 / 500, 1e-12)
    assert(!KeySetPayoff.mayPay(spread, 1))
    // Holding 500 of 500,000: the filter's false positives decide, as without counts.
    val sparse = Seq.fill(2)(RowGroupSample(Some(0.008), Some(0), Some(499999), Some(500), rows = 1500))
    assert(KeySetPayoff.mayPay(sparse, 100))
    // Without a count (strings, doubles) q is 0: the filter's most favourable case.
    assertEquals(KeySetPayoff.presentShares(Seq(filtered(0.01), filtered(0.01))), Seq(0.0, 0.0))
  }

  test("the share is weighed by rows: a file's short last row group saves little") {
    val full = RowGroupSample(Some(0.008), Some(0), Some(499), Some(497), rows = 1500)
    val runt = RowGroupSample(Some(0.005), Some(455), Some(499), Some(46), rows = 45)
    val runtShare = math.pow((1 - 46.0 / 500) * 0.995, 2)
    assertEqualsDouble(KeySetPayoff.bloomShare(Seq(full, runt), 2), (45 * runtShare + 1500 * math.pow(3.0 / 500 * 0.992, 2)) / 1545, 1e-9)
    assertEqualsDouble(KeySetPayoff.bloomShare(Seq(filtered(0.0).copy(rows = 3), RowGroupSample(None, None, None, rows = 1)), 5), 0.75,
      1e-12)
  }

  test("nothing sampled: the filter stays") {
    assert(KeySetPayoff.mayPay(Seq.empty, 1e12))
  }

  test("the keys' estimate: the key's distinct count, else rows, else size over a row's bytes; at least 1") {
    assertEquals(KeySetPayoff.keysEstimate(Some(BigInt(7)), Some(BigInt(100)), BigInt(1) << 40, 12), 7.0)
    assertEquals(KeySetPayoff.keysEstimate(None, Some(BigInt(100)), BigInt(1) << 40, 12), 100.0)
    assertEquals(KeySetPayoff.keysEstimate(None, None, BigInt(1200), 12), 100.0)
    assertEquals(KeySetPayoff.keysEstimate(None, None, BigInt(0), 12), 1.0)
    assertEquals(KeySetPayoff.keysEstimate(None, None, BigInt(10), 0), 10.0)
  }
}
