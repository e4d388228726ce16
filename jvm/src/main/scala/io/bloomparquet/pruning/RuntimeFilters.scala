package io.bloomparquet.pruning

import io.bloomparquet.schema.{ColumnResolver, SparkColumn}
import org.apache.spark.sql.connector.expressions.filter.Predicate
import org.apache.spark.sql.connector.expressions.{Literal, NamedReference}
import org.apache.spark.sql.types.StructType

/**
 * The runtime filters Spark hands a scan after planning (dynamic pruning:
 * `column IN (the join keys the other side produced)`) as a [[BloomPredicate]].
 * Only `IN` of literals of the column's exact type converts; values are
 * Catalyst internal values already. Pure; no SparkSession.
 */
object RuntimeFilters {

  def fromPredicates(predicates: Seq[Predicate], schema: StructType, caseSensitive: Boolean): Option[BloomPredicate] =
    BloomPredicate.allOf(predicates.flatMap(convert(_, schema, caseSensitive)))

  def convert(p: Predicate, schema: StructType, caseSensitive: Boolean): Option[BloomPredicate] =
    (p.name, p.children.toSeq) match {
      case ("IN", (ref: NamedReference) +: literals) if literals.forall(_.isInstanceOf[Literal[_]]) =>
        ColumnResolver.spark(schema, ref.fieldNames.toSeq, caseSensitive).toOption.flatMap { case SparkColumn(path, t) =>
          val values = literals.map(_.asInstanceOf[Literal[_]])
          if (!CatalystPredicates.supported(t) || values.exists(_.dataType != t)) None
          else Some(BloomPredicate.in(path, t, values.map(_.value)))
        }
      case _ => None
    }
}
