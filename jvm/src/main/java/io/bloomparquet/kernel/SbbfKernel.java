package io.bloomparquet.kernel;

/**
 * The split block Bloom filter operations of the Parquet spec over a bitset held
 * as {@code int[]} words: block {@code b} is {@code words[8b .. 8b+7]}.
 *
 * <p>Implementations must be bit-for-bit interchangeable: the same insertions
 * produce the same words, and the same checks the same answers.
 */
public interface SbbfKernel {

  /** The spec's eight odd salt constants. */
  int[] SALT = {
    0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d,
    0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31
  };

  /** Short name shown to users: "vector" or "scalar". */
  String name();

  /** Index of the block for {@code hash} in a filter of {@code numBlocks} blocks (spec: top 32 bits times z). */
  static int blockIndex(long hash, int numBlocks) {
    return (int) (((hash >>> 32) * numBlocks) >>> 32);
  }

  void insert(int[] words, long hash);

  boolean check(int[] words, long hash);

  /** Inserts {@code hashes[from, to)}. */
  void insertAll(int[] words, long[] hashes, int from, int to);

  /** {@code out[i - from] = check(hashes[i])} for i in {@code [from, to)}. */
  void checkAll(int[] words, long[] hashes, int from, int to, boolean[] out);

  /** True as soon as one of {@code hashes[from, to)} may be in the filter. */
  boolean checkAny(int[] words, long[] hashes, int from, int to);

  /**
   * {@code out[e]} = whether block {@code e} of {@code blocks} holds every bit {@code hash} sets in
   * a block, for e in {@code [0, words.length / 8)}: the block index is not computed, as each block
   * is the one {@code hash} picks in a filter of its own (a row of a block-major digest).
   */
  void checkEveryBlock(int[] blocks, long hash, boolean[] out);
}
