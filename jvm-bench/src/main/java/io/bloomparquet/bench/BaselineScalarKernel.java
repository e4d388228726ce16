package io.bloomparquet.bench;

import io.bloomparquet.kernel.SbbfKernel;

/** The scalar kernel as first written (no grouping), measured as "scalar-v0". */
final class BaselineScalarKernel implements SbbfKernel {

  private static final int S0 = SALT[0], S1 = SALT[1], S2 = SALT[2], S3 = SALT[3];
  private static final int S4 = SALT[4], S5 = SALT[5], S6 = SALT[6], S7 = SALT[7];

  @Override
  public String name() {
    return "scalar-v0";
  }

  @Override
  public void insert(int[] words, long hash) {
    int base = SbbfKernel.blockIndex(hash, words.length >>> 3) << 3;
    int key = (int) hash;
    words[base] |= 1 << ((key * S0) >>> 27);
    words[base + 1] |= 1 << ((key * S1) >>> 27);
    words[base + 2] |= 1 << ((key * S2) >>> 27);
    words[base + 3] |= 1 << ((key * S3) >>> 27);
    words[base + 4] |= 1 << ((key * S4) >>> 27);
    words[base + 5] |= 1 << ((key * S5) >>> 27);
    words[base + 6] |= 1 << ((key * S6) >>> 27);
    words[base + 7] |= 1 << ((key * S7) >>> 27);
  }

  @Override
  public boolean check(int[] words, long hash) {
    int base = SbbfKernel.blockIndex(hash, words.length >>> 3) << 3;
    int key = (int) hash;
    // OR of the mask bits missing from the block: zero means all are set.
    int missing = ~words[base] & (1 << ((key * S0) >>> 27));
    missing |= ~words[base + 1] & (1 << ((key * S1) >>> 27));
    missing |= ~words[base + 2] & (1 << ((key * S2) >>> 27));
    missing |= ~words[base + 3] & (1 << ((key * S3) >>> 27));
    missing |= ~words[base + 4] & (1 << ((key * S4) >>> 27));
    missing |= ~words[base + 5] & (1 << ((key * S5) >>> 27));
    missing |= ~words[base + 6] & (1 << ((key * S6) >>> 27));
    missing |= ~words[base + 7] & (1 << ((key * S7) >>> 27));
    return missing == 0;
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

  @Override
  public void checkEveryBlock(int[] blocks, long hash, boolean[] out) {
    int key = (int) hash;
    int[] salt = {S0, S1, S2, S3, S4, S5, S6, S7};
    for (int e = 0; e < blocks.length >>> 3; e++) {
      boolean all = true;
      for (int w = 0; w < 8; w++) {
        all &= (blocks[(e << 3) + w] & (1 << ((key * salt[w]) >>> 27))) != 0;
      }
      out[e] = all;
    }
  }
}
