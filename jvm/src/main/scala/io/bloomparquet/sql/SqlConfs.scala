package io.bloomparquet.sql

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.OptionSpec
import org.apache.spark.sql.SparkSession

/** The extension's session confs, read (and validated by the registry) each time a query is optimized. */
object SqlConfs {
  def value[T](spark: SparkSession, spec: OptionSpec[T]): T =
    SparkCompat.sqlConf(spark).getConfString(spec.key, null) match {
      case null => spec.default.get
      case text => spec.parse(spec.key, text)
    }
}
