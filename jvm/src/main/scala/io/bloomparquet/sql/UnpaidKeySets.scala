package io.bloomparquet.sql

import io.bloomparquet.compat.CatalystPlans.PruningSubquery
import io.bloomparquet.spark.BloomParquetTable
import org.apache.spark.sql.catalyst.expressions.{And, Attribute, Expression, PredicateHelper}
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LogicalPlan, Project}
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation
import org.apache.spark.sql.execution.{SparkPlan, SparkStrategy}

/**
 * Drops, while planning, the dynamic pruning filters on a bloomparquet scan's data columns that
 * cannot pay for their subquery ([[io.bloomparquet.pruning.KeySetPayoff]]: the keys' estimated
 * count against a sample of the scan's filters and statistics). Spark's dynamic pruning plants
 * them on every column the scan declares, whatever the keys, and a filter that prunes nothing
 * still costs a subquery, a scan that waits for it and a larger plan. Filters on partition
 * columns always stay; the scan then reads what Spark's own scan of the files reads.
 *
 * A strategy, so it sees the plan after every optimizer batch (Spark's dynamic pruning runs
 * after the extension's optimizer rules): it plans the projections and filters over the scan
 * again without those filters, and leaves every other plan to Spark's strategies.
 */
object UnpaidKeySets extends SparkStrategy with PredicateHelper {

  override def apply(plan: LogicalPlan): Seq[SparkPlan] = plan match {
    case _: Project | _: Filter => table(plan).fold(Seq.empty[SparkPlan]) { t =>
        val kept = without(plan, t)
        if (kept eq plan) Nil else planLater(kept) :: Nil
      }
    case _ => Nil
  }

  /** The bloomparquet table under a chain of projections and filters. */
  private def table(plan: LogicalPlan): Option[BloomParquetTable] = plan match {
    case Project(_, child) => table(child)
    case Filter(_, child) => table(child)
    case r: DataSourceV2ScanRelation => r.relation.table match {
        case t: BloomParquetTable => Some(t)
        case _ => None
      }
    case _ => None
  }

  private def without(plan: LogicalPlan, t: BloomParquetTable): LogicalPlan = plan match {
    case p @ Project(_, child) =>
      val kept = without(child, t)
      if (kept eq child) p else p.copy(child = kept)
    case f @ Filter(condition, child) =>
      val kept = without(child, t)
      val conjuncts = splitConjunctivePredicates(condition)
      val paying = conjuncts.filterNot(unpaid(_, t))
      if (paying.size < conjuncts.size) paying.reduceOption(And).fold(kept)(Filter(_, kept))
      else if (kept eq child) f
      else f.copy(child = kept)
    case other => other
  }

  private def unpaid(e: Expression, t: BloomParquetTable): Boolean = e match {
    case PruningSubquery(a: Attribute, keys, keyColumns) =>
      val key = if (keyColumns.size == 1) keyColumns.headOption else None
      !t.keySetMayPay(a.name, KeySetSize.judgedKeys(keys, key))
    case _ => false
  }
}
