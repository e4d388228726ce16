package io.bloomparquet.delta.impl

import scala.collection.mutable

import io.bloomparquet.compat.{CatalystPlans, SparkCompat}
import io.bloomparquet.delta.{DeltaReads, PhysicalColumns}
import io.bloomparquet.options.OptionRegistry.KeySetMaxBytes
import io.bloomparquet.compat.CatalystPlans.{FileRelation, PrunableJoin, PrunableSide, V1FileRelation}
import io.bloomparquet.options.ReadSettings
import io.bloomparquet.planning.{BloomColumns, FileKey, KeptRowGroups, KeySetSample}
import io.bloomparquet.pruning.{BloomPredicate, CatalystPredicates, KeySetPayoff}
import io.bloomparquet.schema.FileColumn
import io.bloomparquet.spark.{InTaskParquet, PruningSite, SessionReadConfs, SplitPruning}
import io.bloomparquet.spark.metrics.PruningCounts
import io.bloomparquet.sql.KeySetSize
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.FileStatus
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.{Alias, AttributeReference, AttributeSet, Expression, InSet, PredicateHelper, SubqueryExpression}
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LogicalPlan, Project}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.delta.{IdMapping, NoMapping}
import org.apache.spark.sql.delta.actions.AddFile
import org.apache.spark.sql.delta.files.{TahoeFileIndex, TahoeLogFileIndex}
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
 * Row groups too: the physical plan's scan of a file some of whose row groups were pruned reads
 * only the others (`sql.PrunedV1Scans`), where Delta lets Spark split its files (its reader
 * then takes row indexes for deletion vectors from the footer, as for any split).
 */
