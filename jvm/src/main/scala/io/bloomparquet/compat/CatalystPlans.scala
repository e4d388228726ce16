package io.bloomparquet.compat

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.expressions.{Attribute, AttributeReference, DynamicPruning, DynamicPruningSubquery, EqualTo, Exists, Expression, InSubquery, ListQuery, OuterReference, PredicateHelper}
import org.apache.spark.sql.catalyst.plans.{Inner, LeftOuter, LeftSemi, RightOuter}
import org.apache.spark.sql.catalyst.analysis.ResolvedTable
import org.apache.spark.sql.catalyst.plans.logical.{BROADCAST, CreateTable, CreateTableAsSelect, HintInfo, Join, LogicalPlan, ReplaceTable, ReplaceTableAsSelect, SetTableProperties, Subquery, TableSpec, TableSpecBase, UnresolvedTableSpec, UnsetTableProperties}
import org.apache.spark.sql.connector.catalog.{Table, TableCatalog}
import org.apache.spark.sql.execution.adaptive.LogicalQueryStage
import org.apache.spark.sql.execution.datasources.{CatalogFileIndex, FileFormat, FileIndex, HadoopFsRelation, LogicalRelation, PartitioningAwareFileIndex}
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap

/**
 * The Catalyst plan nodes the extension's rules take apart and rebuild: relations, joins,
 * subqueries and dynamic pruning, whose fields Spark changes between versions
 * (`LogicalRelation` gained `stream` in 4.0, `DataSourceV2Relation` a time-travel field in 4.1,
 * `DynamicPruningSubquery` its key indices in 4.0). The rules see them through these extractors;
 * generic operators (`Filter`, `Project`, `Alias`, `EqualTo`) and `TreeNode` methods they use as is.
 */
object CatalystPlans {

  /** A V1 file relation (a `LogicalRelation` over a `HadoopFsRelation`): what the V2 route reads of it. */
  final case class FileRelation(
      output: Seq[AttributeReference],
      tableName: Option[String],
      format: FileFormat,
      options: Map[String, String],
      schema: StructType,
      partitionSchema: StructType,
      location: FileIndex,
      bucketed: Boolean,
      streaming: Boolean)

  /** A `LogicalRelation` over a `HadoopFsRelation`, as a [[FileRelation]]. */
  object V1FileRelation {
    def unapply(plan: LogicalPlan): Option[FileRelation] = plan match {
      case rel: LogicalRelation => rel.relation match {
          case fs: HadoopFsRelation => Some(FileRelation(rel.output, rel.catalogTable.map(_.identifier.unquotedString),
                fs.fileFormat, fs.options, fs.schema, fs.partitionSchema, fs.location, fs.bucketSpec.nonEmpty, rel.isStreaming))
          case _ => None
        }
      case _ => None
    }
  }

  /** `plan`, a V1 file relation, read through `format` with `options`; None for any other plan. */
  def withFileFormat(plan: LogicalPlan, format: FileFormat, options: Map[String, String]): Option[LogicalPlan] =
    plan match {
      case rel: LogicalRelation => rel.relation match {
          case fs: HadoopFsRelation => Some(rel.copy(relation = fs.copy(fileFormat = format, options = options)(fs.sparkSession)))
          case _ => None
        }
      case _ => None
    }

  /** `plan`, a V1 file relation, listing its files through `location`, with `options` added; None for any other plan. */
  def withLocation(plan: LogicalPlan, location: FileIndex, options: Map[String, String]): Option[LogicalPlan] =
    plan match {
      case rel: LogicalRelation => rel.relation match {
          case fs: HadoopFsRelation =>
            Some(rel.copy(relation = fs.copy(location = location, options = fs.options ++ options)(fs.sparkSession)))
          case _ => None
        }
      case _ => None
    }

  /**
   * A V1 file relation over `location` read through `format` with `options`, whose attributes are
   * `output` (a V2 relation's, so the plan above it stays resolved); None where Spark's V1 relation
   * would expose other columns than `output`, in another order.
   */
  def v1FileRelation(spark: SparkSession, location: FileIndex, dataSchema: StructType, partitionSchema: StructType,
      format: FileFormat, options: Map[String, String], output: Seq[AttributeReference]): Option[LogicalPlan] = {
    val fs = HadoopFsRelation(location, partitionSchema, dataSchema, None, format, options)(spark)
    val same = fs.schema.length == output.length &&
      fs.schema.fields.zip(output).forall { case (f, a) => f.name == a.name && f.dataType == a.dataType }
    if (same) Some(LogicalRelation(fs).copy(output = output)) else None
  }

