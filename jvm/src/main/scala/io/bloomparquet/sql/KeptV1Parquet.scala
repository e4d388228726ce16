package io.bloomparquet.sql

import io.bloomparquet.compat.CatalystPlans
import io.bloomparquet.compat.CatalystPlans.V1FileRelation
import io.bloomparquet.options.OptionRegistry.SqlParquet
import io.bloomparquet.spark.BloomParquetFileFormat
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.rules.Rule

/**
 * Opted-in plain Parquet relations that [[V2ScanRoute]] left on V1 because nothing could prune
 * them ([[PruningChance]]) stay on Spark's V1 file scan, so Spark's V1-only rules (merging scalar
 * subqueries, exchange reuse, statistics) apply as without bloomparquet, but read through
 * [[BloomParquetFileFormat]]: Spark's pushdown gets what `bloom.sparkPushdown` allows and
 * parquet-java no column indexes, as in every scan of the opt-in. Runs once, right after
 * [[V2ScanRoute]] (both pre-CBO rules, registered in that order).
 */
final case class KeptV1Parquet(spark: SparkSession) extends Rule[LogicalPlan] {

  override def apply(plan: LogicalPlan): LogicalPlan =
    if (!SqlParquet.from(spark.conf.getOption)) plan
    else plan.transformUp {
      case plain @ V1FileRelation(rel) if V2ScanRoute.convertible(rel, bloom = false, parquet = true) =>
        CatalystPlans.withFileFormat(plain, new BloomParquetFileFormat, rel.options + KeptV1Parquet.Marker).getOrElse(plain)
    }
}

object KeptV1Parquet {
  /**
   * Spark's `ParquetFileFormat` equals any subclass, so a relation that only changed its format
   * equals the old one and tree transforms keep the old; this option (outside the `bloom.`
   * namespace, so no reader reads it) tells them apart.
   */
  val Marker: (String, String) = "bloomparquet.keptOnV1" -> "true"
}
