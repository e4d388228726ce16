package io.bloomparquet.bench;

import io.bloomparquet.kernel.SbbfKernel;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A bloom digest's point probe, past the read: one hash against the blocks of {@code entries}
 * row groups. {@code blockMajorRow}: the digest's layout, those blocks one contiguous row checked
 * with one mask ({@code SbbfKernel.checkEveryBlock}); {@code separateFilters}: the same blocks as
 * filters of their own (64 blocks each), each probed on its own, as per-file probing does once the
 * filters are in memory. Time per probe of the whole row.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-Xms2g", "-Xmx2g"})
public class DigestRowBench {

  private static final int BLOCKS = 64;
  private static final int PROBES = 1024;

  @Param({"scalar", "vector"})
  public String impl;

  @Param({"1000", "100000"})
  public int entries;

  private SbbfKernel kernel;
  private int[] row;
  private int[][] filters;
  private long[] hashes;
  private boolean[] out;
  private int next;

  @Setup
  public void setup() {
    kernel = Workload.kernel(impl);
    SplittableRandom random = new SplittableRandom(42);
    filters = new int[entries][];
    row = new int[entries * 8];
    for (int e = 0; e < entries; e++) {
      filters[e] = new int[BLOCKS * 8];
      for (int i = 0; i < 40; i++) {
        kernel.insert(filters[e], random.nextLong());
      }
    }
    hashes = new long[PROBES];
    for (int i = 0; i < PROBES; i++) {
      hashes[i] = random.nextLong();
    }
    // The row of block 0: the probes' hashes are spread over blocks; the work per entry is the same for any row.
    for (int e = 0; e < entries; e++) {
      System.arraycopy(filters[e], 0, row, e * 8, 8);
    }
    out = new boolean[entries];
  }

  @Benchmark
  public boolean[] blockMajorRow() {
    kernel.checkEveryBlock(row, hashes[next++ & (PROBES - 1)], out);
    return out;
  }

  @Benchmark
  public boolean[] separateFilters() {
    long h = hashes[next++ & (PROBES - 1)];
    for (int e = 0; e < entries; e++) {
      out[e] = kernel.check(filters[e], h);
    }
    return out;
  }
}
