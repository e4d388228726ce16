package io.bloomparquet.bench;

import io.bloomparquet.kernel.SbbfKernel;
import io.bloomparquet.kernel.SbbfKernels;
import java.util.SplittableRandom;

/** Deterministic filters and probe sets shared by the benchmarks. */
final class Workload {

  /**
   * Hashes cycled through by every benchmark, a power of two. 4 Mi distinct
   * hashes touch 4 Mi blocks: far more lines than the 32 MiB L3 holds, so a
   * 128 MiB filter is probed from DRAM, not from lines a shorter cycle warmed.
   */
  static final int PROBES = 1 << 22;

  /** Hashes per batched call (checkAll / insertAll). */
  static final int BATCH = 1024;

  /** The spec's bits per value at 1 % FPP: filters are filled to their design load. */
  static final double BITS_PER_VALUE = 10.5;

  private Workload() {}

  static SbbfKernel kernel(String impl) {
    switch (impl) {
      case "vector":
        // The kernel this JVM chose, when it is the Vector API one (else why it is not).
        if (!SbbfKernels.get().name().equals("vector")) {
          throw new UnsupportedOperationException(SbbfKernels.reason());
        }
        return SbbfKernels.get();
      case "scalar":
        return SbbfKernels.scalar();
      case "scalar-v0":
        return new BaselineScalarKernel();
      default:
        throw new IllegalArgumentException("no kernel " + impl);
    }
  }

  static long[] randomHashes(int n, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = random.nextLong();
    }
    return out;
  }

  /**
   * Words of a filter of {@code numBytes} filled to design load with random
   * hashes; when {@code members} is non-null it receives hashes that were
   * inserted, spread over the whole insertion stream.
   */
  static int[] filledWords(int numBytes, long seed, long[] members) {
    int[] words = new int[numBytes / 4];
    long n = (long) (numBytes * 8L / BITS_PER_VALUE);
    SplittableRandom random = new SplittableRandom(seed);
    SbbfKernel k = SbbfKernels.scalar();
    long stride = members == null ? Long.MAX_VALUE : Math.max(1, n / members.length);
    int kept = 0;
    for (long i = 0; i < n; i++) {
      long h = random.nextLong();
      k.insert(words, h);
      if (members != null && i % stride == 0 && kept < members.length) {
        members[kept++] = h;
      }
    }
    // Small filters hold fewer values than PROBES: repeat the members we have.
    for (int i = kept; members != null && i < members.length; i++) {
      members[i] = members[i % kept];
    }
    if (members != null) {
      shuffle(members, seed);
    }
    return words;
  }

  private static void shuffle(long[] a, long seed) {
    SplittableRandom random = new SplittableRandom(seed ^ 0x9e3779b97f4a7c15L);
    for (int i = a.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      long t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }

  /** Little-endian bytes of the words: the spec bitset, what parquet-java reads. */
  static byte[] toBytes(int[] words) {
    byte[] out = new byte[words.length * 4];
    java.nio.ByteBuffer.wrap(out).order(java.nio.ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(words);
    return out;
  }
}
