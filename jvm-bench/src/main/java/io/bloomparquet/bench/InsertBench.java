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

/** Insert cost per precomputed hash, one at a time and in batches of {@link Workload#BATCH}. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-Xms2g", "-Xmx2g"})
public class InsertBench {

  @Param({"32768", "1048576", "16777216", "134217728"})
  public int size;

  @Param({"vector", "scalar", "parquet-java"})
  public String impl;

  private Impl filter;
  private long[] hashes;
  private int next;

  @Setup
  public void setup() {
    // Start from an empty filter, as a writer does; the cost does not depend on fill.
    filter = Impl.of(impl, new int[size / 4]);
    hashes = Workload.randomHashes(Workload.PROBES, size);
  }

  @Benchmark
  public void single() {
    int i = next;
    next = (i + 1) & (Workload.PROBES - 1);
    filter.insert(hashes[i]);
  }

  @Benchmark
  @OperationsPerInvocation(Workload.BATCH)
  public void batch() {
    int from = next;
    next = (from + Workload.BATCH) & (Workload.PROBES - 1);
    filter.insertAll(hashes, from, from + Workload.BATCH);
  }
}