  /**
   * A command setting a table's properties: `ALTER TABLE ... SET TBLPROPERTIES` on a resolved table
   * (`table`), or `CREATE` / `REPLACE TABLE [AS SELECT]` (no `table` yet; the provider and `schema` as
   * given); `withProperties` is the command setting others instead.
   */
  final case class PropertiesSetting(table: Option[Table], provider: Option[String], schema: Option[StructType],
      properties: Map[String, String], withProperties: Map[String, String] => LogicalPlan)

  object PropertiesSet {
    def unapply(plan: LogicalPlan): Option[PropertiesSetting] = plan match {
      case s @ SetTableProperties(ResolvedTable(_, _, t, _), props) =>
        Some(PropertiesSetting(Some(t), Option(t.properties.get(TableCatalog.PROP_PROVIDER)), None, props,
            p => s.copy(properties = p)))
      case c: CreateTable => created(c.tableSpec, c.tableSchema, spec => c.copy(tableSpec = spec))
      case c: CreateTableAsSelect if c.query.resolved =>
        created(c.tableSpec, c.query.schema, spec => c.copy(tableSpec = spec))
      case r: ReplaceTable => created(r.tableSpec, r.tableSchema, spec => r.copy(tableSpec = spec))
      case r: ReplaceTableAsSelect if r.query.resolved =>
        created(r.tableSpec, r.query.schema, spec => r.copy(tableSpec = spec))
      case _ => None
    }

    private def created(spec: TableSpecBase, schema: StructType, withSpec: TableSpecBase => LogicalPlan) =
      spec match {
        case t: TableSpec => Some(PropertiesSetting(None, t.provider, Some(schema), t.properties, p => withSpec(t.copy(properties = p))))
        case u: UnresolvedTableSpec =>
          Some(PropertiesSetting(None, u.provider, Some(schema), u.properties, p => withSpec(u.copy(properties = p))))
        case _ => None
      }
  }

  /** `ALTER TABLE ... UNSET TBLPROPERTIES` on a resolved table: it, the keys, and the command unsetting others instead. */
  object PropertiesUnset {
    def unapply(plan: LogicalPlan): Option[(Table, Seq[String], Seq[String] => LogicalPlan)] = plan match {
      case u @ UnsetTableProperties(ResolvedTable(_, _, t, _), keys, _) => Some((t, keys.toSeq, k => u.copy(propertyKeys = k)))
      case _ => None
    }
  }

  /**
   * The files a relation's `location` scans: a catalog table's narrowed to the partitions
   * `partitionFilters` keep (as `PruneFileSourcePartitions` does, custom locations kept), a
   * listed index as it is; None for any other index.
   */
  def listedFiles(location: FileIndex, partitionFilters: => Seq[Expression]): Option[PartitioningAwareFileIndex] =
    location match {
      case catalog: CatalogFileIndex => Some(catalog.filterPartitions(partitionFilters))
      case listed: PartitioningAwareFileIndex => Some(listed)
      case _ => None
    }

  /** A V2 relation: its table and output. */
  object V2Relation {
    def unapply(plan: LogicalPlan): Option[(Table, Seq[AttributeReference])] = plan match {
      case r: DataSourceV2Relation => Some((r.table, r.output))
      case _ => None
    }
  }

  /** `plan`, a V2 relation, with option `key` set to `value` unless it has `key` already; None for any other plan. */
  def withRelationOption(plan: LogicalPlan, key: String, value: String): Option[LogicalPlan] = plan match {
    case r: DataSourceV2Relation if !r.options.containsKey(key) =>
      val options = new java.util.HashMap[String, String](r.options.asCaseSensitiveMap)
      options.put(key, value)
      Some(r.copy(options = new CaseInsensitiveStringMap(options)))
    case _ => None
  }

