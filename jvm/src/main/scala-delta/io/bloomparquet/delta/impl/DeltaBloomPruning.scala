package io.bloomparquet.delta.impl

import scala.collection.mutable

import io.bloomparquet.compat.{CatalystPlans, SparkCompat}
import io.bloomparquet.delta.DeltaReads
import io.bloomparquet.compat.CatalystPlans.{FileRelation, V1FileRelation}
import io.bloomparquet.options.ReadSettings
import io.bloomparquet.planning.FileKey
import io.bloomparquet.pruning.{BloomPredicate, CatalystPredicates, RowGroupVerdict}
import io.bloomparquet.spark.{InTaskParquet, PruningSite, SessionReadConfs, SplitPruning}
import io.bloomparquet.spark.metrics.PruningCounts
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.{AttributeSet, Expression, PredicateHelper, SubqueryExpression}
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LogicalPlan}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.delta.NoMapping
import org.apache.spark.sql.delta.files.TahoeLogFileIndex
import org.apache.spark.sql.delta.stats.{PrepareDeltaScan, PreparedDeltaFileIndex}

/**
 * Delta Lake reads with `spark.bloomparquet.delta.enabled`: of the files Delta's partition and
 * statistics skipping kept for a scan (its [[PreparedDeltaFileIndex]]), those whose bloom filters
 * rule out every row group are dropped before any task starts, and the scan reads the rest
 * through a [[BloomPrunedDeltaIndex]]. Only ever a subset of Delta's choice: a file that could
 * not be read, or a predicate on anything but the table's data columns, keeps files.
 *
 * A pre-CBO rule. Delta's `PrepareDeltaScan` (also pre-CBO) must have run: if the session lists
 * Delta's extension after ours, this runs it first (Delta's own run then finds nothing left to
 * prepare). Change data feed, streaming and DML scans read other Delta indexes and are left alone.
 * Files, not row groups: Delta's V1 scan splits files itself, and its reader needs every row
 * group's position for deletion vectors.
 */
final case class DeltaBloomPruning(spark: SparkSession) extends Rule[LogicalPlan] with PredicateHelper {

  override def apply(plan: LogicalPlan): LogicalPlan =
    if (!DeltaReads.enabled(spark)) plan
    else {
      val pruned = mutable.Map.empty[(PreparedDeltaFileIndex, BloomPredicate, Map[String, String]), BloomPrunedDeltaIndex]
      prepared(plan).transformDownWithSubqueries {
        case f @ Filter(_, _) => f match {
            case DeltaScan(conditions, relation, rel, index) =>
              val options = rel.options
              val scan = for {
                predicate <- predicateOf(conditions, rel, index)
                settings = ReadSettings.resolve(bloomOptions(options), SessionReadConfs.of(spark))
                if settings.bloom.enabled
              } yield {
                val cut = pruned.getOrElseUpdate((index, predicate, options), prune(index, predicate, settings, options))
                val pushdown = InTaskParquet.settingsWithoutFilterChoice(settings.bloom.sparkPushdown)
                CatalystPlans.withLocation(relation, cut, pushdown).get
              }
              scan.fold(f: LogicalPlan)(s => f.transformUp { case r if r eq relation => s })
            case _ => f
          }
      }
    }

  /** `plan` after Delta's scan preparation, which runs once per query on its root (as Delta's rule does). */
  private def prepared(plan: LogicalPlan): LogicalPlan = {
    val unprepared = plan.collectWithSubqueries { case V1FileRelation(r) if r.location.isInstanceOf[TahoeLogFileIndex] => r }
    if (unprepared.isEmpty || CatalystPlans.isSubqueryRoot(plan)) plan else new PrepareDeltaScan(spark).apply(plan)
  }

  private def bloomOptions(options: Map[String, String]): Map[String, String] =
    options.filter { case (k, _) => k.toLowerCase(java.util.Locale.ROOT).startsWith("bloom.") }

  /**
   * The bloom predicate of the conjuncts over the table's data columns (deterministic, no
   * subquery), in the files' physical column names.
   */
  private def predicateOf(conditions: Seq[Expression], rel: FileRelation, index: PreparedDeltaFileIndex): Option[BloomPredicate] = {
    val dataColumns = rel.schema.fieldNames.toSet -- rel.partitionSchema.fieldNames
    val data = AttributeSet(rel.output.filter(a => dataColumns.contains(a.name)))
    val usable = conditions.filter(c => c.deterministic && !SubqueryExpression.hasSubquery(c) && c.references.subsetOf(data))
    val columns = new PhysicalColumns(index.metadata.schema, index.metadata.columnMappingMode != NoMapping,
      SparkCompat.caseSensitive(spark))
    CatalystPredicates.fromFilters(usable).flatMap(columns(_))
  }

  private def prune(index: PreparedDeltaFileIndex, predicate: BloomPredicate, settings: ReadSettings,
      options: Map[String, String]): BloomPrunedDeltaIndex = {
    val started = System.nanoTime()
    val files = index.preparedScan.files.distinct
    val keyed = files.map(f => f -> FileKey(index.absolutePath(f.path).toString, f.size, f.modificationTime))
    val (kept, counts) = if (predicate == BloomPredicate.NoMatch) (Seq.empty,
      PruningCounts(filesTotal = files.size,
        filesPruned = files.size))
    else {
      // Delta's files are matched by physical name, never by field id (see PhysicalColumns).
      val outcomes = SplitPruning.outcomesAt(PruningSite.Planning(spark), keyed.map(_._2), predicate,
        SparkCompat.newHadoopConf(spark, options), settings.copy(fieldIdRead = false))
      val kept = keyed.collect {
        case (file, key) if outcomes(key).failure.isDefined || outcomes(key).verdicts.contains(RowGroupVerdict.Keep) => file
      }
      (kept, SplitPruning.countsOf(keyed.map(k => outcomes(k._2)), outcomes.values, 0, started))
    }
    new BloomPrunedDeltaIndex(spark, kept, index.deltaLog, index.path, index.preparedScan.scannedSnapshot, predicate, counts)
  }

  /**
   * Filters (one, or several stacked) right above a batch Delta relation Delta prepared: their
   * conjuncts, the relation (the plan node and its parts) and its index.
   */
  private object DeltaScan {
    def unapply(plan: LogicalPlan): Option[(Seq[Expression], LogicalPlan, FileRelation, PreparedDeltaFileIndex)] =
      plan match {
        case Filter(condition, child) =>
          val below = child match {
            case r @ V1FileRelation(rel) if !rel.streaming =>
              rel.location match {
                case index: PreparedDeltaFileIndex => Some((Seq.empty[Expression], r: LogicalPlan, rel, index))
                case _ => None
              }
            case DeltaScan(more, r, rel, index) => Some((more, r, rel, index))
            case _ => None
          }
          below.map { case (more, r, rel, index) => (splitConjunctivePredicates(condition) ++ more, r, rel, index) }
        case _ => None
      }
  }
}
