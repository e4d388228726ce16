package io.bloomparquet.kernel;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * One 256-bit int vector per block: the mask of eight words is computed and
 * applied in a handful of SIMD instructions. The only class that imports
 * {@code jdk.incubator.vector}; constructed reflectively by {@link SbbfKernels}.
 *
 * <p>Batched checks run in groups like the scalar kernel's: a cheap first pass
 * computes the group's block indices and tests each block's first word (a
 * scalar load that starts the cache miss), then the vector pass tests the
 * whole blocks, by then in (or on their way to) L1.
 */
final class VectorSbbfKernel implements SbbfKernel {

  private static final VectorSpecies<Integer> BLOCK = IntVector.SPECIES_256;
  private static final IntVector SALTS = IntVector.fromArray(BLOCK, SALT, 0);
  private static final IntVector ONES = IntVector.broadcast(BLOCK, 1);
  private static final int GROUP = ScalarSbbfKernel.GROUP;
  private static final int S0 = SALT[0];

  VectorSbbfKernel() {
    // Refuse to run where 256-bit int vectors are not native: the Vector API
    // would otherwise fall back to its (very slow) Java implementation.
    if (IntVector.SPECIES_PREFERRED.vectorBitSize() < BLOCK.vectorBitSize()) {
      throw new UnsupportedOperationException(
          "preferred int species is " + IntVector.SPECIES_PREFERRED.vectorBitSize() + " bits, need 256");
    }
  }

  @Override
  public String name() {
    return "vector";
  }

  private static IntVector mask(int key) {
    IntVector shifts = IntVector.broadcast(BLOCK, key).mul(SALTS).lanewise(VectorOperators.LSHR, 27);
    return ONES.lanewise(VectorOperators.LSHL, shifts);
  }

  /** True when every bit of {@code key}'s mask is set in the block at {@code base}. */
  private static boolean allSet(int[] words, int base, int key) {
    IntVector m = mask(key);
    // m & ~block == 0  <=>  every mask bit is set
    return m.lanewise(VectorOperators.AND_NOT, IntVector.fromArray(BLOCK, words, base))
        .compare(VectorOperators.EQ, 0).allTrue();
  }

  /** Scalar test of word 0 only: the group pass's early, cheap load. */
  private static int missing0(int[] words, int base, int key) {
    return ~words[base] & (1 << ((key * S0) >>> 27));
  }

  @Override
  public void insert(int[] words, long hash) {
    int base = SbbfKernel.blockIndex(hash, words.length >>> 3) << 3;
    IntVector.fromArray(BLOCK, words, base).or(mask((int) hash)).intoArray(words, base);
  }

  @Override
  public boolean check(int[] words, long hash) {
    return allSet(words, SbbfKernel.blockIndex(hash, words.length >>> 3) << 3, (int) hash);
  }

  @Override
  public void insertAll(int[] words, long[] hashes, int from, int to) {
    // Inserts are independent stores the core already overlaps; no grouping.
    int numBlocks = words.length >>> 3;
    for (int i = from; i < to; i++) {
      long h = hashes[i];
      int base = SbbfKernel.blockIndex(h, numBlocks) << 3;
      IntVector.fromArray(BLOCK, words, base).or(mask((int) h)).intoArray(words, base);
    }
  }

  @Override
  public void checkAll(int[] words, long[] hashes, int from, int to, boolean[] out) {
    int numBlocks = words.length >>> 3;
    int[] base = new int[GROUP];
    int[] miss = new int[GROUP];
    int i = from;
    for (; i + GROUP <= to; i += GROUP) {
      for (int k = 0; k < GROUP; k++) {
        long h = hashes[i + k];
        int b = SbbfKernel.blockIndex(h, numBlocks) << 3;
        base[k] = b;
        miss[k] = missing0(words, b, (int) h);
      }
      for (int k = 0; k < GROUP; k++) {
        out[i - from + k] = miss[k] == 0 & allSet(words, base[k], (int) hashes[i + k]);
      }
    }
    for (; i < to; i++) {
      out[i - from] = check(words, hashes[i]);
    }
  }

  @Override
  public boolean checkAny(int[] words, long[] hashes, int from, int to) {
    int numBlocks = words.length >>> 3;
    int[] base = new int[GROUP];
    int[] miss = new int[GROUP];
    int i = from;
    for (; i + GROUP <= to; i += GROUP) {
      for (int k = 0; k < GROUP; k++) {
        long h = hashes[i + k];
        int b = SbbfKernel.blockIndex(h, numBlocks) << 3;
        base[k] = b;
        miss[k] = missing0(words, b, (int) h);
      }
      boolean any = false;
      for (int k = 0; k < GROUP; k++) {
        any |= miss[k] == 0 & allSet(words, base[k], (int) hashes[i + k]);
      }
      if (any) {
        return true;
      }
    }
    for (; i < to; i++) {
      if (check(words, hashes[i])) {
        return true;
      }
    }
    return false;
  }
}
