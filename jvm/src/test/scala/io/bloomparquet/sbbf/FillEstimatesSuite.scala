package io.bloomparquet.sbbf

import io.bloomparquet.kernel.SbbfKernels

/** The estimates equal what python/bloomparquet/tools/estimate.py gives for the same bits (numbers from it). */
class FillEstimatesSuite extends munit.FunSuite {

  private def close(got: Double, want: Double): Unit = assertEqualsDouble(got, want, math.abs(want) * 1e-12)

  test("a patterned 4-block bitset: Python's fill, NDV and FPP") {
    // Python: w[i] = ((i * 2654435761) % 2**32) & (0xFFFFFFFF >> (i % 7)), as little-endian uint32.
    val words = Array.tabulate(32)(i => (((i * 2654435761L) % (1L << 32)) & (0xffffffffL >>> (i % 7))).toInt)
    close(FillEstimates.fill(words), 0.4482421875)
    close(FillEstimates.estimatedNdv(words).get, 75.81698583360017)
    close(FillEstimates.fpp(words), 0.001241624311205669)
  }

  test("1000 hashes in 64 blocks, inserted by our kernel as by Python's reference") {
    val f = SplitBlockBloomFilter(32 * 64, SbbfKernels.get())
    Array.tabulate(1000)(i => i.toLong * 0x9e3779b97f4a7c15L).foreach(f.insertHash)
    assertEquals(f.words.take(4).toSeq, Seq(955302789, 1550330941, -676501501, 1357203005))
    close(FillEstimates.fill(f.words), 0.42327880859375)
    close(FillEstimates.estimatedNdv(f.words).get, 1126.936469532252)
    close(FillEstimates.fpp(f.words), 0.0010110101187308373)
  }

  test("empty and saturated filters") {
    val empty = new Array[Int](16)
    assertEquals(FillEstimates.estimatedNdv(empty), Some(0.0))
    assertEquals(FillEstimates.fpp(empty), 0.0)
    val full = Array.fill(16)(-1)
    assertEquals(FillEstimates.estimatedNdv(full), None)
    assertEquals(FillEstimates.fpp(full), 1.0)
  }
}
