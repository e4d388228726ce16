package io.bloomparquet.sql

import io.bloomparquet.compat.CatalystPlans
import io.bloomparquet.pruning.CatalystPredicates
import org.apache.spark.sql.catalyst.expressions.{Expression, PredicateHelper, SubqueryExpression}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/**
 * Whether bloomparquet's V2 scan could prune a plain Parquet relation at all: a conjunct of the
 * filter right above it that converts to a bloom predicate, a predicate subquery (a key set), or
 * a join anywhere in the plan (a join side can receive a runtime filter). Where none of these
 * holds, the V2 scan can only cost: Spark's rules that know V1 relations alone stop applying
 * (q9 of TPC-DS: `MergeScalarSubqueries` merges 15 scans of `store_sales` into 5 on V1, none on V2).
 * Pure.
 */
object PruningChance extends PredicateHelper {

  def inPlan(plan: LogicalPlan): Boolean = CatalystPlans.hasJoin(plan)

  def inFilter(condition: Expression): Boolean =
    SubqueryExpression.hasSubquery(condition) ||
      splitConjunctivePredicates(condition).exists(c => CatalystPredicates.convert(c).isDefined)
}
