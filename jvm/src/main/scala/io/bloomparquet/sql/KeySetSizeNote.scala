package io.bloomparquet.sql

import io.bloomparquet.compat.CatalystPlans.{InListSubquery, PrunableJoin, PrunableSide, isDynamicPruning}
import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.OptionRegistry.KeySetMaxBytes
import io.bloomparquet.spark.PlanNotes
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.PredicateHelper
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LogicalPlan, Project}
import org.apache.spark.sql.catalyst.rules.Rule

/**
 * Says on the bloomparquet scan why a key-set lookup was not pruned when the reason is the
 * key side's size: Spark cannot size it (an RDD built by a job, a Python UDF's output), it is
 * not data the driver holds (`KeySetSize`), and it is not hinted. The scan shows the note
 * under `KeySetLookup` in `explain()` with what to do. Runs after [[KeySetPruning]]; it
 * only notes the relation ([[PlanNotes]]).
 */
final case class KeySetSizeNote(spark: SparkSession) extends Rule[LogicalPlan]
    with PredicateHelper {

  private lazy val lookups = KeySetPruning(spark)

  override def apply(plan: LogicalPlan): LogicalPlan = {
    val maxBytes = KeySetMaxBytes.from(spark.conf.getOption)
    if (maxBytes <= 0 || !SparkCompat.sqlConf(spark).dynamicPartitionPruningEnabled) plan
    else plan.transformUp {
      case j @ PrunableJoin(sides) if !j.children.exists(filtered) =>
        // The sides KeySetPruning may prune: where a hint would give the filter.
        def noted(s: PrunableSide): LogicalPlan =
          if (s.keysHinted || !unsized(s.keys, maxBytes) || !s.equalities.exists(e => lookups.scanColumn(e._1, s.plan))) s.plan
          else mark(s.plan)
        sides.foldLeft(j: LogicalPlan)((join, s) => s.in(join, noted(s)))
      case f @ Filter(condition, child) if !filtered(child) =>
        splitConjunctivePredicates(condition).collectFirst {
          case InListSubquery(key, keys) if unsized(keys, maxBytes) && lookups.scanColumn(key, child) => f.copy(child = mark(child))
        }.getOrElse(f)
    }
  }

  private def filtered(plan: LogicalPlan): Boolean = plan match {
    case Filter(condition, _) => isDynamicPruning(condition)
    case _ => false
  }

  // Spark's default size is its "unknown"; driver-held data is measured instead.
  // (A likely selective filter on the keys: Spark's own dynamic pruning takes the lookup.)
  private def unsized(keys: LogicalPlan, maxBytes: Long): Boolean = !keys.isStreaming &&
    !keys.exists { case Filter(c, _) => isLikelySelective(c); case _ => false } &&
    keys.stats.sizeInBytes >= BigInt(SparkCompat.sqlConf(spark).defaultSizeInBytes) && KeySetSize.driverBytes(keys, maxBytes).isEmpty

  /** The bloomparquet relation under projections and filters (where `scanColumn` found the key), noted. */
  private def mark(plan: LogicalPlan): LogicalPlan = plan match {
    case p @ Project(_, child) => p.copy(child = mark(child))
    case f @ Filter(_, child) => f.copy(child = mark(child))
    case other => PlanNotes.keySetNote(other, KeySetSizeNote.Text).getOrElse(other)
  }
}

object KeySetSizeNote {
  // Under Spark's metadata cut (`spark.sql.maxMetadataStringLength`, 100): shown whole.
  val Text = "not pruned: key side of unknown size; hint broadcast(keys), cache+count it, or write it to Parquet"
}
