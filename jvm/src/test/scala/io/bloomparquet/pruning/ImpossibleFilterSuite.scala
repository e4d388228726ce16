package io.bloomparquet.pruning

import io.bloomparquet.sbbf.{ParquetHash, SplitBlockBloomFilter}
import org.apache.parquet.column.statistics.Statistics
import org.apache.parquet.io.api.Binary
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName
import org.apache.parquet.schema.{LogicalTypeAnnotation, Types}

class ImpossibleFilterSuite extends munit.FunSuite {
  private val int64 = Types.required(PrimitiveTypeName.INT64).named("k")
  private val string = Types.required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("s")
  private val double = Types.required(PrimitiveTypeName.DOUBLE).named("d")

  private def longStats(min: Long, max: Long): Statistics[_] = {
    val s = Statistics.createStats(int64); s.updateStats(min); s.updateStats(max); s
  }

  private def filterOf(hashes: Long*): SplitBlockBloomFilter = {
    val f = SplitBlockBloomFilter(1024); hashes.foreach(f.insertHash); f
  }

  test("a filter holding min and max is plausible") {
    val f = filterOf(ParquetHash.int64(3L), ParquetHash.int64(10L), ParquetHash.int64(7L))
    assertEquals(ImpossibleFilter.reason(int64, longStats(3, 10), f), None)
  }

  test("an all-zero filter excludes the chunk's own min: corrupt") {
    val reason = ImpossibleFilter.reason(int64, longStats(3, 10), SplitBlockBloomFilter(1024))
    assert(reason.exists(_.contains("own min (3)")), reason)
  }

  test("a filter missing only the max is corrupt too") {
    val reason = ImpossibleFilter.reason(int64, longStats(3, 10), filterOf(ParquetHash.int64(3L)))
    assert(reason.exists(_.contains("own max (10)")), reason)
  }

  test("strings hash without a length prefix, as the filter does") {
    val s = Statistics.createStats(string)
    Seq("apple", "pear").foreach(v => s.updateStats(Binary.fromString(v)))
    val f = filterOf(ParquetHash.bytes("apple".getBytes("UTF-8")), ParquetHash.bytes("pear".getBytes("UTF-8")))
    assertEquals(ImpossibleFilter.reason(string, s, f), None)
    assert(ImpossibleFilter.reason(string, s, SplitBlockBloomFilter(1024)).isDefined)
  }

  test("no statistics, only nulls, or a float column: nothing to check") {
    val empty = SplitBlockBloomFilter(1024)
    assertEquals(ImpossibleFilter.reason(int64, null, empty), None)
    assertEquals(ImpossibleFilter.reason(int64, Statistics.createStats(int64), empty), None)
    val d = Statistics.createStats(double); d.updateStats(-0.0); d.updateStats(1.0)
    assertEquals(ImpossibleFilter.reason(double, d, empty), None) // -0.0 as min is written for a chunk holding 0.0
  }
}
