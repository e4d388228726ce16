package io.bloomparquet.bench;

import io.bloomparquet.sbbf.ParquetHash;
import io.bloomparquet.sbbf.SplitBlockBloomFilter;
import io.bloomparquet.write.HashBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter;
import org.apache.parquet.io.api.Binary;
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
 * The write path's real cost: hash a value's PLAIN bytes, insert the hash.
 * Ours (batch: what the writer's {@code ChunkFilter.Collected} does, each hash
 * appended to a {@link HashBuffer}, then its sorted distinct hashes inserted with
 * the kernel's {@code insertAll}, over {@link Workload#BATCH} values;
 * single: ParquetHash + insertHash per value) against parquet-java's
 * {@code hash(long)} / {@code hash(Binary)} (what its column writer calls) and
 * {@code hash(Object)} (the generic entry point), each followed by
 * {@code insertHash}. Every number is per value.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-Xms2g", "-Xmx2g"})
public class HashInsertBench {

  private static final int VALUES = 1 << 18;

  /** Filter bytes: 1 MiB, a row group's worth of distinct values at 1 % FPP. */
  @Param({"1048576"})
  public int size;

  private long[] longs;
  private Object[] boxedLongs;
  private byte[][] strings;
  private Binary[] binaries;
  private SplitBlockBloomFilter ours;
  private BlockSplitBloomFilter parquetJava;
  private int next;

  @Setup
  public void setup() {
    SplittableRandom random = new SplittableRandom(42);
    longs = new long[VALUES];
    boxedLongs = new Object[VALUES];
    strings = new byte[VALUES][];
    binaries = new Binary[VALUES];
    for (int i = 0; i < VALUES; i++) {
      longs[i] = random.nextLong();
      boxedLongs[i] = longs[i];
      // ids, emails, UUIDs: 8 to 40 ASCII bytes
      char[] cs = new char[8 + random.nextInt(33)];
      for (int j = 0; j < cs.length; j++) {
        cs[j] = (char) ('!' + random.nextInt(94));
      }
      strings[i] = new String(cs).getBytes(StandardCharsets.UTF_8);
      binaries[i] = Binary.fromConstantByteArray(strings[i]);
    }
    ours = SplitBlockBloomFilter.apply(size, Workload.kernel("vector"));
    parquetJava = new BlockSplitBloomFilter(size, size);
  }

  private int nextBatch() {
    int from = next;
    next = (from + Workload.BATCH) & (VALUES - 1);
    return from;
  }

  private void insertDistinct(HashBuffer buffer) {
    scala.Tuple2<long[], Object> distinct = buffer.distinct();
    ours.kernel().insertAll(ours.words(), distinct._1(), 0, (Integer) distinct._2());
  }

  @Benchmark
  @OperationsPerInvocation(Workload.BATCH)
  public void int64OursBatch() {
    int from = nextBatch();
    HashBuffer buffer = new HashBuffer(Workload.BATCH);
    for (int i = from; i < from + Workload.BATCH; i++) {
      buffer.add(ParquetHash.int64(longs[i]));
    }
    insertDistinct(buffer);
  }

  @Benchmark
  @OperationsPerInvocation(Workload.BATCH)
  public void int64OursSingle() {
    int from = nextBatch();
    for (int i = from; i < from + Workload.BATCH; i++) {
      ours.insertHash(ParquetHash.int64(longs[i]));
    }
  }

  @Benchmark
  @OperationsPerInvocation(Workload.BATCH)
  public void int64ParquetJava() {
    int from = nextBatch();
    for (int i = from; i < from + Workload.BATCH; i++) {
      parquetJava.insertHash(parquetJava.hash(longs[i]));
    }
  }

  @Benchmark
  @OperationsPerInvocation(Workload.BATCH)
  public void int64ParquetJavaObject() {
    int from = nextBatch();
    for (int i = from; i < from + Workload.BATCH; i++) {
      parquetJava.insertHash(parquetJava.hash(boxedLongs[i]));
    }
  }

  @Benchmark
  @OperationsPerInvocation(Workload.BATCH)
  public void byteArrayOursBatch() {
    int from = nextBatch();
    HashBuffer buffer = new HashBuffer(Workload.BATCH);
    for (int i = from; i < from + Workload.BATCH; i++) {
      buffer.add(ParquetHash.bytes(strings[i]));
    }
    insertDistinct(buffer);
  }

  @Benchmark
  @OperationsPerInvocation(Workload.BATCH)
  public void byteArrayOursSingle() {
    int from = nextBatch();
    for (int i = from; i < from + Workload.BATCH; i++) {
      ours.insertHash(ParquetHash.bytes(strings[i]));
    }
  }

  @Benchmark
  @OperationsPerInvocation(Workload.BATCH)
  public void byteArrayParquetJava() {
    int from = nextBatch();
    for (int i = from; i < from + Workload.BATCH; i++) {
      parquetJava.insertHash(parquetJava.hash(binaries[i]));
    }
  }

  @Benchmark
  @OperationsPerInvocation(Workload.BATCH)
  public void byteArrayParquetJavaObject() {
    int from = nextBatch();
    for (int i = from; i < from + Workload.BATCH; i++) {
      parquetJava.insertHash(parquetJava.hash((Object) binaries[i]));
    }
  }
}
