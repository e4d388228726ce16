package io.bloomparquet.write

import java.util.SplittableRandom

import io.bloomparquet.options.{BloomColumn, Sizing}
import io.bloomparquet.sbbf.{ParquetHash, SplitBlockBloomFilter}

class SizingAndFppSuite extends munit.FunSuite {

  private def absentFpp(f: SplitBlockBloomFilter, probes: Int): Double = {
    // Values from 2^40 on were never inserted (inserted values are 0 until ndv).
    val hashes = Array.tabulate(probes)(i => ParquetHash.int64((1L << 40) + i))
    f.checkHashes(hashes).count(identity).toDouble / probes
  }

  private def exactFilter(ndv: Int, fpp: Double, copies: Int = 2): SplitBlockBloomFilter = {
    val c = FilterBuilder(BloomColumn(Seq("c"), fpp, None))
    for (_ <- 0 until copies; v <- 0 until ndv) c.add(ParquetHash.int64(v.toLong))
    c.build()
  }

  test("HashBuffer: distinct hashes in unsigned order, across compactions and growth") {
    val r = new SplittableRandom(7)
    val values = Array.fill(300000)(r.nextLong(100000) * 0x9e3779b97f4a7c15L) ++ Array(0L, 0L, -1L, Long.MinValue)
    val b = new HashBuffer(16)
    values.foreach(b.add)
    val (sorted, n) = b.distinct()
    val expected = values.distinct.sortWith((x, y) => java.lang.Long.compareUnsigned(x, y) < 0)
    assertEquals(sorted.take(n).toSeq, expected.toSeq)
    b.add(12345L)
    assertEquals(b.distinct()._2, n + 1)
  }

  test("size: at least the spec formula, at most 1.1x of it at 1 %, and the expected FPP meets the target") {
    for (ndv <- Seq(1L, 10L, 1000L, 123457L, 1000000L, 10000000L)) {
      val bytes = FilterSizing.numBytes(ndv, 0.01)
      val formula = SplitBlockBloomFilter.optimalNumBytes(ndv, 0.01)
      assert(bytes >= formula && bytes <= formula * 1.1 + 32, s"ndv $ndv: $bytes vs formula $formula")
      assert(FilterSizing.expectedFpp(bytes / 32, ndv) <= 0.01)
      assert(bytes == 32 || FilterSizing.expectedFpp(bytes / 32 - 1, ndv) > 0.01, "not the smallest size")
    }
    assertEquals(FilterSizing.numBytes(0, 0.01), 32)
    assertEquals(FilterSizing.numBytes(Long.MaxValue / 4, 0.01), SplitBlockBloomFilter.MaxBytes)
  }

  test("the Poisson model matches the spec's figure: 1024 blocks, 26,214 values ~ 1.26 %") {
    assertEqualsDouble(FilterSizing.expectedFpp(1024, 26214), 0.0126, 0.0005)
  }

  // Per-chunk NDV from 10 to 1,000,000 without giving an NDV: measured FPP within 1.2x.
  for (ndv <- Seq(10, 100, 1000, 10000, 100000, 1000000); fpp <- Seq(0.01, 0.001))
    test(s"measured FPP, exact sizing, ndv $ndv, target $fpp") {
      val f = exactFilter(ndv, fpp)
      assertEquals(f.numBytes, FilterSizing.numBytes(ndv.toLong, fpp))
      assert(f.checkHashes(Array.tabulate(ndv)(v => ParquetHash.int64(v.toLong))).forall(identity))
      val measured = absentFpp(f, if (fpp < 0.005) 2000000 else 500000)
      assert(measured <= 1.2 * fpp, s"measured $measured for target $fpp")
    }

  test("fold: a folded filter equals the filter built directly at the smaller size") {
    val hashes = Array.tabulate(50000)(v => ParquetHash.int64(v.toLong))
    val big = SplitBlockBloomFilter(315 * 64 * 32)
    hashes.foreach(big.insertHash)
    for (factor <- Seq(2, 3, 5, 7, 9, 64, 315)) {
      val direct = SplitBlockBloomFilter(big.numBytes / factor)
      hashes.foreach(direct.insertHash)
      assertEquals(SbbfFold.fold(big, factor), direct, s"factor $factor")
    }
  }

  test("fold sizing: estimate close to the true count, measured FPP within 1.2x") {
    for (ndv <- Seq(1000, 100000, 1000000)) {
      val c = FilterBuilder(BloomColumn(Seq("c"), 0.01, None, Sizing.Fold))
      for (v <- 0 until ndv) c.add(ParquetHash.int64(v.toLong))
      val f = c.build()
      assert(f.numBytes >= FilterSizing.numBytes(ndv.toLong, 0.01) * 0.97, s"ndv $ndv: ${f.numBytes}")
      assert(absentFpp(f, 500000) <= 0.012)
    }
  }

  test("BloomColumn plans survive Java serialization (they travel to executors in the writer factory)") {
    val cols = Seq(BloomColumn(Seq("a,b", "c;d%"), 0.05, Some(7L), Sizing.Fold, 99L), BloomColumn(Seq("x"), 0.01, None))
    val bytes = new java.io.ByteArrayOutputStream()
    val out = new java.io.ObjectOutputStream(bytes)
    out.writeObject(cols)
    out.close()
    val back = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray)).readObject()
    assertEquals(back, cols)
  }
}
