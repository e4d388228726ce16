package io.bloomparquet.sbbf

import scala.util.control.NonFatal

import io.bloomparquet.kernel.SbbfKernel
import org.apache.parquet.format.BlockCipher

/**
 * How an encrypted column's bloom filter is decrypted (Parquet modular
 * encryption): its header and its bitset are two AES-GCM modules, each
 * `[4-byte little-endian length][nonce][ciphertext][tag]`, sealed with the
 * column's metadata key and their own AADs (module types BloomFilter Header = 8
 * and Bitset = 9, with the row group and column ordinals). The decryptor is
 * parquet-java's; nothing here implements a cipher.
 */
final case class FilterCipher(decryptor: BlockCipher.Decryptor, headerAad: Array[Byte], bitsetAad: Array[Byte])

object FilterCipher {
  /** Bytes an AES-GCM module adds to its plaintext: length prefix, 12-byte nonce, 16-byte tag. */
  val ModuleOverhead: Int = 4 + 12 + 16

  /**
   * The filter held, encrypted, in `bytes[offset, offset + length)`, or why it is not
   * one (a tag that does not verify: tampered bytes, another key, another chunk's AADs).
   * Allocates no more than `length`.
   */
  def parse(bytes: Array[Byte], offset: Int, length: Int, cipher: FilterCipher,
      kernel: SbbfKernel): Either[String, SplitBlockBloomFilter] = {
    val end = offset + length
    def module(at: Int, what: String, aad: Array[Byte]): Either[String, (Array[Byte], Int)] = {
      if (at + 4 > end) return Left(s"encrypted bloom filter $what: no length prefix within bloom_filter_length")
      val n = (bytes(at) & 0xff) | (bytes(at + 1) & 0xff) << 8 | (bytes(at + 2) & 0xff) << 16 | (bytes(at + 3) & 0xff) << 24
      if (n < ModuleOverhead - 4 || n.toLong > end - at - 4)
        return Left(s"encrypted bloom filter $what: module length $n does not fit in bloom_filter_length")
      try Right((cipher.decryptor.decrypt(java.util.Arrays.copyOfRange(bytes, at, at + 4 + n), aad), at + 4 + n))
      catch { case NonFatal(e) => Left(s"encrypted bloom filter $what does not decrypt: ${e.getMessage}") }
    }
    module(offset, "header", cipher.headerAad).flatMap { case (header, bitsetAt) =>
      BloomFilterReader.parseHeader(header, 0, header.length).flatMap { case (numBytes, _) =>
        module(bitsetAt, "bitset", cipher.bitsetAad).flatMap { case (bitset, _) =>
          if (bitset.length == numBytes) Right(SplitBlockBloomFilter.fromBytes(bitset, 0, numBytes, kernel))
          else Left(s"encrypted bloom filter bitset has ${bitset.length} bytes, its header says $numBytes")
        }
      }
    }
  }
}
