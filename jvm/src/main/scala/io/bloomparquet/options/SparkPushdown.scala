package io.bloomparquet.options

/**
 * Which data filters reach Spark's own Parquet pushdown (parquet-java's
 * statistics, dictionary, bloom and page-index filters inside each task), (each filter judged by
 * `pruning.PushdownSafety`). Our own pruning sees every filter regardless;
 * a withheld filter is still evaluated by Spark after the scan.
 *
 *  - `safe` (default): a positive list: null tests, =, <=>, IN, comparisons and string
 *    prefix/suffix/contains tests of a column with literals, and And/Or/Not of those, where
 *    parquet-java judges that literal on that column's type as Spark does
 *    (`pruning.PushdownSafety.safeValue`) and the column's path holds no dotted name nor is also
 *    another column's (top-level `a.b` next to struct `a` with field `b`,
 *    `PushdownSafety.ambiguousPaths`). Each thing withheld is a wrong result found by
 *    differential tests or argued from Spark's code.
 *  - `all`: everything Spark would push (`spark.sql.parquet.filterPushdown` still applies),
 *    with the risks withheld by `safe`.
 *  - `none`: nothing; Spark's reader decodes every row of the row groups we keep.
 */
sealed abstract class SparkPushdown(val name: String) extends Serializable {

  /** Whether a filter is kept from Spark, given whether the one judge (`pruning.PushdownSafety`) finds it safe. */
  def withholds(judgedSafe: => Boolean): Boolean
}

object SparkPushdown {
  case object Safe extends SparkPushdown("safe") { def withholds(judgedSafe: => Boolean): Boolean = !judgedSafe }
  case object All extends SparkPushdown("all") { def withholds(judgedSafe: => Boolean): Boolean = false }
  case object Off extends SparkPushdown("none") { def withholds(judgedSafe: => Boolean): Boolean = true }

  val all: Seq[SparkPushdown] = Seq(Safe, All, Off)
}
