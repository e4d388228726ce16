package io.bloomparquet.planning

import io.bloomparquet.options.ParquetCrypto
import io.bloomparquet.sbbf.FilterCipher
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.crypto.ModuleCipherFactory.ModuleType
import org.apache.parquet.crypto.AesCipher
import org.apache.parquet.hadoop.metadata.FileMetaData.EncryptionType
import org.apache.parquet.hadoop.metadata.{ColumnChunkMetaData, ParquetMetadata}
import org.apache.parquet.{HadoopReadOptions, ParquetReadOptions}

/**
 * Parquet modular encryption while planning: the keys come from the session's
 * crypto factory (`parquet.crypto.factory.class` and its KMS settings, as for
 * Spark's own reader), parquet-java decrypts the footer and sets up each
 * column's decryptor, and the filters of encrypted columns are decrypted with
 * their AADs ([[FilterCipher]]).
 */
object FileDecryption {
  /** Footer read options: `plain` unless the session configures a crypto factory, then ones that carry its keys. */
  def readOptions(conf: Configuration, path: Path, plain: => ParquetReadOptions): ParquetReadOptions =
    if (!ParquetCrypto.configured(conf)) plain else HadoopReadOptions.builder(conf, path).build()

  /** Whether the file uses modular encryption (then its footer and filters are kept out of the shared cache). */
  def isEncrypted(footer: ParquetMetadata): Boolean =
    footer.getFileMetaData.getEncryptionType != EncryptionType.UNENCRYPTED

  /**
   * Why this file's filters can't be read, if they can't: a plaintext footer read
   * without keys (its encrypted columns' metadata and filters are sealed).
   */
  def unreadable(footer: ParquetMetadata): Option[String] = {
    val meta = footer.getFileMetaData
    if (meta.getEncryptionType == EncryptionType.PLAINTEXT_FOOTER && meta.getFileDecryptor == null)
      Some("encrypted columns (plaintext footer) and no decryption keys configured")
    else None
  }

  /**
   * The cipher of `chunk`'s filter when its column is encrypted, None when the
   * filter is stored in plaintext. Read `chunk`'s metadata first: parquet-java sets
   * up a column's decryptor when its metadata is first decrypted.
   */
  def filterCipher(footer: ParquetMetadata, chunk: ColumnChunkMetaData): Option[FilterCipher] = {
    val decryptor = footer.getFileMetaData.getFileDecryptor
    if (decryptor == null || decryptor.plaintextFile) return None
    val setup = decryptor.getColumnSetup(chunk.getPath)
    if (!setup.isEncrypted) return None
    def aad(module: ModuleType) =
      AesCipher.createModuleAAD(decryptor.getFileAAD, module, chunk.getRowGroupOrdinal, setup.getOrdinal, -1)
    Some(FilterCipher(setup.getMetaDataDecryptor, aad(ModuleType.BloomFilterHeader), aad(ModuleType.BloomFilterBitset)))
  }
}
