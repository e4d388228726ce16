package io.bloomparquet.kernel;

import java.lang.management.ManagementFactory;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Chooses the kernel once per JVM, after Lucene's VectorizationProvider: the
 * Vector API kernel when {@code jdk.incubator.vector} is readable, C2 is on,
 * 256-bit int vectors are native and a self-test agrees with the scalar
 * kernel; the scalar kernel otherwise. {@code -Dbloomparquet.kernel=scalar}
 * forces the scalar kernel.
 *
 * <p>Java 8 source and bytecode (the Spark 3.5 jar runs on JDK 8): the vector
 * kernel, the one class that needs JDK 17, is only ever loaded by name here; in
 * the Java 8 jar it sits in the multi-release section {@code META-INF/versions/17}.
 */
public final class SbbfKernels {

  /** System property: "scalar" forces the scalar kernel; "auto" (default) picks. */
  public static final String KERNEL_PROPERTY = "bloomparquet.kernel";

  private static final Logger LOG = Logger.getLogger(SbbfKernels.class.getName());

  private static final class Holder {
    static final SbbfKernel KERNEL;
    static final String REASON;

    static {
      String[] reason = new String[1];
      KERNEL = choose(reason);
      REASON = reason[0];
      LOG.log(Level.FINE, "bloomparquet SBBF kernel: {0} ({1})", new Object[] {KERNEL.name(), REASON});
    }
  }

  private SbbfKernels() {}

  /** The kernel this JVM uses. */
  public static SbbfKernel get() {
    return Holder.KERNEL;
  }

  /** Why {@link #get()} is the kernel it is, for logs and the demo. */
  public static String reason() {
    return Holder.REASON;
  }

  /** The portable kernel, always available. */
  public static SbbfKernel scalar() {
    return ScalarSbbfKernel.INSTANCE;
  }

  private static SbbfKernel choose(String[] reason) {
    String wanted = System.getProperty(KERNEL_PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
    if (wanted.equals("scalar")) {
      reason[0] = "-D" + KERNEL_PROPERTY + "=scalar";
      return scalar();
    }
    if (!wanted.equals("auto") && !wanted.equals("vector")) {
      LOG.log(Level.WARNING, "ignoring -D{0}={1}: expected auto, vector or scalar", new Object[] {KERNEL_PROPERTY, wanted});
    }
    String refusal = vectorRefusal();
    if (refusal != null) {
      reason[0] = refusal;
      return scalar();
    }
    try {
      SbbfKernel vector = newVectorKernel();
      String mismatch = selfTest(vector);
      if (mismatch != null) {
        reason[0] = "vector kernel failed its self-test: " + mismatch;
        return scalar();
      }
      reason[0] = "jdk.incubator.vector with native 256-bit int lanes";
      warmUpInBackground(vector);
      return vector;
    } catch (RuntimeException | LinkageError e) {
      reason[0] = "vector kernel unavailable: " + e;
      return scalar();
    }
  }

  /** Null when the Vector API can run compiled here, else why not. */
  private static String vectorRefusal() {
    if (!vectorModuleReadable()) {
      return "module jdk.incubator.vector not loaded (add --add-modules=jdk.incubator.vector; JDK 17+)";
    }
    List<String> args;
    try {
      args = ManagementFactory.getRuntimeMXBean().getInputArguments();
    } catch (RuntimeException | LinkageError e) {
      args = Collections.emptyList();
    }
    for (String a : args) {
      // Without C2 every vector op runs in the Vector API's Java fallback.
      if (a.equals("-Xint") || a.startsWith("-XX:TieredStopAtLevel=") && !a.endsWith("=4")
          || a.equals("-XX:-UseCompiler")) {
        return "JIT limited by " + a + ": the Vector API would be interpreted";
      }
    }
    return null;
  }

  /** Is the Vector API's module in the boot layer (never on JDK 8, which has no modules)? */
  private static boolean vectorModuleReadable() {
    try {
      Class.forName("jdk.incubator.vector.IntVector", false, SbbfKernels.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private static SbbfKernel newVectorKernel() {
    try {
      Class<?> c = Class.forName("io.bloomparquet.kernel.VectorSbbfKernel");
      return (SbbfKernel) c.getDeclaredConstructor().newInstance();
    } catch (java.lang.reflect.InvocationTargetException e) {
      Throwable cause = e.getCause();
      throw new UnsupportedOperationException(String.valueOf(cause.getMessage()), cause);
    } catch (ReflectiveOperationException e) {
      throw new UnsupportedOperationException(e.toString(), e);
    }
  }

  /**
   * Until C2 has compiled them, Vector API calls run in the API's Java fallback at
   * ~3 us a probe (20,000 probes: 64 ms cold, 0.02 ms compiled), and a driver's
   * planning rarely probes enough to get there on its own. A daemon thread runs
   * the kernel's loops once, off the query's path: ~0.3 s of one core per JVM.
   */
  private static void warmUpInBackground(SbbfKernel kernel) {
    Thread t = new Thread(() -> exercise(kernel, 200), "bloomparquet-kernel-warmup");
    t.setDaemon(true);
    t.setPriority(Thread.MIN_PRIORITY);
    t.start();
  }

  /** Runs every batch loop of {@code kernel} {@code rounds} times on a 32 KiB filter. */
  static void exercise(SbbfKernel kernel, int rounds) {
    SplittableRandom random = new SplittableRandom(0x3a7);
    int[] words = new int[8 * 1024];
    long[] hashes = new long[4096];
    for (int i = 0; i < hashes.length; i++) {
      hashes[i] = random.nextLong();
    }
    boolean[] out = new boolean[hashes.length];
    for (int round = 0; round < rounds; round++) {
      kernel.insertAll(words, hashes, 0, 1024);
      kernel.checkAll(words, hashes, 0, hashes.length, out);
      kernel.checkAny(words, hashes, 1024, hashes.length);
      kernel.insert(words, hashes[round]);
      kernel.check(words, hashes[hashes.length - 1 - round]);
    }
  }

  /** Inserts and checks the same random hashes with both kernels; null when they agree. */
  static String selfTest(SbbfKernel candidate) {
    SplittableRandom random = new SplittableRandom(0x5bbf);
    int[] expected = new int[8 * 37];
    int[] actual = new int[8 * 37];
    long[] hashes = new long[512];
    for (int i = 0; i < hashes.length; i++) {
      hashes[i] = random.nextLong();
    }
    scalar().insertAll(expected, hashes, 0, 256);
    candidate.insertAll(actual, hashes, 0, 256);
    if (!java.util.Arrays.equals(expected, actual)) {
      return "insert differs";
    }
    boolean[] want = new boolean[hashes.length];
    boolean[] got = new boolean[hashes.length];
    scalar().checkAll(expected, hashes, 0, hashes.length, want);
    candidate.checkAll(actual, hashes, 0, hashes.length, got);
    return java.util.Arrays.equals(want, got) ? null : "check differs";
  }
}
