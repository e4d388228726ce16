package io.bloomparquet.options

import org.apache.hadoop.conf.Configuration
import org.apache.parquet.crypto.DecryptionPropertiesFactory

/**
 * Whether a job uses Parquet modular encryption: the session configures a crypto
 * factory (`parquet.crypto.factory.class`, read and write alike), as for Spark's
 * own Parquet reader and writer.
 */
object ParquetCrypto {
  val FactoryKey: String = DecryptionPropertiesFactory.CRYPTO_FACTORY_CLASS_PROPERTY_NAME

  def configured(conf: Configuration): Boolean = conf.get(FactoryKey) != null
}
