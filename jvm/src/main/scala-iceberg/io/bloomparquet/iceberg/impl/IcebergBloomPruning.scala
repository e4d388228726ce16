package io.bloomparquet.iceberg.impl

import scala.jdk.CollectionConverters._

import io.bloomparquet.compat.CatalystPlans.{PrunableJoin, PrunableSide, holdsQueryStage}
import io.bloomparquet.compat.{ExecutedScans, SparkCompat}
import io.bloomparquet.options.OptionRegistry.KeySetMaxBytes
import io.bloomparquet.options.ReadSettings
import io.bloomparquet.planning.{FileKey, KeySetSample, PlanningOpen, PrunedFiles}
import io.bloomparquet.pruning.{BloomPredicate, CatalystPredicates, KeySetPayoff}
import io.bloomparquet.schema.FileColumn
import io.bloomparquet.spark.{PruningSite, SessionReadConfs, SplitPruning}
import io.bloomparquet.spark.metrics.PruningCounts
import io.bloomparquet.sql.KeySetSize
import org.apache.hadoop.fs.Path
import org.apache.iceberg.{DataFile, FileFormat, FileScanTask, PartitionScanTask}
import org.apache.spark.internal.Logging
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.{Alias, AttributeReference, Expression, InSet, PredicateHelper, SubqueryExpression}
import org.apache.spark.sql.catalyst.planning.PhysicalOperation
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Project}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation

/**
 * Apache Iceberg reads with `spark.bloomparquet.iceberg.enabled`: of the data files Iceberg's own
 * planning kept for a batch scan (partition and metrics pruning, with the filters Spark pushed to
 * it), those whose bloom filters rule out every row group are dropped before any task starts. Only
 * ever a subset of Iceberg's choice: a file we cannot read, a file that is not Parquet, or a
 * predicate on anything but the files' data columns keeps files. Columns are matched by field id
 * ([[FieldIdColumns]]). Delete files are never judged: they stay with the data files they apply to,
 * and a dropped data file holds no row the query keeps, deleted or not.
 *
 * Applied to one plan node at a time, as Spark plans it (the extension's strategy): Spark builds
 * Iceberg's scan (and pushes its filters) in an optimizer batch after every rule an extension can
 * inject, and asks it for its batch only when planning the physical scan. Scans of row-level
 * operations (DELETE, UPDATE, MERGE) are left to Iceberg: which files they read is part of the write.
 */
