package io.bloomparquet.testing

import java.nio.charset.StandardCharsets.UTF_8
import java.util.Base64

import org.apache.hadoop.conf.Configuration
import org.apache.parquet.crypto.KeyAccessDeniedException
import org.apache.parquet.crypto.keytools.{KeyToolkit, KmsClient}

/**
 * A KMS holding its master keys in memory, from `parquet.encryption.key.list`
 * (`id: base64 key, ...`), for tests of `PropertiesDrivenCryptoFactory`.
 * parquet-java ships one (`keytools.mocks.InMemoryKMS`) only in its test jar,
 * which is not on Spark's classpath. Wraps with parquet-java's own AES-GCM
 * (`KeyToolkit.encryptKeyLocally`), the master key's id as AAD.
 */
final class InMemoryKms extends KmsClient {
  private var masterKeys: Map[String, Array[Byte]] = Map.empty

  override def initialize(conf: Configuration, kmsInstanceId: String, kmsInstanceUrl: String,
      accessToken: String): Unit = {
    val list = Option(conf.getTrimmedStrings(InMemoryKms.KeyList)).getOrElse(Array.empty[String])
    masterKeys = list.iterator.filter(_.nonEmpty).map { entry =>
      val colon = entry.indexOf(':')
      require(colon > 0, s"${InMemoryKms.KeyList}: '$entry' is not 'id: base64 key'")
      entry.substring(0, colon).trim -> Base64.getDecoder.decode(entry.substring(colon + 1).trim)
    }.toMap
  }

  private def master(id: String): Array[Byte] =
    masterKeys.getOrElse(id, throw new KeyAccessDeniedException(s"no master key '$id' in ${InMemoryKms.KeyList}"))

  override def wrapKey(keyBytes: Array[Byte], masterKeyIdentifier: String): String =
    KeyToolkit.encryptKeyLocally(keyBytes, master(masterKeyIdentifier), masterKeyIdentifier.getBytes(UTF_8))

  override def unwrapKey(wrappedKey: String, masterKeyIdentifier: String): Array[Byte] =
    KeyToolkit.decryptKeyLocally(wrappedKey, master(masterKeyIdentifier), masterKeyIdentifier.getBytes(UTF_8))
}

object InMemoryKms {
  val KeyList = "parquet.encryption.key.list"
}
