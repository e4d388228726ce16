package io.bloomparquet.sbbf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import shaded.parquet.net.openhft.hashing.LongHashFunction;

/**
 * xxHash64 (seed 0) of Parquet's PLAIN values, one at a time, over the
 * zero-allocation-hashing copy in parquet-column (the one hash function
 * instance of the project). A hand-written 4/8-byte
 * xxHash64 and a VarHandle byte-array loop were measured against it and did
 * not beat it (docs/benchmarks.md), so the library it is.
 */
public final class XxHash64 {

  private static final LongHashFunction LIBRARY = LongHashFunction.xx(0L);
  // hashInt/hashLong hash native byte order; PLAIN is little-endian.
  private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

  private XxHash64() {}

  /** Hash of the 4 little-endian bytes of {@code v}. */
  public static long hashInt(int v) {
    return LIBRARY.hashInt(LITTLE_ENDIAN ? v : Integer.reverseBytes(v));
  }

  /** Hash of the 8 little-endian bytes of {@code v}. */
  public static long hashLong(long v) {
    return LIBRARY.hashLong(LITTLE_ENDIAN ? v : Long.reverseBytes(v));
  }

  /** Hash of {@code b[off, off + len)}. */
  public static long hashBytes(byte[] b, int off, int len) {
    return LIBRARY.hashBytes(b, off, len);
  }

  /** Hash of {@code b}'s remaining bytes (heap or direct; position unchanged). */
  public static long hashBytes(ByteBuffer b) {
    return LIBRARY.hashBytes(b);
  }
}
