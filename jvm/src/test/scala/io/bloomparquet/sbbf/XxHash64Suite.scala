package io.bloomparquet.sbbf

import java.nio.{ByteBuffer, ByteOrder}
import java.util.SplittableRandom

import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter
import shaded.parquet.net.openhft.hashing.LongHashFunction

/** Our hand-written xxHash64 == the library parquet-java uses == parquet-java's typed hashes. */
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

  test("byte arrays of every length 0..300 at odd offsets agree with the library") {
    val random = new SplittableRandom(12)
    for (len <- 0 to 300; off <- Seq(0, 1, 3, 7)) {
      val b = new Array[Byte](off + len + 5)
      random.nextBytes(b)
      assertEquals(XxHash64.hashBytes(b, off, len), lib.hashBytes(b, off, len), s"len $len off $off")
    }
    val big = new Array[Byte](100000)
    random.nextBytes(big)
    assertEquals(XxHash64.hashBytes(big), lib.hashBytes(big))
  }

  test("out-of-range slices throw instead of reading past the array") {
    intercept[IndexOutOfBoundsException](XxHash64.hashBytes(new Array[Byte](8), 4, 8))
    intercept[IndexOutOfBoundsException](XxHash64.hashBytes(new Array[Byte](8), -1, 2))
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
