// Prints the SBBF kernel this JVM chose and why (tests/test_jar_bytecode.py runs it as a
// single-file source program, with a built bloomparquet jar on the class path).
public class KernelChoice {
  public static void main(String[] args) {
    System.out.println(io.bloomparquet.kernel.SbbfKernels.get().name());
    System.out.println(io.bloomparquet.kernel.SbbfKernels.reason());
  }
}
