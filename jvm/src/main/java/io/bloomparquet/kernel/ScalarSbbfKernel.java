package io.bloomparquet.kernel;

/**
 * Portable kernel: plain Java, eight words per block, branch-free checks.
 *
 * <p>Batches over filters past {@link #GROUP_MIN_WORDS} run in groups of
 * {@link #GROUP}: first every block index of the group is computed and the
 * block's first word loaded, then the blocks are finished. The first pass is
 * a few instructions per hash, so all of the group's cache misses are in
 * flight at once instead of the few one out-of-order window holds. Filters
 * that fit in L2 have no misses to overlap and the plain loop is faster.
 */
final class ScalarSbbfKernel implements SbbfKernel {

  static final ScalarSbbfKernel INSTANCE = new ScalarSbbfKernel();

  /** Hashes whose blocks are fetched together: 16 probes of ~45 instructions would not fit one out-of-order window. */
  static final int GROUP = 16;

  /** Filters of at least this many words (4 MiB, past any per-core L2) are probed in groups. */
  static final int GROUP_MIN_WORDS = 1 << 20;

  private static final int S0 = SALT[0], S1 = SALT[1], S2 = SALT[2], S3 = SALT[3];
  private static final int S4 = SALT[4], S5 = SALT[5], S6 = SALT[6], S7 = SALT[7];

  private ScalarSbbfKernel() {}

  @Override
  public String name() {
    return "scalar";
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
    return (missing0(words, base, (int) hash) | missing1to7(words, base, (int) hash)) == 0;
  }

  /** Mask bit of word 0 that is not set (zero when set). */
  private static int missing0(int[] words, int base, int key) {
    return ~words[base] & (1 << ((key * S0) >>> 27));
  }

  /** OR of the mask bits of words 1..7 that are not set: zero means all are. */
  private static int missing1to7(int[] words, int base, int key) {
    int missing = ~words[base + 1] & (1 << ((key * S1) >>> 27));
    missing |= ~words[base + 2] & (1 << ((key * S2) >>> 27));
    missing |= ~words[base + 3] & (1 << ((key * S3) >>> 27));
    missing |= ~words[base + 4] & (1 << ((key * S4) >>> 27));
    missing |= ~words[base + 5] & (1 << ((key * S5) >>> 27));
    missing |= ~words[base + 6] & (1 << ((key * S6) >>> 27));
    missing |= ~words[base + 7] & (1 << ((key * S7) >>> 27));
    return missing;
  }

  @Override
  public void insertAll(int[] words, long[] hashes, int from, int to) {
    // Inserts are independent stores the core already overlaps; no grouping.
    for (int i = from; i < to; i++) {
      insert(words, hashes[i]);
    }
  }

  /** Starts a group: every block's first word is loaded before any is needed, so the misses overlap. */
  private static void firstWords(int[] words, long[] hashes, int i, int numBlocks, int[] base, int[] miss) {
    for (int k = 0; k < GROUP; k++) {
      long h = hashes[i + k];
      int b = SbbfKernel.blockIndex(h, numBlocks) << 3;
      base[k] = b;
      miss[k] = missing0(words, b, (int) h);
    }
  }

  @Override
  public void checkAll(int[] words, long[] hashes, int from, int to, boolean[] out) {
    if (words.length < GROUP_MIN_WORDS) {
      for (int i = from; i < to; i++) {
        out[i - from] = check(words, hashes[i]);
      }
      return;
    }
    int numBlocks = words.length >>> 3;
    int[] base = new int[GROUP];
    int[] miss = new int[GROUP];
    int i = from;
    for (; i + GROUP <= to; i += GROUP) {
      firstWords(words, hashes, i, numBlocks, base, miss);
      for (int k = 0; k < GROUP; k++) {
        out[i - from + k] = (miss[k] | missing1to7(words, base[k], (int) hashes[i + k])) == 0;
      }
    }
    for (; i < to; i++) {
      out[i - from] = check(words, hashes[i]);
    }
  }

  @Override
  public boolean checkAny(int[] words, long[] hashes, int from, int to) {
    if (words.length < GROUP_MIN_WORDS) {
      for (int i = from; i < to; i++) {
        if (check(words, hashes[i])) {
          return true;
        }
      }
      return false;
    }
    int numBlocks = words.length >>> 3;
    int[] base = new int[GROUP];
    int[] miss = new int[GROUP];
    int i = from;
    for (; i + GROUP <= to; i += GROUP) {
      firstWords(words, hashes, i, numBlocks, base, miss);
      boolean any = false;
      for (int k = 0; k < GROUP; k++) {
        any |= (miss[k] | missing1to7(words, base[k], (int) hashes[i + k])) == 0;
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

  @Override
  public void checkEveryBlock(int[] blocks, long hash, boolean[] out) {
    int key = (int) hash;
    int m0 = 1 << ((key * S0) >>> 27), m1 = 1 << ((key * S1) >>> 27);
    int m2 = 1 << ((key * S2) >>> 27), m3 = 1 << ((key * S3) >>> 27);
    int m4 = 1 << ((key * S4) >>> 27), m5 = 1 << ((key * S5) >>> 27);
    int m6 = 1 << ((key * S6) >>> 27), m7 = 1 << ((key * S7) >>> 27);
    int n = blocks.length >>> 3;
    for (int e = 0; e < n; e++) {
      int b = e << 3;
      int missing = (~blocks[b] & m0) | (~blocks[b + 1] & m1) | (~blocks[b + 2] & m2) | (~blocks[b + 3] & m3)
          | (~blocks[b + 4] & m4) | (~blocks[b + 5] & m5) | (~blocks[b + 6] & m6) | (~blocks[b + 7] & m7);
      out[e] = missing == 0;
    }
  }
}
