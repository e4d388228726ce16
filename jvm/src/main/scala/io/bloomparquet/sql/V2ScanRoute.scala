package io.bloomparquet.sql

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import io.bloomparquet.compat.CatalystPlans.{FileRelation, V1FileRelation, V2Relation, listedFiles}
import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.OptionRegistry.{SqlParquet, SqlPlanTimePruning}
import io.bloomparquet.options.OptionSpec
import io.bloomparquet.pruning.PushdownSafety
import io.bloomparquet.spark.{BloomParquetFileFormat, BloomParquetTable, ListedBloomParquetTable}
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.{Attribute, AttributeSet, Expression, PredicateHelper, SubqueryExpression}
import org.apache.spark.sql.catalyst.plans.QueryPlan
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LogicalPlan}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.datasources.{FileFormat, FileIndex}
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat
import org.apache.spark.sql.util.CaseInsensitiveStringMap

/**
 * The extension's optimizer rule: a V1 file relation of `bloomparquet` (a catalog table,
 * `bloomparquet.`path``, a view over them) and, with `spark.bloomparquet.parquet.enabled`,
 * of plain `parquet`, becomes a V2 relation over a [[ListedBloomParquetTable]] with the same
 * output attributes, options, schema and files. A pre-CBO rule: it runs once, after operator
 * optimization has moved every filter down to its relation (what it judges a relation by) and
 * before "Early Filter and Projection Push-Down" builds V2 scans, so the scan gets pushdown,
 * plan-time pruning, metrics and runtime filters like `spark.read.format("bloomparquet")`.
 * Run in the operator optimization batches instead, it would judge every relation again in
 * each of their rounds and add a round to them: planning a plan of many relations would cost
 * more than Spark's.
 * Write targets are commands by then, not relations, so writes keep Spark's V1 path.
 * What the V2 file scan cannot serve stays on V1 ([[V2ScanRoute.convertible]]).
 * A pure plan rewrite: the JVM-wide settings and the kernel are set up by the table's
 * first scan ([[io.bloomparquet.spark.BloomParquetTable]]), not here.
 */
final case class V2ScanRoute(spark: SparkSession) extends Rule[LogicalPlan] with PredicateHelper {

  override def apply(plan: LogicalPlan): LogicalPlan = {
    val bloom = enabled(SqlPlanTimePruning)
    val parquet = enabled(SqlParquet)
    object Wanted {
      def unapply(plan: LogicalPlan): Option[(LogicalPlan, FileRelation)] = plan match {
        case V1FileRelation(rel) if V2ScanRoute.convertible(rel, bloom, parquet) => Some(plan -> rel)
        case _ => None
      }
    }
    // A relation takes the V2 scan only where it could prune; elsewhere it stays on Spark's V1 scan
    // (plain Parquet read through our format by [[KeptV1Parquet]]). [[UnprunableOnV1]] does the same
    // for the format route.
    lazy val joins = PruningChance.JoinKeys.of(plan)
    def worthIt(rel: FileRelation, condition: Option[Expression]): Boolean =
      if (condition.exists(c => PruningChance.converts(c) && literalsMayPay(rel, c))) true
      else if (joins.all.isEmpty && !condition.exists(SubqueryExpression.hasSubquery)) false
      else {
        val paying = judge(rel, condition).fold((_: Attribute, _: LogicalPlan, _: Expression) => false)(KeySetSize.payingOn)
        condition.exists(PruningChance.inSubqueries(_, paying)) || joins.mayPrune(rel.output, paying)
      }
    // Relations over the same files under the same filter (copies of one subplan, a CTE referenced
    // twice) take the same route, so they still reuse each other's exchanges. Under other filters
    // they become other scans anyway, and each takes its own route: on V2, a filter comparing with a
    // scalar subquery reaches no reader, while Spark's V1 scan skips row groups with it.
    val worthy = scala.collection.mutable.Set.empty[V2ScanRoute.Twins]
    val underFilter = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap[LogicalPlan, java.lang.Boolean]())
    if (!bloom && !parquet) plan
    else {
      plan.foreach {
        // A copy already moved (in a plan optimized before this one took it in) holds for its twins on V1.
        case Filter(condition, r @ V2Relation(t: ListedBloomParquetTable, output)) =>
          underFilter.add(r)
          worthy += V2ScanRoute.Twins.of(t.relationRoots, output, Some(condition))
        case r @ V2Relation(t: ListedBloomParquetTable, output) if !underFilter.contains(r) =>
          worthy += V2ScanRoute.Twins.of(t.relationRoots, output, None)
        case Filter(condition, Wanted(v1, rel)) =>
          underFilter.add(v1)
          if (worthIt(rel, Some(condition))) worthy += V2ScanRoute.Twins(rel, Some(condition))
        case Wanted(v1, rel) if !underFilter.contains(v1) && worthIt(rel, None) => worthy += V2ScanRoute.Twins(rel, None)
        case _ =>
      }
      if (worthy.isEmpty) plan
      else plan.transformDown {
        // A filter right above the relation names the partitions to list (as PruneFileSourcePartitions would).
        case f @ Filter(condition, Wanted(_, rel)) if worthy(V2ScanRoute.Twins(rel, Some(condition))) =>
          convert(rel, Some(condition)).fold(f: LogicalPlan)(v2 => f.copy(child = v2))
        case Wanted(v1, rel) if !underFilter.contains(v1) && worthy(V2ScanRoute.Twins(rel, None)) => convert(rel, None).getOrElse(v1)
      }
    }
  }

  private def enabled(spec: OptionSpec[Boolean]): Boolean = spec.from(spark.conf.getOption)

  /**
   * [[PruningChance.literalsMayPay]] for a relation, on the files it would read; where they cannot
   * be listed, planning is tried.
   */
  private def literalsMayPay(rel: FileRelation, condition: Expression): Boolean = judge(rel, Some(condition)).forall { t =>
    val files = t.fileIndex.allFiles()
    val singleSplit = files.size <= 1 && files.map(_.getLen).sum <= SparkCompat.sqlConf(spark).filesMaxPartitionBytes
    PruningChance.literalsMayPay(condition, singleSplit, t.isRuntimeFilterColumn, PushdownSafety.safe(_, t.dataSchema))
  }

  // The tables key sets are judged against, per file index and partition filters: copies of one
  // relation (a CTE read twice, a self join) are judged once.
  private val judged = java.util.Collections.synchronizedMap(
    new java.util.WeakHashMap[FileIndex, java.util.Map[Seq[Expression], Option[BloomParquetTable]]]())

  /** The table a relation would read as on V2, to judge key sets against (its files' filters): listed once. */
  private def judge(rel: FileRelation, condition: Option[Expression]): Option[BloomParquetTable] = {
    val filters = partitionFilters(rel, condition).map(_.canonicalized)
    judged.computeIfAbsent(rel.location, _ => new java.util.concurrent.ConcurrentHashMap())
      .computeIfAbsent(filters, _ => table(rel, condition))
  }

  private def convert(rel: FileRelation, condition: Option[Expression]): Option[LogicalPlan] =
    table(rel, condition).map(t => SparkCompat.v2Relation(t, rel.output, options(rel)))

  private def options(rel: FileRelation): CaseInsensitiveStringMap =
    new CaseInsensitiveStringMap(rel.options.filter { case (k, _) =>
      !Set("path", "paths", KeptV1Parquet.Marker._1.toLowerCase(java.util.Locale.ROOT)).contains(k.toLowerCase(java.util.Locale.ROOT))
    }.asJava)

  /** The V2 table over the relation's files (those its partition filters keep); None where Spark keeps its route. */
  private def table(rel: FileRelation, condition: Option[Expression]): Option[BloomParquetTable] = {
    val index = listedFiles(rel.location, partitionFilters(rel, condition)) match {
      case Some(listed) => listed
      case None => return None
    }
    val format = V2ScanRoute.originalFormat(rel)
    val name = rel.tableName.getOrElse(s"${format.getSimpleName.stripSuffix("FileFormat")} ${index.rootPaths.mkString(",")}")
    val table = new ListedBloomParquetTable(name, spark, options(rel), index, rel.schema, format, V2ScanRoute.roots(rel))
    val output = rel.output
    // The V2 table must see the columns the V1 relation exposes, in order; otherwise Spark keeps its route.
    val same = try {
      table.schema.length == output.length && table.schema.fields.zip(output).forall { case (f, a) =>
        f.name == a.name && f.dataType == a.dataType
      }
    } catch { case NonFatal(_) => false }
    if (same) Some(table) else None
  }

  private def partitionFilters(rel: FileRelation, condition: Option[Expression]): Seq[Expression] = {
    val resolver = SparkCompat.sqlConf(spark).resolver
    val partitionColumns = AttributeSet(rel.output.filter(a => rel.partitionSchema.fieldNames.exists(resolver(_, a.name))))
    condition.toSeq.flatMap(splitConjunctivePredicates).filter { e =>
      e.deterministic && !SubqueryExpression.hasSubquery(e) && e.references.nonEmpty &&
      e.references.subsetOf(partitionColumns)
    }
  }
}

