package io.bloomparquet.sbbf

import java.nio.{ByteBuffer, ByteOrder}
import java.util.SplittableRandom

import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter
import shaded.parquet.net.openhft.hashing.LongHashFunction

/** XxHash64 == hashing the little-endian bytes == parquet-java's typed hashes; byte ranges and buffers agree. */
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

  test("a ByteBuffer hashes its remaining bytes, heap or direct, without moving") {
    val random = new SplittableRandom(13)
    for (len <- Seq(0, 1, 7, 8, 31, 32, 33, 200)) {
      val b = new Array[Byte](len + 5); random.nextBytes(b)
      val want = lib.hashBytes(b.slice(3, 3 + len))
      val heap = ByteBuffer.wrap(b, 3, len)
      val direct = ByteBuffer.allocateDirect(len + 5).put(b).position(3).limit(3 + len)
      assertEquals(XxHash64.hashBytes(heap), want)
      assertEquals(XxHash64.hashBytes(direct), want)
      assertEquals(XxHash64.hashBytes(b, 3, len), want)
      assertEquals((heap.position(), direct.position()), (3, 3))
    }
  }
}
