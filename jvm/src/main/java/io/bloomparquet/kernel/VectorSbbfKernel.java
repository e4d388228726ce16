package io.bloomparquet.kernel;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * One 256-bit int vector per block: the mask of eight words is computed and
 * applied in a handful of SIMD instructions. The only class that imports
 * {@code jdk.incubator.vector}; constructed reflectively by {@link SbbfKernels}.
 *
 * <p>Batches are plain loops, unlike the scalar kernel's groups: a probe is
 * ~17 instructions, so the out-of-order window already holds some twenty
 * independent probes and their cache misses. Grouping (indices and first
 * words first) measured 1.5-3x slower here; see docs/benchmarks.md.
 */
final class VectorSbbfKernel implements SbbfKernel {

  private static final VectorSpecies<Integer> BLOCK = IntVector.SPECIES_256;
  private static final IntVector SALTS = IntVector.fromArray(BLOCK, SALT, 0);
  private static final IntVector ONES = IntVector.broadcast(BLOCK, 1);

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

  private static void insertAt(int[] words, int base, int key) {
    IntVector.fromArray(BLOCK, words, base).or(mask(key)).intoArray(words, base);
  }

  private static boolean allSet(int[] words, int base, int key) {
    IntVector m = mask(key);
    return IntVector.fromArray(BLOCK, words, base).and(m).eq(m).allTrue();
  }

  @Override
  public void insert(int[] words, long hash) {
    insertAt(words, SbbfKernel.blockIndex(hash, words.length >>> 3) << 3, (int) hash);
  }

  @Override
  public boolean check(int[] words, long hash) {
    return allSet(words, SbbfKernel.blockIndex(hash, words.length >>> 3) << 3, (int) hash);
  }

  @Override
  public void insertAll(int[] words, long[] hashes, int from, int to) {
    int numBlocks = words.length >>> 3;
    for (int i = from; i < to; i++) {
      long h = hashes[i];
      insertAt(words, SbbfKernel.blockIndex(h, numBlocks) << 3, (int) h);
    }
  }

  @Override
  public void checkAll(int[] words, long[] hashes, int from, int to, boolean[] out) {
    int numBlocks = words.length >>> 3;
    for (int i = from; i < to; i++) {
      long h = hashes[i];
      out[i - from] = allSet(words, SbbfKernel.blockIndex(h, numBlocks) << 3, (int) h);
    }
  }

  @Override
  public boolean checkAny(int[] words, long[] hashes, int from, int to) {
    int numBlocks = words.length >>> 3;
    for (int i = from; i < to; i++) {
      long h = hashes[i];
      if (allSet(words, SbbfKernel.blockIndex(h, numBlocks) << 3, (int) h)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void checkEveryBlock(int[] blocks, long hash, boolean[] out) {
    IntVector m = mask((int) hash);
    int n = blocks.length >>> 3;
    for (int e = 0; e < n; e++) {
      out[e] = IntVector.fromArray(BLOCK, blocks, e << 3).and(m).eq(m).allTrue();
    }
  }
}
