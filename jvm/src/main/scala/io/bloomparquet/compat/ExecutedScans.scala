package io.bloomparquet.compat

import org.apache.spark.sql.Dataset
import org.apache.spark.sql.catalyst.trees.TreeNodeTag
import org.apache.spark.sql.execution.FileSourceScanExec
import org.apache.spark.sql.execution.adaptive.{AdaptiveSparkPlanExec, AdaptiveSparkPlanHelper, QueryStageExec}
import org.apache.spark.sql.execution.exchange.ReusedExchangeExec
import org.apache.hadoop.fs.Path
import org.apache.spark.sql.execution.SparkPlan
import org.apache.spark.sql.execution.datasources.{FileFormat, FileIndex}
import org.apache.spark.sql.execution.datasources.v2.{BatchScanExec, DataSourceV2ScanRelation}

/** The file scans of a query that ran: their metrics and the input partitions (tasks) they planned. */
object ExecutedScans {

  /** A scan's metrics, its input partitions, and the file index of a V1 scan (a V2 scan's is its own business). */
  final case class ScanFigures(metrics: Map[String, Long], partitions: Long, fileIndex: Option[AnyRef] = None)

  /**
   * Counters of a pruning that planning did to a V2 scan it does not own (a table format's scan, whose
   * metrics are the format's), kept on the scan's logical relation: they join that scan's metrics here.
   */
  val PlanningCounters: TreeNodeTag[Map[String, Long]] = TreeNodeTag("bloomparquet.planningCounters")

  // Looks inside adaptive plans and query stages.
  private object Plans extends AdaptiveSparkPlanHelper

  /** The V2 batch scans and V1 file scans in a classic Dataset's executed plan and its subqueries (run the query first). */
  def of(df: Dataset[_]): Seq[ScanFigures] = figures(SparkCompat.queryExecution(df).executedPlan)

  /**
   * The scans of the stages adaptive execution ran for a Dataset and then left out of its final plan
   * (a join side that read nothing becomes an empty relation): their work was done, the plan no longer
   * shows it. Stages a subquery of the plan reads count as shown. Found through the stages Spark keeps
   * for reuse (with `spark.sql.exchange.reuse`, its default).
   */
  def droppedByAdaptive(df: Dataset[_]): Seq[ScanFigures] = SparkCompat.queryExecution(df).executedPlan match {
    case adaptive: AdaptiveSparkPlanExec =>
      val shown = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap[SparkPlan, java.lang.Boolean]())
      Plans.collectWithSubqueries(adaptive) { case stage: QueryStageExec => stage.plan }.foreach {
        case reused: ReusedExchangeExec => shown.add(reused.child)
        case exchange => shown.add(exchange)
      }
      adaptive.context.stageCache.values.toSeq.filterNot(stage => shown.contains(stage.plan)).flatMap(stage => figures(stage.plan))
    case _ => Nil
  }

  /**
   * Every scan that ran for `plan`, its subqueries' included, each once. A stage the query and one
   * of its subqueries share runs once and appears once, but in whichever of the two created it first
   * (a race between threads); the other holds a reuse of it, which is not followed.
   */
  private def figures(plan: SparkPlan): Seq[ScanFigures] = {
    val scans = Plans.collectWithSubqueries(plan) {
      case s: BatchScanExec =>
        s -> ScanFigures(s.metrics.map { case (k, m) => k -> m.value } ++ planningCounters(s), s.inputRDD.getNumPartitions.toLong)
      case s: FileSourceScanExec =>
        s -> ScanFigures(s.metrics.map { case (k, m) => k -> m.value }, s.inputRDD.getNumPartitions.toLong, Some(s.relation.location))
    }
    val seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap[SparkPlan, java.lang.Boolean]())
    scans.collect { case (scan, figures) if seen.add(scan) => figures }
  }

  /** The counters planning kept on `scan`'s relation, found through the logical plan Spark planned it from. */
  private def planningCounters(scan: BatchScanExec): Map[String, Long] =
    scan.logicalLink.flatMap(_.collectFirst {
      case r: DataSourceV2ScanRelation if r.scan eq scan.scan => r.getTagValue(PlanningCounters)
    }.flatten).getOrElse(Map.empty)

  /**
   * `plan` with the format of each V1 file scan replaced where `replace` gives one, given the scan's
   * file index, its format, and whether that format lets Spark split a file of the scan.
   */
  def replacingFileFormats(plan: SparkPlan)(replace: (FileIndex, FileFormat, Path => Boolean) => Option[FileFormat]): SparkPlan =
    plan.transformUp { case scan: FileSourceScanExec =>
      val r = scan.relation
      replace(r.location, r.fileFormat, path => r.fileFormat.isSplitable(r.sparkSession, r.options, path))
        .fold(scan: SparkPlan)(format => scan.copy(relation = r.copy(fileFormat = format)(r.sparkSession)))
    }
}
