package io.bloomparquet.sbbf

import java.nio.{ByteBuffer, ByteOrder}
import java.nio.charset.StandardCharsets.UTF_8
import java.util.SplittableRandom

import org.apache.parquet.column.values.bloomfilter.{BlockSplitBloomFilter, XxHash}
import org.apache.parquet.io.api.Binary

/** Known answers, and agreement with parquet-java's own hashing of every type. */
class ParquetHashSuite extends munit.FunSuite {

  private val pj = new BlockSplitBloomFilter(32)
  private val xx = new XxHash()

  private def le(n: Int)(put: ByteBuffer => Unit): Array[Byte] = {
    val b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN); put(b); b.array()
  }

  test("xxHash64 known answers (seed 0)") {
    assertEquals(ParquetHash.bytes(Array.emptyByteArray), 0xef46db3751d8e999L)
    assertEquals(ParquetHash.bytes("a".getBytes(UTF_8)), 0xd24ec4f1a98c6e5bL)
    assertEquals(ParquetHash.bytes("abc".getBytes(UTF_8)), 0x44bc2cf5ad770999L)
    // Fixed widths hash their little-endian PLAIN bytes.
    assertEquals(ParquetHash.int32(1), ParquetHash.bytes(Array[Byte](1, 0, 0, 0)))
    assertEquals(ParquetHash.int64(-2L), ParquetHash.bytes(Array.fill[Byte](8)(-1).updated(0, (-2).toByte)))
  }

  test("INT32 / INT64 / FLOAT / DOUBLE agree with parquet-java, incl. negatives, -0.0 and NaN") {
    val random = new SplittableRandom(1)
    val ints = Seq(0, 1, -1, Int.MinValue, Int.MaxValue) ++ Seq.fill(1000)(random.nextInt())
    for (v <- ints) {
      assertEquals(ParquetHash.int32(v), pj.hash(Integer.valueOf(v)))
      assertEquals(ParquetHash.int32(v), xx.hashBytes(le(4)(_.putInt(v))))
    }
    val longs = Seq(0L, -1L, Long.MinValue, Long.MaxValue) ++ Seq.fill(1000)(random.nextLong())
    for (v <- longs) assertEquals(ParquetHash.int64(v), pj.hash(java.lang.Long.valueOf(v)))
    val floats = Seq(0.0f, -0.0f, Float.NaN, Float.PositiveInfinity, Float.MinPositiveValue, -1.5f)
    for (v <- floats) assertEquals(ParquetHash.float(v), xx.hashBytes(le(4)(_.putFloat(v))))
    for (v <- floats.filterNot(_.isNaN)) assertEquals(ParquetHash.float(v), pj.hash(java.lang.Float.valueOf(v)))
    val doubles = Seq(0.0, -0.0, Double.NaN, Double.NegativeInfinity, Double.MinPositiveValue, 1e300) ++
      Seq.fill(1000)(random.nextDouble())
    for (v <- doubles) assertEquals(ParquetHash.double(v), xx.hashBytes(le(8)(_.putDouble(v))))
    for (v <- doubles.filterNot(_.isNaN)) assertEquals(ParquetHash.double(v), pj.hash(java.lang.Double.valueOf(v)))
    assertNotEquals(ParquetHash.double(0.0), ParquetHash.double(-0.0), "raw bits: -0.0 hashes apart from 0.0")
  }

  test("BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY: bytes only, no length prefix; empty and non-ASCII") {
    val random = new SplittableRandom(2)
    val strings = Seq("", "a", "ü", "日本語", "emoji \ud83d\ude00", "x" * 1000)
    val randomBytes = Seq.fill(500) { val b = new Array[Byte](random.nextInt(100)); random.nextBytes(b); b }
    for (b <- strings.map(_.getBytes(UTF_8)) ++ randomBytes) {
      assertEquals(ParquetHash.bytes(b), pj.hash(Binary.fromConstantByteArray(b)))
      assertEquals(ParquetHash.binary(Binary.fromConstantByteArray(b)), ParquetHash.bytes(b))
      val padded = Array[Byte](9, 9) ++ b ++ Array[Byte](9)
      assertEquals(ParquetHash.bytes(padded, 2, b.length), ParquetHash.bytes(b))
    }
  }
}
