package io.bloomparquet.sql

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.pruning.KeySetPayoff
import io.bloomparquet.spark.BloomParquetTable
import org.apache.spark.sql.catalyst.expressions.{Attribute, Expression}
import org.apache.spark.sql.catalyst.plans.logical.statsEstimation.EstimationUtils
import org.apache.spark.sql.catalyst.plans.logical.{Aggregate, Deduplicate, Distinct, Filter, GlobalLimit, LocalLimit, LocalRelation, LogicalPlan, Project, Repartition, RepartitionByExpression, Sample, Sort, SubqueryAlias, Union}

/**
 * The size of a key side whose rows sit in the driver, which Spark's statistics leave
 * unknown: a DataFrame PySpark made from a list or from pandas is an RDD relation with
 * Spark's default (huge) size, though its data is a few serialized batches the driver
 * holds. Measured on those batches, without running a job; None when any leaf is not
 * driver-held, or an operator may multiply rows (a join, a generator).
 */
object KeySetSize {

  /**
   * Is `plan` cheap to read once more, beside its join: held in the driver and at most `maxBytes`,
   * or read from Spark's cache (a filled cache is sized; re-reading it runs no source again).
   */
  def rereadCheaply(plan: LogicalPlan, maxBytes: Long): Boolean =
    atMost(plan, maxBytes) || (plan.stats.sizeInBytes <= BigInt(maxBytes) && plan.collectLeaves().forall(SparkCompat.isCached))

  /**
   * How many keys `plan` gives in its column `key`, as estimated before it runs: Spark's
   * statistics (the key's distinct count, the row count, else the size over a row's bytes), the
   * size measured where its rows sit in the driver. None where Spark's size is its "unknown"
   * because a leaf's is (an RDD a job builds): nothing is known of the count.
   */
  def estimatedKeys(plan: LogicalPlan, key: Option[Expression]): Option[Double] = {
    val stats = plan.stats
    val distinct = key.collect { case a: Attribute => a }.flatMap(stats.attributeStats.get).flatMap(_.distinctCount)
    val held = driverBytes(plan, Long.MaxValue / 2).map(BigInt(_))
    val size = held.fold(stats.sizeInBytes)(_.min(stats.sizeInBytes))
    // Unknown only where a leaf has no size of its own (an RDD a job builds); a join's product of
    // sizes past Spark's default is an estimate, and a large one.
    val default = BigInt(SparkCompat.activeSqlConf.defaultSizeInBytes)
    val unknown = distinct.isEmpty && stats.rowCount.isEmpty && held.isEmpty && size >= default &&
      plan.collectLeaves().exists(_.stats.sizeInBytes >= default)
    if (unknown) None
    else Some(KeySetPayoff.keysEstimate(distinct, stats.rowCount, size, EstimationUtils.getSizePerRow(plan.output).toLong))
  }

  /**
   * The key count a runtime filter's payoff is judged with: the estimate, or one key where nothing
   * estimates it (the payoff only falls as keys grow: if one key cannot pay, no count can).
   */
  def judgedKeys(plan: LogicalPlan, key: Option[Expression]): Double = estimatedKeys(plan, key).getOrElse(1.0)

  /** For [[PruningChance.JoinKeys.mayPrune]]: may keys (their plan, their column) give `table`'s column a runtime filter that pays? */
  def payingOn(table: BloomParquetTable): (Attribute, LogicalPlan, Expression) => Boolean =
    (column, keys, key) => table.runtimeFilterMayPay(column.name, judgedKeys(keys, Some(key)))

  /** Is `plan` driver-held and at most `maxBytes`? */
  def atMost(plan: LogicalPlan, maxBytes: Long): Boolean = driverBytes(plan, maxBytes).exists(_ <= maxBytes)

  /** The driver-held bytes under `plan`, counted up to just past `limit`. */
  def driverBytes(plan: LogicalPlan, limit: Long): Option[Long] = plan match {
    case l: LocalRelation => Some(l.stats.sizeInBytes.min(BigInt(Long.MaxValue)).toLong)
    case leaf if leaf.children.isEmpty => SparkCompat.driverHeldBytes(leaf, limit)
    case _: Project | _: Filter | _: Aggregate | _: Distinct | _: Deduplicate | _: Sort | _: GlobalLimit | _: LocalLimit |
        _: SubqueryAlias | _: Repartition | _: RepartitionByExpression | _: Sample | _: Union =>
      plan.children.foldLeft(Option(0L)) { (sum, child) =>
        sum.flatMap(s => if (s > limit) Some(s) else driverBytes(child, limit - s).map(s + _))
      }
    case _ => None
  }
}
