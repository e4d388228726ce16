package io.bloomparquet.spark

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.{SessionReadConf, UnknownSettings}
import org.apache.spark.sql.SparkSession

/** A session's conf as reads need it ([[io.bloomparquet.options.ReadSettings]]), read through the compat seam. */
object SessionReadConfs {
  def of(spark: SparkSession): SessionReadConf = {
    // Our settings as one snapshot: a scan resolves every read option against the session, and each
    // lookup of Spark's conf by key substitutes variables (a plan of many relations asks thousands).
    val ours = spark.conf.getAll.filter { case (key, _) =>
      key.regionMatches(true, 0, UnknownSettings.Namespace, 0, UnknownSettings.Namespace.length)
    }
    UnknownSettings.warnOnce(ours.keys)
    SessionReadConf(
      caseSensitive = SparkCompat.caseSensitive(spark),
      openCostInBytes = SparkCompat.sqlConf(spark).filesOpenCostInBytes,
      inFilterThreshold = SparkCompat.sqlConf(spark).parquetFilterPushDownInFilterThreshold,
      fieldIdRead = SparkCompat.fieldIdReadEnabled(spark),
      set = key => if (key.startsWith(UnknownSettings.Namespace)) ours.get(key) else spark.conf.getOption(key))
  }
}