object V2ScanRoute {

  /**
   * What copies of one relation share: its files, its columns and the filter right above it,
   * with attribute ids replaced by column positions (each copy of a subplan has its own ids).
   */
  final case class Twins private (files: Set[String], columns: Seq[String], filter: Option[Expression])

  object Twins {
    def apply(rel: FileRelation, condition: Option[Expression]): Twins = of(roots(rel), rel.output, condition)

    def of(roots: Set[String], output: Seq[Attribute], condition: Option[Expression]): Twins =
      new Twins(roots, output.map(_.name), condition.map(c => QueryPlan.normalizeExpressions(c, output).canonicalized))
  }

  def roots(rel: FileRelation): Set[String] = rel.location.rootPaths.map(_.toString).toSet
  /**
   * Does the V2 scan serve the relation exactly as Spark's V1 scan would? Left to
   * Spark: streaming relations, bucketed tables (V2 file scans ignore buckets), relations whose
   * output carries file metadata columns (`_metadata`), formats other than ours and (opted in)
   * Spark's exact `ParquetFileFormat`.
   */
  def convertible(rel: FileRelation, bloom: Boolean, parquet: Boolean): Boolean =
    !rel.streaming && !rel.bucketed && rel.output.length == rel.schema.length && ours(rel, bloom, parquet)

  private def ours(rel: FileRelation, bloom: Boolean, parquet: Boolean): Boolean =
    if (originalFormat(rel) == classOf[ParquetFileFormat]) parquet
    else rel.format.isInstanceOf[BloomParquetFileFormat] && bloom

  /**
   * The format the relation was read with: plain Parquet for one [[KeptV1Parquet]] moved onto our
   * format. A subquery's plan is optimized on its own (with the rules that run after this one)
   * before it joins its parent's plan; a copy of a relation from there must take the same route
   * and become the same scan as its twin in the parent, or their exchanges are not reused.
   */
  def originalFormat(rel: FileRelation): Class[_ <: FileFormat] =
    if (rel.format.isInstanceOf[BloomParquetFileFormat] && rel.options.get(KeptV1Parquet.Marker._1).contains(KeptV1Parquet.Marker._2))
      classOf[ParquetFileFormat]
    else rel.format.getClass
}
