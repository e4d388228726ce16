package io.bloomparquet.spark

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.{SessionReadConf, UnknownSettings}
import org.apache.spark.sql.SparkSession

/** A session's conf as reads need it ([[io.bloomparquet.options.ReadSettings]]), read through the compat seam. */
object SessionReadConfs {
  def of(spark: SparkSession): SessionReadConf = {
    UnknownSettings.warnOnce(spark.conf.getAll.keys)
    read(spark)
  }

  private def read(spark: SparkSession): SessionReadConf = SessionReadConf(
    caseSensitive = SparkCompat.caseSensitive(spark),
    openCostInBytes = SparkCompat.sqlConf(spark).filesOpenCostInBytes,
    inFilterThreshold = SparkCompat.sqlConf(spark).parquetFilterPushDownInFilterThreshold,
    fieldIdRead = SparkCompat.fieldIdReadEnabled(spark),
    set = key => spark.conf.getOption(key))
}
