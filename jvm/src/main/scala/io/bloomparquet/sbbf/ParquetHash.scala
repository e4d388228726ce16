package io.bloomparquet.sbbf

import org.apache.parquet.io.api.Binary
import shaded.parquet.net.openhft.hashing.LongHashFunction

/**
 * xxHash64 (seed 0) of a value's PLAIN encoding, the hash every Parquet writer
 * inserts into its bloom filters. Backed by the zero-allocation-hashing copy
 * that parquet-java itself uses, so fixed-width values hash without buffers.
 *
 *  - INT32, FLOAT: 4 little-endian bytes (FLOAT as its raw IEEE-754 bits).
 *  - INT64, DOUBLE: 8 little-endian bytes (DOUBLE as its raw bits).
 *  - BYTE_ARRAY: the bytes only; PLAIN's 4-byte length prefix is not hashed.
 *  - FIXED_LEN_BYTE_ARRAY: the bytes.
 *  - INT96: the 12 bytes as stored; parquet-java hashes INT96 as a 12-byte
 *    binary. We never prune on INT96 (its meaning depends on rebase settings).
 *  - BOOLEAN: the spec defines no hash and parquet-java writes no filter for
 *    it; we neither build nor probe boolean filters.
 */
object ParquetHash {
  // XxHash64 wraps the same library for values and the batch helpers.
  private val xx: LongHashFunction = LongHashFunction.xx(0L)

  /** Whether values of this physical type get a bloom filter (we write none for BOOLEAN and INT96). */
  def hasBloomHash(t: org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName): Boolean = {
    import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.{BOOLEAN, INT96}
    t != BOOLEAN && t != INT96
  }

  def int32(v: Int): Long = XxHash64.hashInt(v)
  def int64(v: Long): Long = XxHash64.hashLong(v)
  def float(v: Float): Long = int32(java.lang.Float.floatToRawIntBits(v))
  def double(v: Double): Long = int64(java.lang.Double.doubleToRawLongBits(v))
  def bytes(b: Array[Byte]): Long = xx.hashBytes(b)
  def bytes(b: Array[Byte], offset: Int, length: Int): Long = XxHash64.hashBytes(b, offset, length)
  def binary(b: Binary): Long = xx.hashBytes(b.toByteBuffer)

  def int32s(vs: Array[Int]): Array[Long] = { val out = new Array[Long](vs.length); int32s(vs, 0, vs.length, out); out }
  def int64s(vs: Array[Long]): Array[Long] = { val out = new Array[Long](vs.length); int64s(vs, 0, vs.length, out); out }
  def floats(vs: Array[Float]): Array[Long] = vs.map(float)
  def doubles(vs: Array[Double]): Array[Long] = vs.map(double)

  /** `out(i - from) = int32(vs(i))` for i in `[from, to)`, without allocating. */
  def int32s(vs: Array[Int], from: Int, to: Int, out: Array[Long]): Unit = XxHash64.hashInts(vs, from, to, out, 0)

  /** `out(i - from) = int64(vs(i))` for i in `[from, to)`, without allocating. */
  def int64s(vs: Array[Long], from: Int, to: Int, out: Array[Long]): Unit = XxHash64.hashLongs(vs, from, to, out, 0)

  /** `out(i - from) = bytes(vs(i))` for i in `[from, to)`, without allocating. */
  def byteArrays(vs: Array[Array[Byte]], from: Int, to: Int, out: Array[Long]): Unit =
    XxHash64.hashByteArrays(vs, from, to, out, 0)
}
