package io.bloomparquet.pruning

import io.bloomparquet.compat.SparkCompat
import org.apache.spark.sql.catalyst.expressions.{And, Attribute, EqualNullSafe, EqualTo, Expression, GetStructField, In, InSet, Literal, Or}
import org.apache.spark.sql.types._

/**
 * Turns the data filters Spark pushes to a scan into a [[BloomPredicate]]:
 * `=`, `<=>` (non-null literal), `IN`/`InSet`, OR of those, AND across them, on
 * top-level columns and struct leaves. Pure; no SparkSession.
 *
 * Only `column op literal` of the column's exact type converts: a cast on the
 * column (Spark's own comparison semantics apply) or a string with a
 * non-binary collation keeps the row group. In an AND, unconvertible conjuncts
 * are dropped (the rest is still necessary); an OR needs every branch.
 */
object CatalystPredicates {

  def fromFilters(filters: Seq[Expression]): Option[BloomPredicate] = BloomPredicate.allOf(filters.flatMap(convert))

  def convert(e: Expression): Option[BloomPredicate] = e match {
    case And(l, r) => BloomPredicate.allOf(convert(l).toSeq ++ convert(r).toSeq)
    case Or(l, r) => for (a <- convert(l); b <- convert(r)) yield BloomPredicate.anyOf(a, b)
    case EqualTo(Column(path, t), Literal(v, lt)) if probeable(t, lt) => Some(BloomPredicate.in(path, t, Seq(v)))
    case EqualTo(Literal(v, lt), Column(path, t)) if probeable(t, lt) => Some(BloomPredicate.in(path, t, Seq(v)))
    // `x <=> NULL` is `x IS NULL`: not a bloom question.
    case EqualNullSafe(Column(path, t), Literal(v, lt)) if v != null && probeable(t, lt) => Some(BloomPredicate.in(path, t, Seq(v)))
    case EqualNullSafe(Literal(v, lt), Column(path, t)) if v != null && probeable(t, lt) => Some(BloomPredicate.in(path, t, Seq(v)))
    case In(Column(path, t), list) if list.forall(l => l.isInstanceOf[Literal] && probeable(t, l.dataType)) =>
      Some(BloomPredicate.in(path, t, list.map(_.asInstanceOf[Literal].value)))
    case InSet(Column(path, t), set) if probeable(t, t) => Some(BloomPredicate.in(path, t, set.toSeq))
    case _ => None
  }

  private def probeable(columnType: DataType, literalType: DataType): Boolean =
    columnType == literalType && supported(columnType)

  /** Types whose Spark equality is equality of one (or, for +-0.0, two) PLAIN encodings. */
  def supported(t: DataType): Boolean = t match {
    case ByteType | ShortType | IntegerType | LongType | FloatType | DoubleType => true
    case _: DecimalType | DateType | TimestampType | TimestampNTZType | BinaryType => true
    case s: StringType => SparkCompat.isBinaryCollation(s)
    case _ => false
  }

  /** A top-level column or a chain of struct fields below one: its name path. */
  object Column {
    def unapply(e: Expression): Option[(Seq[String], DataType)] = e match {
      case a: Attribute => Some((Seq(a.name), a.dataType))
      case g @ GetStructField(child, _, _) =>
        unapply(child).map { case (path, _) => (path :+ g.extractFieldName, g.dataType) }
      case _ => None
    }
  }
}
