package io.bloomparquet.delta.impl

import io.bloomparquet.compat.CatalystPlans.{FileRelation, InListSubquery, PrunableJoin, V1FileRelation, isDynamicPruning, isSubqueryRoot}
import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.OptionRegistry.KeySetMaxBytes
import io.bloomparquet.pruning.CatalystPredicates
import io.bloomparquet.sql.KeySetSize
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.{AttributeReference, Expression, PredicateHelper}
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LogicalPlan, Project}

/**
 * Key sets Spark computes while the query runs prune Delta scans too: a join whose other side is
 * not held in the driver (a table, a query: Spark reads it, not the planner) and `k IN (subquery)`
 * give the Delta side Spark's own dynamic pruning filter on `k`, which Spark plans as for its own
 * (reusing the join's broadcast; keys cheap to read again in a subquery of their own; else none).
 * Spark plans such filters on a V1 scan's partition columns only; on a data column the scan reads
 * through an index that prunes again with the keys when it lists its files
 * ([[BloomPrunedDeltaIndex]] `atRuntime`, handed the keys by `sql.PrunedV1Scans`).
 *
 * Bounded as `sql.KeySetPruning` bounds the V2 route's: keys estimated at most
 * `spark.bloomparquet.keySet.maxBytes`, only a data column whose chunks carry filters in the
 * table's first and last file, and only where their estimated count can pay
 * ([[io.bloomparquet.pruning.KeySetPayoff]]), one dynamic filter per scan, none in a subquery's own plan. Keys
 * held in the driver prune while planning instead ([[DeltaBloomPruning]]).
 */
private[impl] final class DeltaKeySetFilters(spark: SparkSession, pruning: DeltaBloomPruning) extends PredicateHelper {

  def apply(plan: LogicalPlan): LogicalPlan = {
    val maxBytes = KeySetMaxBytes.from(spark.conf.getOption)
    if (maxBytes <= 0 || !SparkCompat.sqlConf(spark).dynamicPartitionPruningEnabled || isSubqueryRoot(plan)) plan
    else plan.transformUp {
      case j @ PrunableJoin(sides) =>
        sides.view.flatMap { s =>
          // Keys held in the driver pruned this side while planning already.
          if (KeySetSize.atMost(s.keys, maxBytes)) None
          else s.equalities.view.flatMap { case (key, value) =>
            filtered(s.plan, key, SparkCompat.optimizeSubquery(spark, s.keys), value, maxBytes)
          }.headOption.map(s.in(j, _))
        }.headOption.getOrElse(j)
      case f @ Filter(condition, child) =>
        splitConjunctivePredicates(condition).iterator.map {
          // The subquery's plan is optimized already (OptimizeSubqueries ran before this batch).
          case InListSubquery(key, keys) => filtered(child, key, keys, keys.output.head, maxBytes)
          case _ => None
        }.collectFirst { case Some(c) => f.copy(child = c) }.getOrElse(f)
    }
  }

  /**
   * `side` under a dynamic pruning filter `key IN (keyValue of keys)`, its Delta scan pruning again
   * with the keys: where `side` is projections and filters (none dynamic) over one prepared batch
   * Delta relation, `key` a data column of it with filters, of `keyValue`'s type.
   */
  private def filtered(side: LogicalPlan, key: Expression, keys: LogicalPlan, keyValue: Expression,
      maxBytes: Long): Option[LogicalPlan] = {
    val chain = side.collect { case p => p }
    val simple = chain.forall {
      case Filter(c, _) => !c.exists(isDynamicPruning)
      case p => p.isInstanceOf[Project] || p.children.isEmpty
    }
    (key, chain.collect { case r @ V1FileRelation(rel) => (r, rel) }) match {
      case (k: AttributeReference, Seq((relation, rel)))
          if simple && !rel.streaming && relation.outputSet.contains(k) && k.dataType == keyValue.dataType &&
            CatalystPredicates.supported(k.dataType) && !keys.isStreaming && dataColumn(rel, k) &&
            (keys.stats.sizeInBytes <= BigInt(maxBytes) || KeySetSize.rereadCheaply(keys, maxBytes)) &&
            pruning.hasFilters(rel, k.name) &&
            pruning.keySetMayPay(rel, k.name, KeySetSize.judgedKeys(keys, Some(keyValue))) =>
        pruning.prunedAtRuntime(relation, rel).map { scan =>
          val dynamic = SparkCompat.dynamicPruningSubquery(k, keys, Seq(keyValue),
            onlyInBroadcast = !KeySetSize.rereadCheaply(keys, maxBytes))
          Filter(dynamic, side.transformUp { case r if r eq relation => scan })
        }
      case _ => None
    }
  }

  // Partition columns are Spark's own dynamic pruning's (and never in the files).
  private def dataColumn(rel: FileRelation, key: AttributeReference): Boolean =
    !rel.partitionSchema.fieldNames.exists(_.equalsIgnoreCase(key.name))
}
