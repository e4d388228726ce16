package io.bloomparquet.bench;

import io.bloomparquet.kernel.SbbfKernel;
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter;

/**
 * One implementation under test behind a common face, so a benchmark method
 * measures the same loop for ours and parquet-java's. parquet-java has no
 * batch API: its "batch" is a loop over findHash / insertHash, which is what
 * its callers do.
 */
abstract class Impl {

  abstract boolean check(long hash);

  abstract void checkAll(long[] hashes, int from, int to, boolean[] out);

  abstract void insert(long hash);

  abstract void insertAll(long[] hashes, int from, int to);

  static Impl of(String name, int[] words) {
    if (name.equals("parquet-java")) {
      return new ParquetJava(new BlockSplitBloomFilter(Workload.toBytes(words)));
    }
    return new Ours(Workload.kernel(name), words);
  }

  static final class Ours extends Impl {
    private final SbbfKernel kernel;
    private final int[] words;

    Ours(SbbfKernel kernel, int[] words) {
      this.kernel = kernel;
      this.words = words;
    }

    @Override
    boolean check(long hash) {
      return kernel.check(words, hash);
    }

    @Override
    void checkAll(long[] hashes, int from, int to, boolean[] out) {
      kernel.checkAll(words, hashes, from, to, out);
    }

    @Override
    void insert(long hash) {
      kernel.insert(words, hash);
    }

    @Override
    void insertAll(long[] hashes, int from, int to) {
      kernel.insertAll(words, hashes, from, to);
    }
  }

  static final class ParquetJava extends Impl {
    private final BlockSplitBloomFilter filter;

    ParquetJava(BlockSplitBloomFilter filter) {
      this.filter = filter;
    }

    @Override
    boolean check(long hash) {
      return filter.findHash(hash);
    }

    @Override
    void checkAll(long[] hashes, int from, int to, boolean[] out) {
      for (int i = from; i < to; i++) {
        out[i - from] = filter.findHash(hashes[i]);
      }
    }

    @Override
    void insert(long hash) {
      filter.insertHash(hash);
    }

    @Override
    void insertAll(long[] hashes, int from, int to) {
      for (int i = from; i < to; i++) {
        filter.insertHash(hashes[i]);
      }
    }
  }
}
