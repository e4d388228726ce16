package io.bloomparquet.pruning

import scala.util.Try

import io.bloomparquet.compat.CatalystValues
import io.bloomparquet.schema.{ColumnName, ColumnResolver, SparkColumn}
import org.apache.spark.sql.sources
import org.apache.spark.sql.types.StructType

/**
 * The V1 counterpart of [[CatalystPredicates]]: Spark's `sources.Filter`s (what
 * a `FileFormat` is given for catalog tables and `bloomparquet.`path`` SQL) to a
 * [[BloomPredicate]], with values converted back to Catalyst's internal form.
 * Pure; no SparkSession.
 */
object SourceFilters {

  def fromFilters(filters: Seq[sources.Filter], schema: StructType, caseSensitive: Boolean): Option[BloomPredicate] =
    BloomPredicate.allOf(filters.flatMap(convert(_, schema, caseSensitive)))

  def convert(f: sources.Filter, schema: StructType, caseSensitive: Boolean): Option[BloomPredicate] = {
    def in(attribute: String, values: Seq[Any]): Option[BloomPredicate] =
      column(attribute, schema, caseSensitive).filter(c => CatalystPredicates.supported(c.dataType)).flatMap {
        case SparkColumn(path, t) =>
          val present = values.filter(_ != null)
          val converted = present.map(v => Try(CatalystValues.toCatalyst(v)).toOption)
          if (present.exists(mayHaveLostBytes) || converted.exists(_.isEmpty)) None
          else Some(BloomPredicate.in(path, t, converted.flatten))
      }
    f match {
      case sources.And(l, r) => BloomPredicate.allOf((convert(l, schema, caseSensitive) ++ convert(r, schema, caseSensitive)).toSeq)
      case sources.Or(l, r) =>
        for (a <- convert(l, schema, caseSensitive); b <- convert(r, schema, caseSensitive)) yield BloomPredicate.anyOf(a, b)
      case sources.EqualTo(a, v) => in(a, Seq(v))
      case sources.EqualNullSafe(a, v) if v != null => in(a, Seq(v))
      case sources.In(a, vs) => in(a, vs.toSeq)
      case _ => None
    }
  }

  /**
   * Spark turned the literal's bytes into a Java `String`, replacing bytes that
   * are not UTF-8 with U+FFFD: the bytes stored may differ from those we would
   * hash, so such a value is not probed (a genuine U+FFFD is not probed either).
   */
  def mayHaveLostBytes(value: Any): Boolean = value match {
    case s: String => s.indexOf(Replacement) >= 0
    case _ => false
  }
  private val Replacement = '\uFFFD'

  /**
   * The column a V1 filter's attribute name denotes. Spark quotes the name as a
   * multipart identifier (`a.b`, `` `a.b` ``, `` `my col` ``) for sources it
   * pushes nested predicates to (`spark.sql.optimizer.nestedPredicatePushdownSupportedFileSources`);
   * to others, this one by default, it passes a top-level name as it is, and
   * never one with a dot. Both readings are tried and must agree on one column:
   * a column named `` `x` `` (backticks and all) next to one named `x` is left alone.
   */
  def column(attribute: String, schema: StructType, caseSensitive: Boolean): Option[SparkColumn] = {
    val asIs = if (attribute.contains('.')) None else Some(Seq(attribute))
    val readings = (ColumnName.parse(attribute).toOption ++ asIs).toSeq.distinct
    readings.flatMap(ColumnResolver.spark(schema, _, caseSensitive).toOption).distinct match {
      case Seq(one) => Some(one)
      case _ => None
    }
  }
}
