package io.bloomparquet.sbbf

import java.nio.{ByteBuffer, ByteOrder}
import java.util.SplittableRandom

import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter
import shaded.parquet.net.openhft.hashing.LongHashFunction

/** XxHash64 == hashing the little-endian bytes == parquet-java's typed hashes; batches == one at a time. */
class XxHash64Suite extends munit.FunSuite {

  private val lib = LongHashFunction.xx(0L)
  private val pj = new BlockSplitBloomFilter(32)

  private def le(n: Int)(put: ByteBuffer => Unit): Array[Byte] = {
    val b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN); put(b); b.array()
  }

  test("4- and 8-byte values: library, little-endian bytes and parquet-java agree") {
    val random = new SplittableRandom(11)
    val ints = Seq(0, 1, -1, Int.MinValue, Int.MaxValue) ++ Seq.fill(20000)(random.nextInt())
    for (v <- ints) {
      assertEquals(XxHash64.hashInt(v), lib.hashBytes(le(4)(_.putInt(v))))
      assertEquals(XxHash64.hashInt(v), pj.hash(v))
    }
    val longs = Seq(0L, 1L, -1L, Long.MinValue, Long.MaxValue) ++ Seq.fill(20000)(random.nextLong())
    for (v <- longs) {
      assertEquals(XxHash64.hashLong(v), lib.hashBytes(le(8)(_.putLong(v))))
      assertEquals(XxHash64.hashLong(v), pj.hash(v))
    }
  }

  test("batch helpers equal the per-value hashes") {
    val random = new SplittableRandom(13)
    val longs = Array.fill(1000)(random.nextLong())
    val ints = Array.fill(1000)(random.nextInt())
    val arrays = Array.fill(1000) { val b = new Array[Byte](random.nextInt(70)); random.nextBytes(b); b }
    val out = new Array[Long](1000)
    ParquetHash.int64s(longs, 10, 990, out)
    assertEquals(out.take(980).toSeq, longs.slice(10, 990).map(ParquetHash.int64).toSeq)
    ParquetHash.int32s(ints, 3, 1000, out)
    assertEquals(out.take(997).toSeq, ints.drop(3).map(ParquetHash.int32).toSeq)
    ParquetHash.byteArrays(arrays, 0, 1000, out)
    assertEquals(out.toSeq, arrays.map(b => ParquetHash.bytes(b)).toSeq)
    assertEquals(ParquetHash.int64s(longs).toSeq, longs.map(ParquetHash.int64).toSeq)
    assertEquals(ParquetHash.int32s(ints).toSeq, ints.map(ParquetHash.int32).toSeq)
  }
}
