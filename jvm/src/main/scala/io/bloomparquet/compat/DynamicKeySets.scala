package io.bloomparquet.compat

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{DynamicPruningExpression, ExprId, Expression, InSet, PredicateHelper}
import org.apache.spark.sql.catalyst.expressions.codegen.CodegenFallback
import org.apache.spark.sql.catalyst.trees.LeafLike
import org.apache.spark.sql.execution.{BaseSubqueryExec, ExecSubqueryExpression, FileSourceScanExec, FilterExec, InSubqueryExec, SparkPlan}
import org.apache.spark.sql.execution.datasources.FileIndex
import org.apache.spark.sql.types.{BooleanType, DataType}

/**
 * Key sets Spark computes while a query runs (its planned dynamic pruning filters: a join's keys,
 * an `IN (subquery)`), handed to a V1 file scan's index. Spark's V1 scan uses such filters on
 * partition columns only: on data columns they stay in the filter above the scan, and its listing
 * never sees them. A scan given a [[KeySetSink]] per filter computes their keys before it runs
 * (as every subquery of a plan node), and its index finds them in the [[ComputedKeySets]] it was
 * given when it lists its files.
 */
object DynamicKeySets extends PredicateHelper {

  /**
   * `plan` with each scan under dynamic pruning filters reading through the index `withKeySets`
   * gives for its own and the key sets those filters will have computed by its listing.
   */
  def intoScans(plan: SparkPlan)(withKeySets: (FileIndex, ComputedKeySets) => Option[FileIndex]): SparkPlan =
    plan.transformUp {
      case f @ FilterExec(condition, scan: FileSourceScanExec) if !scan.dataFilters.exists(_.isInstanceOf[KeySetSink]) =>
        val filters = splitConjunctivePredicates(condition).collect {
          case DynamicPruningExpression(in: InSubqueryExec) if in.child.references.subsetOf(scan.outputSet) => in
        }
        val keySets = new ComputedKeySets
        val r = scan.relation
        (if (filters.isEmpty) None else withKeySets(r.location, keySets)).fold(f: SparkPlan) { index =>
          f.copy(child = scan.copy(relation = r.copy(location = index)(r.sparkSession),
            dataFilters = scan.dataFilters ++ filters.map(KeySetSink(_, keySets))))
        }
    }
}

/** The key sets of a scan's dynamic pruning filters, as `key IN (keys)`, once Spark computed them. */
final class ComputedKeySets {
  @volatile private var computed = Map.empty[ExprId, Expression]
  def keySets: Seq[Expression] = computed.values.toSeq
  private[compat] def put(id: ExprId, keySet: Expression): Unit = synchronized { computed += id -> keySet }
}

/**
 * A scan's data filter that holds for every row and, when Spark computes the subquery of the
 * dynamic pruning filter `in` (before the scan runs), puts its keys in `sink`. A subquery itself,
 * so Spark's rewrites of a plan's subqueries (reuse, adaptive planning) carry it along.
 */
final case class KeySetSink(in: InSubqueryExec, sink: ComputedKeySets)
    extends ExecSubqueryExpression with LeafLike[Expression] with CodegenFallback {
  override def plan: BaseSubqueryExec = in.plan
  override def exprId: ExprId = in.exprId
  override def withNewPlan(plan: BaseSubqueryExec): KeySetSink = copy(in = in.withNewPlan(plan))
  override def updateResult(): Unit = {
    in.updateResult()
    in.values().foreach(keys => sink.put(in.exprId, InSet(in.child, keys.toSet)))
  }
  override def dataType: DataType = BooleanType
  override def nullable: Boolean = false
  override def eval(input: InternalRow): Any = true
  override def toString: String = s"bloom keys of ${in.child} IN ${in.plan.name}"
}
