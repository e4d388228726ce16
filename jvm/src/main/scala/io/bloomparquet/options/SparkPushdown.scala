package io.bloomparquet.options

/**
 * Which data filters reach Spark's own Parquet pushdown (parquet-java's
 * statistics, dictionary, bloom and page-index filters inside each task).
 * Our own pruning sees every filter regardless.
 *
 *  - `safe` (default): all but filters on FLOAT/DOUBLE columns. parquet-java
 *    treats `x = 0.0` as bit equality and skips row groups holding only -0.0,
 *    which Spark counts as equal (wrong results, found by our differential tests).
 *  - `all`: everything Spark would push (`spark.sql.parquet.filterPushdown` still applies).
 *  - `none`: nothing; Spark's reader decodes every row of the row groups we keep.
 */
sealed abstract class SparkPushdown(val name: String)

object SparkPushdown {
  case object Safe extends SparkPushdown("safe")
  case object All extends SparkPushdown("all")
  case object Off extends SparkPushdown("none")
  val all: Seq[SparkPushdown] = Seq(Safe, All, Off)
}
