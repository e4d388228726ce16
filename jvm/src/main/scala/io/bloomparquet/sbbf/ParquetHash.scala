package io.bloomparquet.sbbf

import org.apache.parquet.io.api.Binary

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
  /** Whether values of this physical type get a bloom filter (we write none for BOOLEAN and INT96). */
  def hasBloomHash(t: org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName): Boolean = {
    import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.{BOOLEAN, INT96}
    t != BOOLEAN && t != INT96
  }

  def int32(v: Int): Long = XxHash64.hashInt(v)
  def int64(v: Long): Long = XxHash64.hashLong(v)
  def float(v: Float): Long = int32(java.lang.Float.floatToRawIntBits(v))
  def double(v: Double): Long = int64(java.lang.Double.doubleToRawLongBits(v))
  def bytes(b: Array[Byte]): Long = XxHash64.hashBytes(b, 0, b.length)
  def bytes(b: Array[Byte], offset: Int, length: Int): Long = XxHash64.hashBytes(b, offset, length)
  def binary(b: Binary): Long = XxHash64.hashBytes(b.toByteBuffer)
}
