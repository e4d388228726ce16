package io.bloomparquet.compat

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration

/** Reading parquet-java's `parquet.*` settings from a Hadoop configuration, as `ParquetOutputFormat` does. */
object ParquetConf {

  /** `key#column -> value` entries of `conf`, as (column, value). */
  def perColumn(conf: Configuration, key: String): Seq[(String, String)] =
    conf.iterator().asScala.collect {
      case e if e.getKey.startsWith(key + "#") && e.getKey.length > key.length + 1 =>
        (e.getKey.substring(key.length + 1), e.getValue.trim)
    }.toSeq
}
