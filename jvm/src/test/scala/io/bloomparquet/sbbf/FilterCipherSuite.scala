package io.bloomparquet.sbbf

import java.io.ByteArrayOutputStream

import io.bloomparquet.kernel.SbbfKernels
import org.apache.parquet.crypto.ModuleCipherFactory.ModuleType
import org.apache.parquet.crypto.{AesCipher, AesMode, ModuleCipherFactory}
import org.apache.parquet.format.{BloomFilterAlgorithm, BloomFilterCompression, BloomFilterHash, BloomFilterHeader, SplitBlockAlgorithm, Uncompressed, Util, XxHash}

/** Filters sealed by parquet-java's own AES-GCM module encryptor, opened by [[FilterCipher]]. */
class FilterCipherSuite extends munit.FunSuite {
  private val key = "0123456789abcdef".getBytes("US-ASCII")
  private val fileAad = Array.tabulate[Byte](8)(_.toByte)
  private def aad(module: ModuleType, rg: Int, col: Int) = AesCipher.createModuleAAD(fileAad, module, rg, col, -1)
  private def cipher(rg: Int, col: Int) = FilterCipher(ModuleCipherFactory.getDecryptor(AesMode.GCM, key),
    aad(ModuleType.BloomFilterHeader, rg, col), aad(ModuleType.BloomFilterBitset, rg, col))

  private val sample: SplitBlockBloomFilter = {
    val f = SplitBlockBloomFilter(96)
    Array(1L, 2L, 3L, 0x7fffffffffffL).foreach(f.insertHash)
    f
  }

  /** Header and bitset modules as parquet-java's writer seals them for row group 3, column 1. */
  private def sealedFilter(headerNumBytes: Int = 96): Array[Byte] = {
    val encryptor = ModuleCipherFactory.getEncryptor(AesMode.GCM, key)
    val header = new ByteArrayOutputStream()
    Util.writeBloomFilterHeader(new BloomFilterHeader(headerNumBytes, BloomFilterAlgorithm.BLOCK(new SplitBlockAlgorithm()),
        BloomFilterHash.XXHASH(new XxHash()), BloomFilterCompression.UNCOMPRESSED(new Uncompressed())), header)
    encryptor.encrypt(header.toByteArray, aad(ModuleType.BloomFilterHeader, 3, 1)) ++
      encryptor.encrypt(sample.toBytes, aad(ModuleType.BloomFilterBitset, 3, 1))
  }

  private def parse(bytes: Array[Byte], offset: Int, length: Int, c: FilterCipher) =
    FilterCipher.parse(bytes, offset, length, c, SbbfKernels.get())

  private def assertLeft(result: Either[String, SplitBlockBloomFilter], why: String): Unit = result match {
    case Left(reason) => assert(reason.contains(why), s"'$reason' should mention '$why'")
    case Right(f) => fail(s"decrypted $f")
  }

  test("decrypts header and bitset with their AADs, at an offset in a larger buffer") {
    val data = sealedFilter()
    val buf = Array.fill[Byte](5)(9) ++ data ++ Array.fill[Byte](7)(9)
    assertEquals(parse(buf, 5, data.length, cipher(3, 1)), Right(sample))
  }

  test("another row group's or column's AADs, a flipped byte, another key: the tag fails") {
    val data = sealedFilter()
    assertLeft(parse(data, 0, data.length, cipher(4, 1)), "header does not decrypt")
    assertLeft(parse(data, 0, data.length, cipher(3, 0)), "header does not decrypt")
    val other = cipher(3, 1).copy(decryptor = ModuleCipherFactory.getDecryptor(AesMode.GCM, "fedcba9876543210".getBytes("US-ASCII")))
    assertLeft(parse(data, 0, data.length, other), "does not decrypt")
    val headerModule = 4 + (data(0) & 0xff)
    for ((at, what) <- Seq(4 + 12 + 1 -> "header", headerModule + 4 + 12 + 5 -> "bitset", data.length - 1 -> "bitset")) {
      val bad = data.clone()
      bad(at) = (bad(at) ^ 1).toByte
      assertLeft(parse(bad, 0, bad.length, cipher(3, 1)), s"$what does not decrypt")
    }
  }

  test("lengths that do not fit: nothing allocated beyond the stated range") {
    val data = sealedFilter()
    assertLeft(parse(data, 0, data.length - 1, cipher(3, 1)), "bitset: module length")
    assertLeft(parse(data, 0, 3, cipher(3, 1)), "no length prefix")
    val huge = data.clone()
    huge(3) = 0x7f // header module claims ~2 GiB
    assertLeft(parse(huge, 0, huge.length, cipher(3, 1)), "header: module length")
    val negative = data.clone()
    negative(3) = 0x80.toByte
    assertLeft(parse(negative, 0, negative.length, cipher(3, 1)), "header: module length")
  }

  test("a header whose numBytes disagrees with the decrypted bitset") {
    val data = sealedFilter(headerNumBytes = 128)
    assertLeft(parse(data, 0, data.length, cipher(3, 1)), "its header says 128")
  }
}