  /**
   * A side of a join that the keys of its other side may prune: a side whose rows without a match the
   * join drops. `equalities`: the join condition's `a = b` as (`a`, `b`), `a` of this side and `b` of
   * the other, each with references. `keysHinted`: a hint asks to broadcast the other side.
   */
  final case class PrunableSide(plan: LogicalPlan, keys: LogicalPlan, equalities: Seq[(Expression, Expression)],
      keysHinted: Boolean, isLeft: Boolean) {

    /** `join` (the join this side is of, or a copy of it) with this side replaced by `side`. */
    def in(join: LogicalPlan, side: LogicalPlan): LogicalPlan =
      join.withNewChildren(if (isLeft) Seq(side, join.children(1)) else Seq(join.children.head, side))
  }

  /**
   * A join with a condition, as the sides its other side's keys may prune, left first: both of an
   * inner join, the left of a left semi or right outer join, the right of a left outer join (an
   * outer join keeps its preserved side's rows; full outer and anti joins: none).
   */
  object PrunableJoin extends PredicateHelper {
    def unapply(plan: LogicalPlan): Option[Seq[PrunableSide]] = plan match {
      case Join(left, right, joinType, Some(condition), hint) =>
        val equalities = splitConjunctivePredicates(condition).collect { case EqualTo(a, b) => Seq(a -> b, b -> a) }.flatten
        def side(plan: LogicalPlan, keys: LogicalPlan, keysHint: Option[HintInfo], isLeft: Boolean) =
          PrunableSide(plan, keys, equalities.filter { case (a, b) => of(a, plan) && of(b, keys) },
            keysHint.exists(_.strategy.contains(BROADCAST)), isLeft)
        val prunesLeft = joinType == Inner || joinType == LeftSemi || joinType == RightOuter
        val prunesRight = joinType == Inner || joinType == LeftOuter
        Some((if (prunesLeft) Seq(side(left, right, hint.rightHint, isLeft = true)) else Nil) ++
          (if (prunesRight) Seq(side(right, left, hint.leftHint, isLeft = false)) else Nil))
      case _ => None
    }

    private def of(e: Expression, plan: LogicalPlan): Boolean = e.references.nonEmpty && e.references.subsetOf(plan.outputSet)
  }

  /** `key IN (SELECT c FROM ...)`, uncorrelated, one column: the key and the subquery's plan. */
  object InListSubquery {
    def unapply(e: Expression): Option[(Expression, LogicalPlan)] = e match {
      case InSubquery(Seq(key), query: ListQuery) if query.outerAttrs.isEmpty && query.plan.output.size == 1 =>
        Some((key, query.plan))
      case _ => None
    }
  }

  /**
   * `EXISTS (subquery)` correlated by equalities `outer column = expression of the subquery`: the
   * subquery's plan and those pairs. Spark rewrites it into a semi join on them (after the
   * optimizer's operator batches), whose keys may prune the outer side like a join's.
   */
  object CorrelatedExists {
    def unapply(e: Expression): Option[(LogicalPlan, Seq[(Attribute, Expression)])] = e match {
      case x: Exists =>
        val pairs = x.plan.flatMap(_.expressions).flatMap(_.collect {
          case EqualTo(OuterReference(a: Attribute), v) if inner(v) => a -> v
          case EqualTo(v, OuterReference(a: Attribute)) if inner(v) => a -> v
        })
        if (pairs.isEmpty) None else Some((x.plan, pairs))
      case _ => None
    }

    private def inner(v: Expression): Boolean = v.references.nonEmpty && !v.exists(_.isInstanceOf[OuterReference])
  }

  /**
   * Does `plan` hold a finished stage of adaptive execution (which plans a join again over the stages
   * it has run: their rows are a physical plan's, read once already)?
   */
  def holdsQueryStage(plan: LogicalPlan): Boolean =
    plan.exists(_.isInstanceOf[LogicalQueryStage])

  /** Is `plan` the root of a subquery's own plan (an `IN` or scalar subquery being optimized)? */
  def isSubqueryRoot(plan: LogicalPlan): Boolean = plan.isInstanceOf[Subquery]

  /** Is `e` a dynamic pruning filter (Spark's or one of ours: both are Spark's `DynamicPruning`)? */
  def isDynamicPruning(e: Expression): Boolean = e.isInstanceOf[DynamicPruning]

  /** A dynamic pruning filter before planning: the column it prunes, the keys' plan and their key expressions. */
  object PruningSubquery {
    def unapply(e: Expression): Option[(Expression, LogicalPlan, Seq[Expression])] = e match {
      case d: DynamicPruningSubquery => Some((d.pruningKey, d.buildQuery, d.buildKeys))
      case _ => None
    }
  }
}
