package io.bloomparquet.sbbf

import java.util.SplittableRandom

import io.bloomparquet.kernel.SbbfKernels

class SizingSuite extends munit.FunSuite {

  private def measuredFpp(numBlocks: Int, inserted: Int, probes: Int, seed: Long): Double = {
    val random = new SplittableRandom(seed)
    val f = SplitBlockBloomFilter(numBlocks * 32)
    Array.fill(inserted)(random.nextLong()).foreach(f.insertHash)
    // Fresh random hashes are absent with probability 1 - inserted / 2^64.
    val hits = f.checkHashes(Array.fill(probes)(random.nextLong())).count(identity)
    hits.toDouble / probes
  }

  // Spec: 1024 blocks hold 26,214 / 52,428 / 13,107 values at ~1.26 % / 18 % / 0.04 %.
  for ((inserted, expected, tolerance) <- Seq((26214, 0.0126, 0.0015), (52428, 0.18, 0.01), (13107, 0.0004, 0.00015)))
    test(s"spec figure: 1024 blocks, $inserted values -> ~${expected * 100} %") {
      val fpp = measuredFpp(1024, inserted, 2000000, inserted.toLong)
      assertEqualsDouble(fpp, expected, tolerance)
    }

  test("optimalNumBytes follows the spec formula, whole blocks, bounded") {
    assertEquals(SplitBlockBloomFilter.optimalNumBytes(0, 0.01), 32)
    assertEquals(SplitBlockBloomFilter.optimalNumBytes(1, 0.01), 32)
    // 1,000,000 values at 1 %: -8 / ln(1 - 0.01^(1/8)) = 9.68 bits each.
    val bits = 1000000 * -8.0 / math.log(1 - math.pow(0.01, 1.0 / 8))
    assertEquals(SplitBlockBloomFilter.optimalNumBytes(1000000, 0.01), (math.ceil(bits / 256) * 32).toInt)
    assertEquals(SplitBlockBloomFilter.optimalNumBytes(Long.MaxValue / 1024, 0.01), SplitBlockBloomFilter.MaxBytes)
    for (ndv <- Seq(3L, 1000L, 123457L); fpp <- Seq(0.1, 0.01, 0.001))
      assertEquals(SplitBlockBloomFilter.optimalNumBytes(ndv, fpp) % 32, 0)
    intercept[IllegalArgumentException](SplitBlockBloomFilter.optimalNumBytes(10, 0.0))
    intercept[IllegalArgumentException](SplitBlockBloomFilter.optimalNumBytes(10, 1.0))
    intercept[IllegalArgumentException](SplitBlockBloomFilter.optimalNumBytes(-1, 0.5))
  }

  test("invalid sizes are refused") {
    for (n <- Seq(0, 16, 33, 100, SplitBlockBloomFilter.MaxBytes + 32))
      intercept[IllegalArgumentException](SplitBlockBloomFilter(n))
    intercept[IllegalArgumentException](SplitBlockBloomFilter.fromBytes(new Array[Byte](48)))
  }

  test("serialisation round-trips and is little-endian words") {
    val f = SplitBlockBloomFilter(64, SbbfKernels.scalar())
    f.insertHash(0x0123456789abcdefL)
    val back = SplitBlockBloomFilter.fromBytes(f.toBytes)
    assertEquals(back, f)
    val firstSetWord = f.words.indexWhere(_ != 0)
    val b = f.toBytes
    val w = f.words(firstSetWord)
    assertEquals(b(firstSetWord * 4) & 0xff, w & 0xff)
    assertEquals(b(firstSetWord * 4 + 3) & 0xff, w >>> 24)
  }
}
