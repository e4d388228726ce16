package io.bloomparquet.spark

import io.bloomparquet.options.SparkPushdown
import io.bloomparquet.pruning.{PushdownSafety, WidenedFilters}
import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.sources.Filter
import org.apache.spark.sql.types.StructType

/**
 * The data filters Spark's own Parquet reader gets in a scan we prune, on every route: those
 * `pushdown` lets through ([[PushdownSafety]]'s verdict), under `safe` a withheld one as
 * [[WidenedFilters]] makes it safe where it can, all as [[PushdownSafety.bothZeros]] writes them.
 * Our pruning sees every filter regardless; Spark evaluates them all after the scan.
 */
object ReaderFilters {

  /** V1 source filters (the V1 format, a table format's): those the reader gets. */
  def of(pushdown: SparkPushdown, filters: Seq[Filter], dataSchema: StructType, caseSensitive: Boolean): Seq[Filter] = {
    val (withheld, given) = filters.partition(f => pushdown.withholds(PushdownSafety.safe(f, dataSchema, caseSensitive)))
    (given ++ widened(pushdown, withheld)(WidenedFilters.of(_, dataSchema, caseSensitive))).map(PushdownSafety.bothZeros)
  }

  /** Catalyst data filters (the V2 scan builder): (those the reader gets, those withheld as they were). */
  def split(pushdown: SparkPushdown, filters: Seq[Expression], dataSchema: StructType): (Seq[Expression], Seq[Expression]) = {
    val (withheld, given) = filters.partition(e => pushdown.withholds(PushdownSafety.safe(e, dataSchema)))
    ((given ++ widened(pushdown, withheld)(WidenedFilters.of(_, dataSchema))).map(PushdownSafety.bothZeros), withheld)
  }

  // Only `safe` withholds by the judge's verdict; `none` withholds everything on purpose.
  private def widened[F](pushdown: SparkPushdown, withheld: Seq[F])(widen: F => Option[F]): Seq[F] =
    if (pushdown == SparkPushdown.Safe) withheld.flatMap(widen(_)) else Nil
}
