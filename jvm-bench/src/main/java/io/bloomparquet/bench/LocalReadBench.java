package io.bloomparquet.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What a planning read costs on Hadoop's local file system, the figures of the read cost model's
 * local default ({@code ReadCost.forScheme}): a seek and read of {@code size} bytes at a random
 * offset of an open 8 MiB file written with its checksums (as Spark writes), from the page cache;
 * and a file's open with one small read. Latency is the 32-byte read; bandwidth the slope to 1 MiB.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class LocalReadBench {

  private static final int FileBytes = 8 << 20;

  @Param({"32", "4096", "40960", "1048576"})
  public int size;

  private FileSystem fs;
  private Path path;
  private java.nio.file.Path dir;
  private FSDataInputStream in;
  private byte[] buf;
  private final SplittableRandom random = new SplittableRandom(7);

  @Setup
  public void setup() throws IOException {
    dir = Files.createTempDirectory("local-read-bench");
    fs = FileSystem.getLocal(new Configuration());
    path = new Path(dir.resolve("f.bin").toUri());
    byte[] bytes = new byte[FileBytes];
    random.nextBytes(bytes);
    try (FSDataOutputStream out = fs.create(path)) {
      out.write(bytes);
    }
    in = fs.open(path, 4096);
    buf = new byte[size];
  }

  @TearDown
  public void tearDown() throws IOException {
    in.close();
    fs.delete(new Path(dir.toUri()), true);
  }

  private long offset() {
    return random.nextLong(FileBytes - size);
  }

  @Benchmark
  public byte seekAndRead() throws IOException {
    in.seek(offset());
    in.readFully(buf);
    return buf[0];
  }

  @Benchmark
  public byte openAndRead() throws IOException {
    try (FSDataInputStream file = fs.open(path, 4096)) {
      file.seek(offset());
      file.readFully(buf);
      return buf[0];
    }
  }
}
