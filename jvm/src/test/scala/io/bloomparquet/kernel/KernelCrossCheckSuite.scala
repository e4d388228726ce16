package io.bloomparquet.kernel

import java.io.ByteArrayOutputStream
import java.nio.{ByteBuffer, ByteOrder}
import java.util.SplittableRandom

import io.bloomparquet.sbbf.SplitBlockBloomFilter
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter

/** Each kernel (scalar; vector where in use) == parquet-java's BlockSplitBloomFilter, bit for bit. */
class KernelCrossCheckSuite extends KernelSuite {

  test("this test JVM chose the vector kernel (forked with --add-modules jdk.incubator.vector)") {
    kernel("vector")
    assertEquals(SbbfKernels.reason(), "jdk.incubator.vector with native 256-bit int lanes")
  }

  private def parquetJava(numBytes: Int, hashes: Array[Long]): (Array[Byte], BlockSplitBloomFilter) = {
    val f = new BlockSplitBloomFilter(numBytes, numBytes)
    hashes.foreach(f.insertHash)
    val out = new ByteArrayOutputStream()
    f.writeTo(out)
    (out.toByteArray, f)
  }

  // Sizes from 1 block to several MiB, including block counts that are not powers of two.
  private val sizes = Seq(32, 64, 96, 32 * 37, 4096, 32 * 1001, 1 << 20, 3 * (1 << 20) + 32 * 5, 8 << 20)

  for (name <- kernelNames; numBytes <- sizes) test(s"$name, $numBytes-byte filter: parquet-java's bitset and answers") {
    val k = kernel(name)
    val random = new SplittableRandom(numBytes.toLong)
    val inserted = Array.fill(math.max(1, numBytes / 16))(random.nextLong())
    val probes = inserted.take(1000) ++ Array.fill(20000)(random.nextLong())

    val batch = SplitBlockBloomFilter(numBytes, k)
    k.insertAll(batch.words, inserted, 0, inserted.length)
    val single = SplitBlockBloomFilter(numBytes, k)
    inserted.foreach(single.insertHash)
    val (pjBytes, pj) = parquetJava(numBytes, inserted)
    assert(java.util.Arrays.equals(batch.toBytes, pjBytes), "batch insert vs parquet-java bitsets")
    assert(java.util.Arrays.equals(single.toBytes, pjBytes), "single insert vs parquet-java bitsets")

    val expected = probes.map(pj.findHash)
    assertEquals(batch.checkHashes(probes).toSeq, expected.toSeq)
    assertEquals(probes.map(batch.mightContain).toSeq, expected.toSeq)
    assert(inserted.forall(batch.mightContain), "no false negatives")
    for (i <- 0 until 200) {
      val slice = probes.slice(i * 50, i * 50 + 50)
      assertEquals(batch.mightContainAny(slice), slice.exists(pj.findHash))
    }
  }

  test("a bitset read back from parquet-java bytes answers like parquet-java") {
    val random = new SplittableRandom(7)
    val hashes = Array.fill(5000)(random.nextLong())
    val (bytes, pj) = parquetJava(8192, hashes)
    val ours = SplitBlockBloomFilter.fromBytes(bytes)
    val probes = Array.fill(10000)(random.nextLong())
    assertEquals(ours.checkHashes(probes).toSeq, probes.map(pj.findHash).toSeq)
    val words = new Array[Int](bytes.length / 4)
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(words)
    assertEquals(ours.words.toSeq, words.toSeq)
  }

  test("the self-test accepts the vector kernel") {
    assertEquals(SbbfKernels.selfTest(kernel("vector")), null)
  }
}
