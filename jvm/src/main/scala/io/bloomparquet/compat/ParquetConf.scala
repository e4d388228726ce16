package io.bloomparquet.compat

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.internal.SQLConf

/** Reading parquet-java's `parquet.*` settings from a Hadoop configuration, as `ParquetOutputFormat` does. */
object ParquetConf {

  /** The job setting from which Spark's file commit protocol instantiates the output committer (a Parquet write names its own). */
  val OutputCommitterClassKey: String = SQLConf.OUTPUT_COMMITTER_CLASS.key

  /** `key#column -> value` entries of `conf`, as (column, value). */
  def perColumn(conf: Configuration, key: String): Seq[(String, String)] =
    conf.iterator().asScala.collect {
      case e if e.getKey.startsWith(key + "#") && e.getKey.length > key.length + 1 =>
        (e.getKey.substring(key.length + 1), e.getValue.trim)
    }.toSeq
}
