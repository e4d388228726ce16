package io.bloomparquet.kernel;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * One 256-bit int vector per block: the mask of eight words is computed and
 * applied in a handful of SIMD instructions. The only class that imports
 * {@code jdk.incubator.vector}; constructed reflectively by {@link SbbfKernels}.
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

  @Override
  public void insert(int[] words, long hash) {
    int base = SbbfKernel.blockIndex(hash, words.length >>> 3) << 3;
    IntVector.fromArray(BLOCK, words, base).or(mask((int) hash)).intoArray(words, base);
  }

  @Override
  public boolean check(int[] words, long hash) {
    int base = SbbfKernel.blockIndex(hash, words.length >>> 3) << 3;
    IntVector m = mask((int) hash);
    return IntVector.fromArray(BLOCK, words, base).and(m).eq(m).allTrue();
  }

  @Override
  public void insertAll(int[] words, long[] hashes, int from, int to) {
    for (int i = from; i < to; i++) {
      insert(words, hashes[i]);
    }
  }

  @Override
  public void checkAll(int[] words, long[] hashes, int from, int to, boolean[] out) {
    for (int i = from; i < to; i++) {
      out[i - from] = check(words, hashes[i]);
    }
  }

  @Override
  public boolean checkAny(int[] words, long[] hashes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (check(words, hashes[i])) {
        return true;
      }
    }
    return false;
  }
}
