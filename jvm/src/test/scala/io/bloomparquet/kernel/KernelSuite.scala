package io.bloomparquet.kernel

/**
 * A suite run once per kernel: the scalar kernel always, the vector kernel only
 * where this JVM chose it (an aarch64 JVM without 256-bit lanes, a JVM without
 * jdk.incubator.vector or `-Dbloomparquet.kernel=scalar` skip it, saying why).
 */
trait KernelSuite extends munit.FunSuite {
  protected val kernelNames: Seq[String] = Seq("scalar", "vector")

  protected def kernel(name: String): SbbfKernel = name match {
    case "scalar" => SbbfKernels.scalar()
    case "vector" =>
      assume(SbbfKernels.get().name == "vector", s"the vector kernel is not in use: ${SbbfKernels.reason()}")
      SbbfKernels.get()
  }
}
