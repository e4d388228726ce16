package io.bloomparquet.sbbf;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * xxHash64 with seed 0, written out for the inputs Parquet hashes: 4 and 8
 * byte values (straight-line, no buffers, no virtual calls, so batch loops
 * inline and overlap) and byte arrays. Tested against the zero-allocation-
 * hashing copy in parquet-column and against parquet-java's own hashing.
 */
public final class XxHash64 {

  private static final long P1 = 0x9E3779B185EBCA87L;
  private static final long P2 = 0xC2B2AE3D27D4EB4FL;
  private static final long P3 = 0x165667B19E3779F9L;
  private static final long P4 = 0x85EBCA77C2B2AE63L;
  private static final long P5 = 0x27D4EB2F165667C5L;

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private XxHash64() {}

  /** Hash of the 4 little-endian bytes of {@code v}. */
  public static long hashInt(int v) {
    long h = (P5 + 4) ^ ((v & 0xFFFFFFFFL) * P1);
    return avalanche(Long.rotateLeft(h, 23) * P2 + P3);
  }

  /** Hash of the 8 little-endian bytes of {@code v}. */
  public static long hashLong(long v) {
    long h = (P5 + 8) ^ (Long.rotateLeft(v * P2, 31) * P1);
    return avalanche(Long.rotateLeft(h, 27) * P1 + P4);
  }

  /** Hash of {@code b[off, off + len)}. */
  public static long hashBytes(byte[] b, int off, int len) {
    java.util.Objects.checkFromIndexSize(off, len, b.length);
    int p = off;
    int end = off + len;
    long h;
    if (len >= 32) {
      long v1 = P1 + P2;
      long v2 = P2;
      long v3 = 0;
      long v4 = -P1;
      int limit = end - 32;
      do {
        v1 = round(v1, (long) LONGS.get(b, p));
        v2 = round(v2, (long) LONGS.get(b, p + 8));
        v3 = round(v3, (long) LONGS.get(b, p + 16));
        v4 = round(v4, (long) LONGS.get(b, p + 24));
        p += 32;
      } while (p <= limit);
      h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
      h = merge(h, v1);
      h = merge(h, v2);
      h = merge(h, v3);
      h = merge(h, v4);
    } else {
      h = P5;
    }
    h += len;
    for (; p + 8 <= end; p += 8) {
      h ^= round(0, (long) LONGS.get(b, p));
      h = Long.rotateLeft(h, 27) * P1 + P4;
    }
    if (p + 4 <= end) {
      h ^= ((int) INTS.get(b, p) & 0xFFFFFFFFL) * P1;
      h = Long.rotateLeft(h, 23) * P2 + P3;
      p += 4;
    }
    for (; p < end; p++) {
      h ^= (b[p] & 0xFFL) * P5;
      h = Long.rotateLeft(h, 11) * P1;
    }
    return avalanche(h);
  }

  public static long hashBytes(byte[] b) {
    return hashBytes(b, 0, b.length);
  }

  /** {@code out[outFrom + i - from] = hashLong(values[i])} for i in {@code [from, to)}. */
  public static void hashLongs(long[] values, int from, int to, long[] out, int outFrom) {
    for (int i = from; i < to; i++) {
      out[outFrom + i - from] = hashLong(values[i]);
    }
  }

  /** {@code out[outFrom + i - from] = hashInt(values[i])} for i in {@code [from, to)}. */
  public static void hashInts(int[] values, int from, int to, long[] out, int outFrom) {
    for (int i = from; i < to; i++) {
      out[outFrom + i - from] = hashInt(values[i]);
    }
  }

  /** {@code out[outFrom + i - from] = hashBytes(values[i])} for i in {@code [from, to)}. */
  public static void hashByteArrays(byte[][] values, int from, int to, long[] out, int outFrom) {
    for (int i = from; i < to; i++) {
      out[outFrom + i - from] = hashBytes(values[i]);
    }
  }

  private static long round(long acc, long input) {
    return Long.rotateLeft(acc + input * P2, 31) * P1;
  }

  private static long merge(long acc, long v) {
    return (acc ^ round(0, v)) * P1 + P4;
  }

  private static long avalanche(long h) {
    h ^= h >>> 33;
    h *= P2;
    h ^= h >>> 29;
    h *= P3;
    return h ^ (h >>> 32);
  }
}
