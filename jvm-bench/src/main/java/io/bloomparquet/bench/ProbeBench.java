package io.bloomparquet.bench;

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
 * Probe (check) cost per hash, one at a time and in batches of
 * {@link Workload#BATCH}, over filters filled to design load (1 % FPP).
 * {@code hitRate} 1 probes inserted hashes (every word is read), 0 probes
 * random ones (about 99 % absent: the pruning case).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-Xms2g", "-Xmx2g"})
public class ProbeBench {

  @Param({"32768", "1048576", "16777216", "134217728"})
  public int size;

  /** scalar-v0: the scalar kernel before grouping, to show what grouping buys. */
  @Param({"vector", "scalar", "scalar-v0", "parquet-java"})
  public String impl;

  @Param({"0", "1"})
  public int hitRate;

  private Impl filter;
  private long[] probes;
  private final boolean[] out = new boolean[Workload.BATCH];
  private int next;

  @Setup
  public void setup() {
    long[] members = new long[Workload.PROBES];
    int[] words = Workload.filledWords(size, size, members);
    probes = hitRate == 1 ? members : Workload.randomHashes(Workload.PROBES, ~size);
    filter = Impl.of(impl, words);
  }

  @Benchmark
  public boolean single() {
    int i = next;
    next = (i + 1) & (Workload.PROBES - 1);
    return filter.check(probes[i]);
  }

  @Benchmark
  @OperationsPerInvocation(Workload.BATCH)
  public boolean[] batch() {
    int from = next;
    next = (from + Workload.BATCH) & (Workload.PROBES - 1);
    filter.checkAll(probes, from, from + Workload.BATCH, out);
    return out;
  }
}
