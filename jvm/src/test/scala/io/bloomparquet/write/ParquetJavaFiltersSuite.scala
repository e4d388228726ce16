package io.bloomparquet.write

import io.bloomparquet.write.ParquetJavaFilters.FilterColumn
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter

class ParquetJavaFiltersSuite extends munit.FunSuite {

  test("parquet-java's formula at the FPP given sizes filters as our model does") {
    for (fpp <- Seq(0.05, 0.01, 0.001); ndv <- Seq(10000L, 1000000L, 20000000L)) {
      val theirs = BlockSplitBloomFilter.optimalNumOfBits(ndv, ParquetJavaFilters.parquetFpp(fpp)) / 8.0
      val ours = FilterSizing.numBytes(ndv, fpp).toDouble
      assert(math.abs(theirs / ours - 1) < 0.01, s"fpp $fpp ndv $ndv: parquet-java $theirs bytes, ours $ours")
    }
    assert(ParquetJavaFilters.parquetFpp(0.01) < 0.01) // the spec's formula is optimistic
  }

  test("adaptive filters from the row group's rows; a given count sizes its column's filter") {
    val settings = ParquetJavaFilters(
      Seq(FilterColumn(Seq("k"), 0.01, None), FilterColumn(Seq("s", "email"), 0.001, Some(5000))), Nil, 1000000)
    val p = ParquetJavaFilters.Prefix
    assertEquals(settings(s"${p}enabled#k"), "true")
    assertEquals(settings(s"${p}enabled#s.email"), "true")
    assertEquals(settings(s"${p}adaptive.enabled"), "true")
    assertEquals(settings(s"${p}expected.ndv#s.email"), "5000")
    assert(!settings.contains(s"${p}expected.ndv#k"))
    // The largest candidate: a power of two holding 1 M values at 1 %; halving down to 1 KiB.
    val max = settings(s"${p}max.bytes").toInt
    assertEquals(Integer.bitCount(max), 1)
    assert(max >= FilterSizing.numBytes(1000000, 0.01) && max < 2 * FilterSizing.numBytes(1000000, 0.01), max)
    assertEquals(settings(s"${p}candidates.number#k").toInt, Integer.numberOfTrailingZeros(max / 1024) + 1)
    assertEquals(settings(s"${p}fpp#s.email").toDouble, ParquetJavaFilters.parquetFpp(0.001))
  }

  test("columns no longer named are turned off; the adaptive bound is capped") {
    val settings = ParquetJavaFilters(Seq(FilterColumn(Seq("k"), 0.01, None)), Seq("k", "old"), Long.MaxValue / 2)
    assertEquals(settings(s"${ParquetJavaFilters.Prefix}enabled#old"), "false")
    assertEquals(settings(s"${ParquetJavaFilters.Prefix}enabled#k"), "true")
    assertEquals(settings(s"${ParquetJavaFilters.Prefix}max.bytes").toInt, ParquetJavaFilters.LargestUncounted)
    assertEquals(ParquetJavaFilters.enabledColumn("parquet.bloom.filter.enabled#a.b"), Some("a.b"))
    assertEquals(ParquetJavaFilters.enabledColumn("parquet.bloom.filter.fpp#a"), None)
    assert(ParquetJavaFilters.isSetting("Parquet.Bloom.Filter.max.bytes"))
  }

  test("without adaptive filters (parquet-java 1.13) every filter is sized for a full row group, at most the cap") {
    val p = ParquetJavaFilters.Prefix
    val small = ParquetJavaFilters(Seq(FilterColumn(Seq("k"), 0.01, None)), Nil, 200000, adaptive = false)
    assertEquals(small(s"${p}expected.ndv#k"), "200000")
    assert(!small.contains(s"${p}adaptive.enabled") && !small.contains(s"${p}candidates.number#k"))
    val huge = ParquetJavaFilters(Seq(FilterColumn(Seq("k"), 0.01, None)), Nil, Long.MaxValue / 2, adaptive = false)
    val ndv = huge(s"${p}expected.ndv#k").toLong
    assert(FilterSizing.numBytes(ndv, 0.01) <= ParquetJavaFilters.LargestUncounted, ndv)
    assert(FilterSizing.numBytes(ndv + 1000, 0.01) > ParquetJavaFilters.LargestUncounted, ndv)
    assertEquals(huge(s"${p}max.bytes").toInt, ParquetJavaFilters.LargestUncounted)
  }
}
