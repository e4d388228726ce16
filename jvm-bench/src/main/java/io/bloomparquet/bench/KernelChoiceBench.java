package io.bloomparquet.bench;

import io.bloomparquet.kernel.SbbfKernel;
import io.bloomparquet.kernel.SbbfKernels;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * What {@code SbbfKernels.get()} picks with and without
 * {@code jdk.incubator.vector}, and what the pick costs: a batched probe of a
 * 1 MiB filter through {@code get()}. {@code jvmArgs} replaces the JVM flags a
 * fork would otherwise inherit, so the "without" fork really lacks the module.
 * The choice is printed as a "kernel choice:" line in the run's log.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class KernelChoiceBench {

  private SbbfKernel kernel;
  private int[] words;
  private long[] probes;
  private final boolean[] out = new boolean[Workload.BATCH];
  private int next;

  @Setup
  public void setup(BenchmarkParams params) {
    kernel = SbbfKernels.get();
    System.out.println("kernel choice: " + params.getBenchmark() + " -> " + kernel.name()
        + " (" + SbbfKernels.reason() + ")");
    words = Workload.filledWords(1 << 20, 1, null);
    probes = Workload.randomHashes(1 << 16, 2);
  }

  private boolean[] probe() {
    int from = next;
    next = (from + Workload.BATCH) & ((1 << 16) - 1);
    kernel.checkAll(words, probes, from, from + Workload.BATCH, out);
    return out;
  }

  @Benchmark
  @Fork(value = 1, jvmArgs = {"--add-modules=jdk.incubator.vector", "-Xmx1g"})
  @OperationsPerInvocation(Workload.BATCH)
  public boolean[] withVectorModule() {
    return probe();
  }

  @Benchmark
  @Fork(value = 1, jvmArgs = {"-Xmx1g"})
  @OperationsPerInvocation(Workload.BATCH)
  public boolean[] withoutVectorModule() {
    return probe();
  }
}
