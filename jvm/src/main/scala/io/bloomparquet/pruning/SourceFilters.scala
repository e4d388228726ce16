package io.bloomparquet.pruning

import java.util.Locale

import scala.util.Try

import org.apache.spark.sql.catalyst.CatalystTypeConverters
import org.apache.spark.sql.catalyst.parser.CatalystSqlParser
import org.apache.spark.sql.sources
import org.apache.spark.sql.types.{DataType, StructType}

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
      column(attribute, schema, caseSensitive).filter { case (_, t) => CatalystPredicates.supported(t) }.flatMap {
        case (path, t) =>
          val converted = values.filter(_ != null).map(v => Try(CatalystTypeConverters.convertToCatalyst(v)).toOption)
          if (converted.exists(_.isEmpty)) None else Some(BloomPredicate.in(path, t, converted.flatten))
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

  /** The column path and type of a V1 filter's attribute name (dotted, back-quoted for nested fields). */
  def column(attribute: String, schema: StructType, caseSensitive: Boolean): Option[(Seq[String], DataType)] =
    columnAt(Try(CatalystSqlParser.parseMultipartIdentifier(attribute)).getOrElse(Seq(attribute)), schema, caseSensitive)

  /** The column path (as the schema spells it) and type of a name path; None when absent or ambiguous. */
  def columnAt(names: Seq[String], schema: StructType, caseSensitive: Boolean): Option[(Seq[String], DataType)] =
    names.foldLeft(Option((Seq.empty[String], schema: DataType))) {
      case (Some((path, st: StructType)), name) =>
        val hits = st.fields.filter(f => if (caseSensitive) f.name == name else f.name.toLowerCase(Locale.ROOT) == name.toLowerCase(Locale.ROOT))
        if (hits.length == 1) Some((path :+ hits.head.name, hits.head.dataType)) else None
      case _ => None
    }
}
