package io.bloomparquet.bench;

import io.bloomparquet.kernel.SbbfKernel;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the memory system allows, for the probe numbers to be read against:
 * one int loaded from the block each hash selects (the same addresses a probe
 * touches, no bloom logic). {@code independent}: loads that do not depend on
 * each other, the best any batched probe can do. {@code dependent}: each
 * address depends on the previous load, i.e. the full miss latency.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class MemoryBoundBench {

  @Param({"32768", "1048576", "16777216", "134217728"})
  public int size;

  private int[] words;
  private long[] hashes;
  private int next;

  @Setup
  public void setup() {
    words = new int[size / 4];
    java.util.SplittableRandom random = new java.util.SplittableRandom(3);
    for (int i = 0; i < words.length; i++) {
      words[i] = random.nextInt();
    }
    hashes = Workload.randomHashes(Workload.PROBES, size);
  }

  private int nextBatch() {
    int from = next;
    next = (from + Workload.BATCH) & (Workload.PROBES - 1);
    return from;
  }

  @Benchmark
  @OperationsPerInvocation(Workload.BATCH)
  public int independent() {
    int from = nextBatch();
    int n = words.length >>> 3;
    int sum = 0;
    for (int i = from; i < from + Workload.BATCH; i++) {
      sum += words[SbbfKernel.blockIndex(hashes[i], n) << 3];
    }
    return sum;
  }

  @Benchmark
  @OperationsPerInvocation(Workload.BATCH)
  public int dependent() {
    int from = nextBatch();
    int n = words.length >>> 3;
    int w = 0;
    for (int i = from; i < from + Workload.BATCH; i++) {
      w = words[SbbfKernel.blockIndex(hashes[i] ^ (w & 1), n) << 3];
    }
    return w;
  }
}
