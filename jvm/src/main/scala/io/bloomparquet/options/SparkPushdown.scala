package io.bloomparquet.options

/**
 * Which data filters reach Spark's own Parquet pushdown (parquet-java's
 * statistics, dictionary, bloom and page-index filters inside each task).
 * Our own pruning sees every filter regardless.
 *
 *  - `safe` (default): only what is on a positive list (see
 *    `spark.SparkPushdownFilter`): null tests, =, <=>, IN and comparisons with
 *    literals, and And/Or/Not of those, on boolean, integral, date and decimal
 *    columns whose path holds no dotted name. Withheld, each a wrong result
 *    found by differential tests or argued from Spark's code: float/double
 *    (parquet-java compares bits: `x = 0.0` skips row groups holding only -0.0);
 *    timestamps (for files storing milliseconds Spark floors the literal:
 *    `ts < '00:00:00.0005'` skips a row group holding 0 ms);
 *    strings (Spark passes the literal as a Java `String`, so stored bytes that are
 *    not UTF-8 no longer match and their row groups are dropped); columns named with
 *    a dot, or whose dotted path is also another column's (top-level `a.b` next to
 *    struct `a` with field `b`); anything else not listed (binary, functions).
 *  - `all`: everything Spark would push (`spark.sql.parquet.filterPushdown` still applies),
 *    with the risks above.
 *  - `none`: nothing; Spark's reader decodes every row of the row groups we keep.
 */
sealed abstract class SparkPushdown(val name: String)

object SparkPushdown {
  case object Safe extends SparkPushdown("safe")
  case object All extends SparkPushdown("all")
  case object Off extends SparkPushdown("none")
  val all: Seq[SparkPushdown] = Seq(Safe, All, Off)
}
