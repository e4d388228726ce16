package io.bloomparquet.sql

import io.bloomparquet.compat.CatalystPlans.{CorrelatedExists, InListSubquery, PrunableJoin}
import io.bloomparquet.pruning.CatalystPredicates
import org.apache.spark.sql.catalyst.expressions.{Alias, Attribute, AttributeSet, ExprId, Expression, PredicateHelper}
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan

/**
 * Whether bloomparquet's V2 scan could prune a Parquet relation at all: a conjunct of the
 * filter right above it that converts to a bloom predicate, a predicate subquery (a key set), or
 * a join of the plan whose keys could prune it at runtime and pay for doing so. Where none of these
 * holds, the V2 scan can only cost: Spark's rules that know V1 relations alone stop applying
 * (q9 of TPC-DS: `MergeScalarSubqueries` merges 15 scans of `store_sales` into 5 on V1, none on V2),
 * and a runtime filter that prunes nothing still costs a subquery and a scan that waits for it.
 * Pure: what the files say comes in as `mayPay`.
 */
object PruningChance extends PredicateHelper {

  /** Does a conjunct of the filter right above the relation convert to a bloom predicate? */
  def converts(condition: Expression): Boolean =
    splitConjunctivePredicates(condition).exists(c => CatalystPredicates.convert(c).isDefined)

  /**
   * Could the filter right above the relation prune it: a conjunct that converts to a bloom
   * predicate, or `column IN (SELECT ...)` or a correlated `EXISTS` (a semi join on its
   * correlation's keys) whose keys may pay (`mayPay`, as for a join). A subquery under `NOT` or
   * `OR` becomes an anti or existence join, which keeps every row of this side: it cannot prune.
   */
  def inFilter(condition: Expression, mayPay: (Attribute, LogicalPlan, Expression) => Boolean): Boolean =
    converts(condition) || inSubqueries(condition, mayPay)

  /** Could a predicate subquery of the filter (`IN (SELECT ...)`, a correlated `EXISTS`) prune, as in [[inFilter]]? */
  def inSubqueries(condition: Expression, mayPay: (Attribute, LogicalPlan, Expression) => Boolean): Boolean =
    splitConjunctivePredicates(condition).exists {
      case InListSubquery(key: Attribute, keys) => mayPay(key, keys, keys.output.head)
      case CorrelatedExists(keys, pairs) => pairs.exists { case (column, key) => mayPay(column, keys, key) }
      case _ => false
    }

  /**
   * Could the filter's literal predicates (those that convert to bloom predicates) prune at planning
   * more than Spark's own reader prunes in its task? Only where a predicate's column has bloom filters
   * in the files (`filtered`), the relation spans more than one split (planning can spare tasks, not
   * only row groups), or Spark's reader is not given the predicate (`handedToSpark`: it withholds
   * what its pushdown has lost rows on). Otherwise, one task reads the relation either way, and
   * parquet-java skips its row groups by statistics and dictionaries as planning would.
   */
  def literalsMayPay(condition: Expression, singleSplit: Boolean, filtered: String => Boolean,
      handedToSpark: Expression => Boolean): Boolean =
    splitConjunctivePredicates(condition).exists { c =>
      CatalystPredicates.convert(c).isDefined &&
      (!singleSplit || c.references.exists(a => filtered(a.name)) || !handedToSpark(c))
    }

  /** A column a join's keys could filter at runtime (traced back through renames), the join side the keys come from, and the key. */
  final case class JoinKey(column: Attribute, keys: LogicalPlan, key: Expression)

  /**
   * Every [[JoinKey]] of a plan, found in one walk: a rule that judges each relation of a plan asks
   * this once per plan, not once per relation (the walk and the renames cost more than the verdicts).
   * [[JoinKeys.mayPrune]]: could a join give the relation with `output` a runtime filter that pays? An
   * equality of one of its columns (directly, or renamed by a projection or an aggregate) with keys
   * from the join's other side where `mayPay(column, keys side, key expression)`.
   */
  final class JoinKeys private (val all: Seq[JoinKey]) {
    def mayPrune(output: Seq[Attribute], mayPay: (Attribute, LogicalPlan, Expression) => Boolean): Boolean = {
      val ours = AttributeSet(output)
      // Keys that are no rows (a branch the optimizer is still folding away, as a UNION ALL branch a
      // literal ruled out) give no filter: Spark removes their join. Sized by Spark's statistics,
      // they would look like one key and send every relation over the same files to the V2 scan.
      all.exists(k => ours.contains(k.column) && !k.keys.maxRows.contains(0L) && mayPay(k.column, k.keys, k.key))
    }
  }

  object JoinKeys {
    def of(plan: LogicalPlan): JoinKeys = {
      // An output is renamed by an alias at the top of its node's list (a Project's, an Aggregate's).
      lazy val renamed: Map[ExprId, Attribute] = plan.flatMap(_.expressions.collect {
        case a @ Alias(inner: Attribute, _) => a.exprId -> inner
      }).toMap
      def source(a: Attribute, seen: Int = 0): Attribute =
        renamed.get(a.exprId).filter(_ => seen < 64).fold(a)(inner => source(inner, seen + 1))
      new JoinKeys(plan.flatMap {
        case PrunableJoin(sides) =>
          sides.flatMap(s => s.equalities.collect { case (k: Attribute, v) => JoinKey(source(k), s.keys, v) })
        case _ => Nil
      })
    }
  }
}