final case class DeltaBloomPruning(spark: SparkSession) extends Rule[LogicalPlan] with PredicateHelper {

  // One pruning per scan and predicate in a plan (a CTE read twice, a self-join): equal indexes.
  private type Memo = mutable.Map[(PreparedDeltaFileIndex, BloomPredicate, Map[String, String]), BloomPrunedDeltaIndex]

  override def apply(plan: LogicalPlan): LogicalPlan =
    if (!DeltaReads.enabled(spark)) plan
    else {
      val pruned: Memo = mutable.Map.empty
      // Down from the root: a join sees its sides' filters before the filters are pruned on their own.
      val planned = prepared(plan).transformDownWithSubqueries {
        case j @ PrunableJoin(sides) =>
          sides.view.flatMap(s => keySetPruned(s, pruned).map(s.in(j, _))).headOption.getOrElse(j)
        case f @ Filter(_, _) => f match {
            case DeltaScan(conditions, relation, rel, index) =>
              pruneScan(conditions, relation, rel, index, pruned).fold(f: LogicalPlan)(s => replace(f, relation, s))
            case _ => f
          }
      }
      new DeltaKeySetFilters(spark, this)(planned)
    }

  private def replace(plan: LogicalPlan, relation: LogicalPlan, by: LogicalPlan): LogicalPlan =
    plan.transformUp { case r if r eq relation => by }

  /**
   * The scan of `relation` pruned with `conditions`, as a relation reading through a
   * [[BloomPrunedDeltaIndex]]; None when no usable predicate or bloom pruning is off.
   */
  private def pruneScan(conditions: Seq[Expression], relation: LogicalPlan, rel: FileRelation,
      index: PreparedDeltaFileIndex,
      pruned: Memo): Option[LogicalPlan] = for {
    predicate <- predicateOf(conditions, rel, index)
    settings = ReadSettings.resolve(rel.options, SessionReadConfs.of(spark))
    if settings.bloom.enabled
  } yield {
    val cut = pruned.getOrElseUpdate((index, predicate, rel.options), prune(index, conditions, rel, predicate, settings))
    withIndex(relation, cut, settings)
  }

  private def withIndex(relation: LogicalPlan, index: BloomPrunedDeltaIndex, settings: ReadSettings): LogicalPlan =
    CatalystPlans.withLocation(relation, index, InTaskParquet.settingsOfOtherFormats(settings.bloom.sparkPushdown)).get

  /**
   * The scan of `relation` (a prepared Delta relation, pruned while planning or not), pruning again
   * when it lists its files with the key sets Spark computed by then; None when bloom pruning is off.
   */
  private[impl] def prunedAtRuntime(relation: LogicalPlan, rel: FileRelation): Option[LogicalPlan] = {
    val settings = ReadSettings.resolve(rel.options, SessionReadConfs.of(spark))
    if (!settings.bloom.enabled) None
    else rel.location match {
      case index: PreparedDeltaFileIndex =>
        val files = index.preparedScan.files.distinct
        val all = new BloomPrunedDeltaIndex(spark, files, index.deltaLog, index.path, index.preparedScan.scannedSnapshot,
          BloomPredicate.AllOf(Nil), PruningCounts(filesTotal = files.size), Map.empty, settings.gapBytes,
          settings.bloom.sparkPushdown, narrowing(index, Nil, rel, settings))
        Some(withIndex(relation, all.atRuntime, settings))
      case index: BloomPrunedDeltaIndex if !index.prunesAtRuntime => Some(withIndex(relation, index.atRuntime, settings))
      case _ => None
    }
  }

  /**
   * The index of the files that `conditions` and the key sets given later keep: of `index`'s files,
   * or of those planning kept (`among`, with planning's counts of the files it dropped).
   */
  private def narrowing(index: PreparedDeltaFileIndex, conditions: Seq[Expression], rel: FileRelation,
      settings: ReadSettings, among: Option[Planned] = None): Seq[Expression] => Option[BloomPrunedDeltaIndex] =
    keySets => {
      val all = conditions ++ keySets
      predicateOf(all, rel, index).map(prune(index, all, rel, _, settings, among))
    }

  /** `side` pruned by the first of `condition`'s equalities between a column of it and `other`'s keys that can. */
  private def keySetPruned(side: PrunableSide, pruned: Memo): Option[LogicalPlan] =
    side.equalities.view.flatMap {
      case (key: AttributeReference, value) => withKeySet(side.plan, key, side.keys, value, pruned)
      case _ => None
    }.headOption

  /**
   * A join side whose Delta scan keeps only files that may hold one of the keys on the other side:
   * `side` is projections and filters over one prepared Delta relation holding column `key`, and
   * `keys` (the other side) is held in the driver and at most `spark.bloomparquet.keySet.maxBytes`
   * (a Python list, a pandas frame, a local relation: [[KeySetSize]]). Its key column is read now,
   * while planning; the join still reads it as before. Rows can't change: a row whose key is not
   * among the keys joins with nothing on this side's pruned side of an inner, semi or outer join.
   */
  private def withKeySet(side: LogicalPlan, key: AttributeReference, keys: LogicalPlan, keyValue: Expression,
      pruned: Memo)
      : Option[LogicalPlan] = {
    val maxBytes = KeySetMaxBytes.from(spark.conf.getOption)
    val chain = side.collect { case p => p }
    val relations = chain.collect { case r @ V1FileRelation(rel) => (r, rel) }
    val onlyProjectsAndFilters = chain.forall(p => p.isInstanceOf[Project] || p.isInstanceOf[Filter] || p.children.isEmpty)
    relations match {
      case Seq((relation, rel))
          if onlyProjectsAndFilters && !rel.streaming && relation.outputSet.contains(key) &&
            key.dataType == keyValue.dataType && CatalystPredicates.supported(key.dataType) && maxBytes > 0 &&
            !keys.isStreaming && KeySetSize.atMost(keys, maxBytes) =>
        rel.location match {
          case index: PreparedDeltaFileIndex =>
            val values = SparkCompat.collectRows(spark, Project(Seq(Alias(keyValue, "key")()), keys))
              .map(_.get(0, key.dataType)).filter(_ != null).distinct
            val conditions = chain.collect { case Filter(c, _) => splitConjunctivePredicates(c) }.flatten
            pruneScan(conditions :+ InSet(key, values.toSet), relation, rel, index, pruned).map(replace(side, relation, _))
          case _ => None
        }
      case _ => None
    }
  }

  /** `plan` after Delta's scan preparation, which runs once per query on its root (as Delta's rule does). */
  private def prepared(plan: LogicalPlan): LogicalPlan = {
    val unprepared = plan.collectWithSubqueries { case V1FileRelation(r) if r.location.isInstanceOf[TahoeLogFileIndex] => r }
    if (unprepared.isEmpty || CatalystPlans.isSubqueryRoot(plan)) plan else new PrepareDeltaScan(spark).apply(plan)
  }

  /**
   * The bloom predicate of the conjuncts over the table's data columns (deterministic, no
   * subquery), in the files' physical column names.
   */
  private def predicateOf(conditions: Seq[Expression], rel: FileRelation, index: TahoeFileIndex): Option[BloomPredicate] = {
    val dataColumns = rel.schema.fieldNames.toSet -- rel.partitionSchema.fieldNames
    val data = AttributeSet(rel.output.filter(a => dataColumns.contains(a.name)))
    val usable = conditions.filter(c => c.deterministic && !SubqueryExpression.hasSubquery(c) && c.references.subsetOf(data))
    CatalystPredicates.fromFilters(usable).flatMap(physicalColumns(index)(_))
  }

  private def physicalColumns(index: TahoeFileIndex): PhysicalColumns = {
    val mode = index.metadata.columnMappingMode
    new PhysicalColumns(index.metadata.schema, mode != NoMapping, mode == IdMapping, SparkCompat.caseSensitive(spark))
  }

  /** Do the chunks of data column `column` carry bloom filters in the first and last of the relation's files? */
  private[impl] def hasFilters(rel: FileRelation, column: String): Boolean =
    sampled(rel, column).exists { case (files, physical, conf, useCache) =>
      files.exists(f => BloomColumns.of(FileKey(f.getPath.toString, f.getLen, f.getModificationTime), conf, useCache).contains(physical))
    }

  /**
   * May a key-set filter of about `keys` values on data column `column` pay for its subquery
   * ([[io.bloomparquet.pruning.KeySetPayoff]], on row groups of the relation's first and last file)?
   */
  private[impl] def keySetMayPay(rel: FileRelation, column: String, keys: Double): Boolean =
    sampled(rel, column).forall { case (files, physical, conf, useCache) =>
      KeySetSample.of(files, FileColumn.topLevel(physical), caseSensitive = true, conf, useCache).forall(KeySetPayoff.mayPay(_, keys))
    }

  /** The relation's first and last file, `column`'s physical top-level name, the Hadoop conf and the cache setting. */
  private def sampled(rel: FileRelation, column: String): Option[(Seq[FileStatus], String, Configuration, Boolean)] = {
    val (index, files) = rel.location match {
      case i: PreparedDeltaFileIndex => (i, i.preparedScan.files)
      case i: BloomPrunedDeltaIndex => (i, i.addFiles)
      case _ => return None
    }
    val settings = ReadSettings.resolve(rel.options, SessionReadConfs.of(spark))
    val conf = SparkCompat.newHadoopConf(spark, rel.options)
    physicalColumns(index).leaf(Seq(column)).map { case (physical, _) =>
      val statuses = (files.take(1) ++ files.takeRight(1)).map(f =>
        new FileStatus(f.size, false, 0, 0L, f.modificationTime, index.absolutePath(f.path)))
      (statuses, physical.head, conf, settings.bloom.useCache)
    }
  }

  /**
   * `index`'s files (or, at runtime, those planning kept: `among`) that `predicate` keeps. Pruning
   * again reads only the kept files' footers and filters; a file planning dropped stays dropped.
   */
  private def prune(index: PreparedDeltaFileIndex, conditions: Seq[Expression], rel: FileRelation, predicate: BloomPredicate,
      settings: ReadSettings, among: Option[Planned] = None): BloomPrunedDeltaIndex = {
    val started = System.nanoTime()
    val Planned(files, before) = among.getOrElse(Planned(index.preparedScan.files.distinct, PruningCounts()))
    val keyed = files.map(f => f -> FileKey(index.absolutePath(f.path).toString, f.size, f.modificationTime))
    val (kept, counts, dropped, rowGroups) = if (predicate == BloomPredicate.NoMatch) {
      val all = PruningCounts(filesTotal = files.size, filesPruned = files.size)
      (Seq.empty, all, all, Map.empty[String, KeptRowGroups])
    } else {
      // Delta's files are matched by physical name, never by field id (see PhysicalColumns).
      val pruned = SplitPruning.prunedFiles(PruningSite.Planning(spark, Some(index.path), tasksJudge = false), keyed.map(_._2), predicate,
        SparkCompat.newHadoopConf(spark, rel.options), settings.copy(fieldIdRead = false))
      val (kept, droppedFiles) = keyed.partition { case (_, key) => pruned.kept(key) }
      val rowGroups = kept.flatMap { case (_, key) => pruned.keptRowGroups(key).map(key.path -> _) }.toMap
      val counts = PruningCounts.of(pruned, keyed.map(_._2), 0, started)
      // The dropped files' verdicts, and all of this pruning's reads (a job's kept files included).
      val dropped = PruningCounts.of(pruned, droppedFiles.map(_._2), 0, started)
        .copy(filesPlannedOnExecutors = counts.filesPlannedOnExecutors)
      (kept.map(_._1), counts, dropped, rowGroups)
    }
    new BloomPrunedDeltaIndex(spark, kept, index.deltaLog, index.path, index.preparedScan.scannedSnapshot, predicate,
      before + counts, rowGroups, SplitPruning.gapBytes(predicate, settings), settings.bloom.sparkPushdown,
      narrowing(index, conditions, rel, settings, Some(Planned(kept, before + dropped))))
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

/** The files a pruning kept, and its counts of the files it dropped (a later pruning of the kept ones adds to them). */
private[impl] final case class Planned(kept: Seq[AddFile], droppedCounts: PruningCounts)
