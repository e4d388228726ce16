package io.bloomparquet.spark

import io.bloomparquet.options.SparkPushdown
import io.bloomparquet.pruning.PushdownSafety
import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.sources.Filter
import org.apache.spark.sql.types.StructType

/**
 * The data filters Spark's own Parquet reader gets in a scan we prune, on every route: those
 * `pushdown` lets through ([[PushdownSafety]]'s verdict), as [[PushdownSafety.bothZeros]] writes
 * them. Our pruning sees every filter regardless; Spark evaluates them all after the scan.
 */
object ReaderFilters {

  /** V1 source filters (the V1 format, a table format's): those the reader gets. */
  def of(pushdown: SparkPushdown, filters: Seq[Filter], dataSchema: StructType, caseSensitive: Boolean): Seq[Filter] =
    filters.filterNot(f => pushdown.withholds(PushdownSafety.safe(f, dataSchema, caseSensitive)))
      .map(PushdownSafety.bothZeros)

  /** Catalyst data filters (the V2 scan builder): (those the reader gets, those withheld). */
  def split(pushdown: SparkPushdown, filters: Seq[Expression], dataSchema: StructType): (Seq[Expression], Seq[Expression]) = {
    val (withheld, given) = filters.partition(e => pushdown.withholds(PushdownSafety.safe(e, dataSchema)))
    (given.map(PushdownSafety.bothZeros), withheld)
  }
}
