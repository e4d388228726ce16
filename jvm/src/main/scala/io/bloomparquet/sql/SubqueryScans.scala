package io.bloomparquet.sql

import io.bloomparquet.compat.CatalystPlans.{V2Relation, isSubqueryRoot}
import io.bloomparquet.spark.{BloomParquetTable, PlanNotes}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.rules.Rule

/**
 * Bounds the plans runtime filters make: a bloomparquet scan in a subquery's own plan (an IN,
 * EXISTS or scalar subquery, optimized on its own before it joins the query) declares no
 * runtime-filter columns. Spark's dynamic pruning would otherwise plan a pruning subquery inside
 * it, and the query copies the subquery's plan, nested filters included, into every pruning
 * subquery built on it: TPC-DS q14a grew to 273 pruning filters and 4.6x the nodes of Spark's
 * plan. The query's own scans keep theirs (the subquery's keys can still prune them), so at most
 * one level of pruning subqueries is planned over a subquery. A pre-CBO rule: it runs before the
 * scans are built, in every subquery's optimization; it only notes the relation ([[PlanNotes]]).
 */
object SubqueryScans extends Rule[LogicalPlan] {

  override def apply(plan: LogicalPlan): LogicalPlan =
    if (!isSubqueryRoot(plan)) plan
    else plan.transformUp {
      case r @ V2Relation(_: BloomParquetTable, _) =>
        PlanNotes.inSubquery(r).getOrElse(r)
    }
}