final case class IcebergBloomPruning(spark: SparkSession) extends Rule[LogicalPlan] with PredicateHelper with Logging {

  override def apply(plan: LogicalPlan): LogicalPlan = {
    plan match {
      // A join is planned before its sides: its keys, where the driver holds them, prune a side first.
      case PrunableJoin(sides) => sides.foreach(keySetPruned)
      // Projections and filters over the scan, as Spark's scan strategy plans them: at the top one.
      case IcebergScan(filters, scan) if filters.nonEmpty => prune(filters, scan)
      case _ =>
    }
    plan
  }

  /**
   * Prunes `side`, an Iceberg scan under projections and filters, with the first of the join's
   * equalities between a column of it and the other side's keys, where those keys are at most
   * `spark.bloomparquet.keySet.maxBytes`: they are read now, while planning, and the join still reads
   * them as before. Keys held in the driver (a Python list, a pandas frame, a local relation:
   * [[KeySetSize]]) cost nothing to read; keys a job reads (a table, a query over one) are read where
   * Spark estimates them that small, their plan gives the same rows twice (deterministic; its scans
   * already built, so the snapshots the join reads), and the Iceberg side has files to spare.
   * Rows can't change: a row whose key is not among the keys joins with nothing on a side the join
   * drops unmatched rows of.
   */
  private def keySetPruned(side: PrunableSide): Unit = (side.plan, KeySetMaxBytes.from(spark.conf.getOption)) match {
    case (IcebergScan(filters, scan), maxBytes) if maxBytes > 0 =>
      side.equalities.collectFirst {
        case (key: AttributeReference, value)
            if scan.outputSet.contains(key) && key.dataType == value.dataType &&
              CatalystPredicates.supported(key.dataType) && !side.keys.isStreaming &&
              (KeySetSize.atMost(side.keys, maxBytes) || readOnceMore(side.keys, key, value, scan, maxBytes)) => (key, value)
      }.foreach { case (key, value) =>
        val keys = SparkCompat.collectRows(spark, Project(Seq(Alias(value, "key")()), side.keys))
          .map(_.get(0, key.dataType)).filter(_ != null).distinct
        prune(filters :+ InSet(key, keys.toSet), scan)
      }
    case _ =>
  }

  /**
   * Are keys a job reads worth reading while planning: estimated at most `maxBytes`, the same rows when
   * read again, more than one data file on the Iceberg side to rule out (else the job costs more than a
   * task it may save), and filters in the side's first and last file that can prune for about as many
   * keys as Spark estimates ([[KeySetPayoff]], the rule every route's key sets follow: files without
   * filters on the key are not worth a second read of the keys).
   */
  private def readOnceMore(keys: LogicalPlan, column: AttributeReference, value: Expression, scan: DataSourceV2ScanRelation,
      maxBytes: Long): Boolean =
    // Adaptive execution plans a join again over its finished stages: those were read (the side was pruned
    // when the query was first planned) and are not read again.
    keys.deterministic && !holdsQueryStage(keys) && keys.stats.sizeInBytes <= BigInt(maxBytes) && {
      val files = IcebergScanTasks.tasks(scan.scan).collect { case t: FileScanTask if t.file.format == FileFormat.PARQUET => t.file }
      files.map(_.location).distinct.size > 1 && {
        val sampled = Seq(files.head, files.last).map(f => PlanningOpen.status(key(f), new Path(f.location)))
        val settings = ReadSettings.resolve(scan.relation.options, SessionReadConfs.of(spark))
        val caseSensitive = SparkCompat.caseSensitive(spark)
        // Matched by field id, as Iceberg reads it: a renamed column is sampled under its old name.
        val byId = new FieldIdColumns(IcebergScanTasks.projection(scan.scan), caseSensitive).ids(Seq(column.name))
        byId.forall(ids =>
          KeySetSample.of(sampled, FileColumn.FieldIds(column.name, ids), caseSensitive,
            SparkCompat.newHadoopConf(spark, scan.relation.options.asCaseSensitiveMap.asScala.toMap), settings.bloom.useCache)
            .forall(KeySetPayoff.mayPay(_, KeySetSize.judgedKeys(keys, Some(value)))))
      }
    }

  /** Projections and filters over an Iceberg batch scan (not a row-level operation's): the filters' conjuncts and the scan. */
  private object IcebergScan {
    def unapply(plan: LogicalPlan): Option[(Seq[Expression], DataSourceV2ScanRelation)] = plan match {
      case PhysicalOperation(_, filters, scan: DataSourceV2ScanRelation)
          if IcebergScanTasks.reachable(scan.scan) && !IcebergScanTasks.ofRowLevelOperation(scan.relation.table) =>
        Some((filters.flatMap(splitConjunctivePredicates), scan))
      case _ => None
    }
  }

  private def prune(conditions: Seq[Expression], relation: DataSourceV2ScanRelation): Unit = {
    val usable = conditions.filter(c => c.deterministic && !SubqueryExpression.hasSubquery(c) && c.references.subsetOf(relation.outputSet))
    val scan = relation.scan
    // Settings only once there is something to probe: most filtered scans have no bloom predicate.
    lazy val byId = new FieldIdColumns(IcebergScanTasks.projection(scan), SparkCompat.caseSensitive(spark))
    for {
      predicate <- CatalystPredicates.fromFilters(usable).flatMap(byId(_))
      settings = ReadSettings.resolve(relation.relation.options, SessionReadConfs.of(spark)) if settings.bloom.enabled
    } {
      val started = System.nanoTime()
      val tasks = IcebergScanTasks.tasks(scan)
      val judged: Map[PartitionScanTask, FileKey] =
        tasks.collect { case t: FileScanTask if t.file.format == FileFormat.PARQUET => (t: PartitionScanTask) -> key(t) }.toMap
      val pruned = prunedFiles(judged.values.toSeq.distinct, predicate, relation.relation.options.asCaseSensitiveMap.asScala.toMap,
        settings)
      // A kept file's task reads only its kept row groups, where Iceberg splits it by row group.
      val left = tasks.flatMap { t =>
        (t, judged.get(t), pruned) match {
          case (_, None, _) => Some(t)
          case (_, Some(_), None) => None
          // A file planning gave no outcome is read as Iceberg planned it.
          case (f: FileScanTask, Some(key), Some(p)) if p.get(key).isEmpty || p.kept(key) =>
            Some(p.keptRowGroups(key).flatMap(KeptRowGroupsTask.of(f, _)).getOrElse(f))
          case _ => None
        }
      }
      if (left != tasks) IcebergScanTasks.keepOnly(scan, left)
      record(relation, judged.values.toSeq.distinct, pruned, started)
      logInfo(s"bloomparquet: ${relation.relation.name}: ${tasks.size - left.size} of ${tasks.size} data files ruled out, " +
        s"${left.count(_.isInstanceOf[KeptRowGroupsTask])} cut to their kept row groups, by their bloom filters " +
        s"($predicate) in ${(System.nanoTime() - started) / 1000000} ms")
    }
  }

  /**
   * The pruning's counters, kept with the relation for the scan's metrics (`bloomparquet.scan_metrics`):
   * Iceberg's scan declares its own. A scan judged again adds what the later judging dropped and read.
   */
  private def record(relation: DataSourceV2ScanRelation, files: Seq[FileKey], pruned: Option[PrunedFiles],
      started: Long): Unit = {
    val counts = pruned match {
      case Some(p) => PruningCounts.of(p, files.filter(p.get(_).isDefined), rowGroupsReadInGaps = 0, started)
      case None => PruningCounts(filesTotal = files.size, filesPruned = files.size,
          pruningTimeMs = (System.nanoTime() - started) / 1000000)
    }
    val figures = relation.getTagValue(ExecutedScans.PlanningCounters) match {
      case None => counts.byName
      case Some(earlier) => earlier ++ counts.asLaterPass.byName.map { case (k, v) => k -> (earlier.getOrElse(k, 0L) + v) }
    }
    relation.setTagValue(ExecutedScans.PlanningCounters, figures)
  }

  /** Iceberg's data files are never rewritten in place: its path and size name one file version. */
  private def key(task: FileScanTask): FileKey = key(task.file)

  private def key(file: DataFile): FileKey = FileKey(file.location, file.fileSizeInBytes, 0L)

  /** What planning made of `files`; None: the predicate matches nothing, and every file is dropped unread. */
  private def prunedFiles(files: Seq[FileKey], predicate: BloomPredicate, options: Map[String, String],
      settings: ReadSettings): Option[PrunedFiles] =
    if (predicate == BloomPredicate.NoMatch) None
    else Some(SplitPruning.prunedFiles(PruningSite.Planning(spark, None, tasksJudge = false), files, predicate,
        SparkCompat.newHadoopConf(spark, options), settings))
}
