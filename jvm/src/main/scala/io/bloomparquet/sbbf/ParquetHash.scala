package io.bloomparquet.sbbf

import java.nio.ByteOrder

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
  private val xx: LongHashFunction = LongHashFunction.xx(0L)
  // hashInt/hashLong hash the native byte order; PLAIN is little-endian.
  private val nativeLittleEndian = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN

  def int32(v: Int): Long = xx.hashInt(if (nativeLittleEndian) v else Integer.reverseBytes(v))
  def int64(v: Long): Long = xx.hashLong(if (nativeLittleEndian) v else java.lang.Long.reverseBytes(v))
  def float(v: Float): Long = int32(java.lang.Float.floatToRawIntBits(v))
  def double(v: Double): Long = int64(java.lang.Double.doubleToRawLongBits(v))
  def bytes(b: Array[Byte]): Long = xx.hashBytes(b)
  def bytes(b: Array[Byte], offset: Int, length: Int): Long = xx.hashBytes(b, offset, length)
  def binary(b: Binary): Long = xx.hashBytes(b.toByteBuffer)

  def int32s(vs: Array[Int]): Array[Long] = vs.map(int32)
  def int64s(vs: Array[Long]): Array[Long] = vs.map(int64)
  def floats(vs: Array[Float]): Array[Long] = vs.map(float)
  def doubles(vs: Array[Double]): Array[Long] = vs.map(double)
}
