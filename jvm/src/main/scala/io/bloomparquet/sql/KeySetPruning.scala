package io.bloomparquet.sql

import io.bloomparquet.compat.CatalystPlans.{InListSubquery, PrunableJoin, V2Relation, isDynamicPruning, isSubqueryRoot}
import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.OptionRegistry.KeySetMaxBytes
import io.bloomparquet.spark.BloomParquetTable
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, AttributeReference, Expression, NamedExpression, PredicateHelper}
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LogicalPlan, Project}
import org.apache.spark.sql.catalyst.rules.Rule

/**
 * Key-set lookups: `fact.join(keys, "k")` (inner, left semi, and the outer joins on their
 * prunable side) and `WHERE k IN (SELECT id FROM keys)` give the bloomparquet scan of `fact`
 * a runtime filter with the keys when `keys` is at most `spark.bloomparquet.keySet.maxBytes`
 * (estimated) — where Spark's own dynamic pruning plans nothing because `keys` has no
 * selective predicate (it plans those itself; this rule then stays out of its way).
 *
 * It is a pre-CBO rule: operator optimization is done, V2 scans are not built yet, and
 * `IN (subquery)` is not yet a join. The filter is Spark's own `DynamicPruningSubquery`, so
 * Spark plans it (reusing the join's broadcast, else an aggregate over the keys) and hands
 * the scan `k IN (keys)` through `SupportsRuntimeV2Filtering`. Spark's dynamic pruning skips a
 * join whose side is already such a filter. The key must be a column of the scan itself (a
 * cast means the types differ: no filter), and the scan converts only literals of the
 * column's exact type, so keys are probed correctly or not at all.
 *
 * What a filter costs is bounded: only columns a filter can prune get one (partition columns,
 * columns with bloom filters in the files: [[io.bloomparquet.spark.RuntimeFilterColumns]]), a
 * scan that already carries a dynamic pruning filter gets none, and a subquery's own plan
 * (the keys of a pruning filter among them) is left alone, so filters never nest.
 */
final case class KeySetPruning(spark: SparkSession) extends Rule[LogicalPlan] with PredicateHelper {

  override def apply(plan: LogicalPlan): LogicalPlan = {
    val maxBytes = KeySetMaxBytes.from(spark.conf.getOption)
    if (maxBytes <= 0 || !SparkCompat.sqlConf(spark).dynamicPartitionPruningEnabled) plan
    // A subquery's own plan (an IN or scalar subquery, a pruning filter's keys being optimized):
    // filters planted there would nest a subquery in a subquery, and plans grow with every level.
    else if (isSubqueryRoot(plan)) plan
    else rewrite(plan, maxBytes)
  }

  private def rewrite(plan: LogicalPlan, maxBytes: Long): LogicalPlan = plan.transformUp {
    case j @ PrunableJoin(sides) if !j.children.exists(pruned) =>
      sides.view.flatMap(s =>
        s.equalities.collectFirst {
          case (key, value) if worth(key, s.plan, s.keys, Some(value), maxBytes, s.keysHinted) =>
            s.in(j, withKeys(key, s.plan, s.keys, value, maxBytes))
        }).headOption.getOrElse(j)
    case f @ Filter(condition, child) if !pruned(child) =>
      splitConjunctivePredicates(condition).collectFirst {
        case InListSubquery(key, keys) if worth(key, child, keys, keys.output.headOption, maxBytes, hinted = false) =>
          // The subquery's plan is optimized already (OptimizeSubqueries ran before this batch).
          f.copy(child = Filter(dynamicFilter(key, keys, keys.output.head, maxBytes), child))
      }.getOrElse(f)
  }

  /** Does `plan` (a join side) already hold a dynamic pruning filter above its scan? One per scan at most. */
  private def pruned(plan: LogicalPlan): Boolean = plan match {
    case Filter(condition, child) => hasDynamicPruning(condition) || pruned(child)
    case Project(_, child) => pruned(child)
    case _ => false
  }

  private def hasDynamicPruning(condition: Expression): Boolean = condition.exists(isDynamicPruning)

  /**
   * A filter is worth it when `key` is a column of a bloomparquet scan under `pruned`, the
   * keys come from a batch plan small enough to broadcast (estimated at most `maxBytes`, measured
   * so when its rows sit in the driver (`KeySetSize`), or hinted), Spark's own dynamic
   * pruning would not plan one (it does when the other side has a likely selective predicate),
   * and the keys' estimated count leaves the files' filters a chance to prune (`KeySetPayoff`).
   */
  private def worth(key: Expression, pruned: LogicalPlan, keys: LogicalPlan, keyColumn: Option[Expression],
      maxBytes: Long, hinted: Boolean): Boolean =
    !keys.isStreaming &&
      (hinted || keys.stats.sizeInBytes <= BigInt(maxBytes) || KeySetSize.atMost(keys, maxBytes)) &&
      !keys.exists { case Filter(c, _) => isLikelySelective(c); case _ => false } &&
      tableColumn(key, pruned).exists { case (t, name) => t.runtimeFilterMayPay(name, KeySetSize.judgedKeys(keys, keyColumn)) }

  /** Does `key` trace, through projections and filters, to a column of a bloomparquet V2 relation that a filter can prune? */
  private[sql] def scanColumn(key: Expression, plan: LogicalPlan): Boolean = tableColumn(key, plan).exists {
    // Only where a filter can prune: partition columns, columns with bloom filters in the files.
    case (t, name) => t.isRuntimeFilterColumn(name)
  }

  /** The bloomparquet table and its column that `key` traces to, through projections and filters. */
  private def tableColumn(key: Expression, plan: LogicalPlan): Option[(BloomParquetTable, String)] = (key, plan) match {
    case (a: Attribute, Project(list, child)) =>
      list.collectFirst {
        case n: NamedExpression if n.exprId == a.exprId => n
      }.flatMap {
        case Alias(inner: Attribute, _) => tableColumn(inner, child)
        case inner: Attribute => tableColumn(inner, child)
        case _ => None
      }
    case (a: Attribute, Filter(condition, child)) if !hasDynamicPruning(condition) => tableColumn(a, child)
    case (a: AttributeReference, V2Relation(t: BloomParquetTable, output)) if output.exists(_.exprId == a.exprId) =>
      Some((t, a.name))
    case _ => None
  }

  private def withKeys(key: Expression, pruned: LogicalPlan, keys: LogicalPlan, keyColumn: Expression,
      maxBytes: Long): LogicalPlan =
    Filter(dynamicFilter(key, SparkCompat.optimizeSubquery(spark, keys), keyColumn, maxBytes), pruned)

  /**
   * Keys whose rows sit in the driver (a Python list, pandas: [[KeySetSize]]) or in Spark's cache
   * are cheap to read again, and Spark may broadcast no such side (it can't size a driver-held
   * one): their filter runs them as a subquery of its own. Any other key side only as a reuse of the join's broadcast: without one,
   * Spark would run it once more (TPC-DS q14a: minutes), for a filter that may prune nothing.
   */
  private def dynamicFilter(key: Expression, keys: LogicalPlan, keyColumn: Expression, maxBytes: Long): Expression =
    SparkCompat.dynamicPruningSubquery(key, keys, Seq(keyColumn), onlyInBroadcast = !KeySetSize.rereadCheaply(keys, maxBytes))
}
