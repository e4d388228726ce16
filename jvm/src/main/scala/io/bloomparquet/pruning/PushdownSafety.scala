package io.bloomparquet.pruning

import java.util.Locale

import io.bloomparquet.compat.SparkCompat
import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.sources
import org.apache.spark.sql.types._

/**
 * The one judge of which data filters Spark's own Parquet pushdown may get under
 * `bloom.sparkPushdown=safe` (`options.SparkPushdown` says what each mode does with its verdict):
 * a positive list of null tests, =, <=>, IN, comparisons and string prefix/suffix/contains tests of
 * a column with literals, and And/Or/Not of those, where parquet-java, given that column's type and
 * that literal, drops only row groups Spark's own comparison finds empty, and whose path is plain.
 * Pure.
 *
 * Judged by the literal, not only the type, so that a scan withholds only what is risky in it:
 *  - strings (binary collation): safe when the literal holds no U+FFFD. Spark hands parquet-java a
 *    Java `String`; a literal whose bytes are not UTF-8 (`cast(unhex('C328') as string)`) became
 *    U+FFFD there, and the dictionary then drops row groups holding the value. A literal without
 *    U+FFFD was valid UTF-8 and round-trips to the same bytes, which parquet-java compares as Spark
 *    does (unsigned bytes).
 *  - float/double: only =, <=> and IN, outside a NOT, with literals other than NaN, and handed
 *    to Spark's reader through [[bothZeros]]: parquet-java's dictionaries compare bits (`x = 0.0`
 *    skips row groups holding only -0.0, which Spark counts equal), and writers leave NaN out of
 *    statistics, which Spark orders above every number (`x > 1.0`, `x != 1.0` would skip row
 *    groups holding NaN).
 *  - timestamps: literals that are whole milliseconds, and any literal in =, <=> and IN outside a
 *    NOT. For a file storing milliseconds Spark floors the literal, so `ts < '...00.0005'` becomes
 *    `ts < 0 ms` and skips a row group holding 0 ms ([[WidenedFilters]] hands it over rounded
 *    outwards instead). No millisecond value equals a finer literal, so an equality skips nothing
 *    that matches whatever it is floored to; under a NOT it would (`ts != '...00.0005'` skipping a
 *    row group of 0 ms only).
 *  - boolean, integral, date, decimal, binary: any literal.
 */
object PushdownSafety {

  /** Whether Catalyst `filter` is safe for Spark (the V2 scan builder); `schema` is the table's data schema. */
  def safe(filter: Expression, schema: StructType): Boolean = new Judge(schema).safe(filter, negated = false)

  /** Whether V1 source `filter` is safe for Spark (the V1 route); an attribute that resolves to no single column is not. */
  def safe(filter: sources.Filter, schema: StructType, caseSensitive: Boolean): Boolean =
    new Judge(schema).safeSource(filter, caseSensitive)

  /**
   * `filter` as Spark's reader is to get it: an equality of a float or double column with zero
   * also names the other zero (Spark's `0.0 = -0.0`; parquet-java's dictionaries tell them apart).
   * The same rows match under Spark's equality, so it also stands as the filter Spark applies after
   * the scan. Never as one IN list: Scala (and Spark, turning an IN into equalities) counts the
   * two zeros one value.
   */
  def bothZeros(filter: Expression): Expression = filter.transformUp {
    case EqualTo(c, l @ Literal(v, t)) if zero(v) => Or(EqualTo(c, l), EqualTo(c, Literal(negated(v), t)))
    case EqualTo(l @ Literal(v, t), c) if zero(v) => Or(EqualTo(c, l), EqualTo(c, Literal(negated(v), t)))
    case EqualNullSafe(c, l @ Literal(v, t)) if zero(v) => Or(EqualNullSafe(c, l), EqualNullSafe(c, Literal(negated(v), t)))
    case EqualNullSafe(l @ Literal(v, t), c) if zero(v) => Or(EqualNullSafe(c, l), EqualNullSafe(c, Literal(negated(v), t)))
    case in @ In(c, list) if list.exists { case Literal(v, _) => zero(v); case _ => false } =>
      list.collect { case Literal(v, t) if zero(v) => EqualTo(c, Literal(negated(v), t)) }.foldLeft(in: Expression)(Or)
    case in @ InSet(c, set) if set.exists(zero) =>
      set.filter(zero).map(v => EqualTo(c, Literal(negated(v), c.dataType))).foldLeft(in: Expression)(Or)
  }

  /** [[bothZeros]] of a V1 source filter. */
  def bothZeros(filter: sources.Filter): sources.Filter = filter match {
    case sources.EqualTo(a, v) if zero(v) => sources.Or(sources.EqualTo(a, v), sources.EqualTo(a, negated(v)))
    case sources.EqualNullSafe(a, v) if zero(v) => sources.Or(sources.EqualNullSafe(a, v), sources.EqualNullSafe(a, negated(v)))
    case in @ sources.In(a, vs) if vs.exists(zero) =>
      vs.filter(zero).map(v => sources.EqualTo(a, negated(v))).foldLeft(in: sources.Filter)(sources.Or)
    case sources.And(l, r) => sources.And(bothZeros(l), bothZeros(r))
    case sources.Or(l, r) => sources.Or(bothZeros(l), bothZeros(r))
    case other => other // under a NOT, floats are never handed over
  }

  private def zero(v: Any): Boolean = v match {
    case f: java.lang.Float => f.floatValue == 0f
    case d: java.lang.Double => d.doubleValue == 0d
    case _ => false
  }

  private def negated(v: Any): Any = v match {
    case f: java.lang.Float => java.lang.Float.valueOf(-f.floatValue)
    case d: java.lang.Double => java.lang.Double.valueOf(-d.doubleValue)
    case other => other
  }

  /** How a filter uses its literal. */
  sealed trait Use
  object Use {
    case object Equality extends Use // =, <=>, IN
    case object Order extends Use // <, <=, >, >=
    case object Substring extends Use // starts with, ends with, contains
  }

  /**
   * Whether parquet-java, judging `value` (Catalyst's internal form or a V1 source filter's Scala
   * form) against a column of type `t` as `use` says, under a NOT when `negated`, keeps every row
   * group that Spark's own comparison could match. Null literals compare nothing.
   */
  def safeValue(t: DataType, use: Use, value: Any, negated: Boolean): Boolean = t match {
    case s: StringType => SparkCompat.isBinaryCollation(s) && (value == null || value.toString.indexOf('\uFFFD') < 0)
    case _ if use == Use.Substring => false
    case BooleanType | ByteType | ShortType | IntegerType | LongType | DateType | BinaryType => true
    case _: DecimalType => true
    case FloatType | DoubleType => use == Use.Equality && !negated && (value == null || ordinaryFloat(value))
    case TimestampType | TimestampNTZType => value == null || wholeMillis(value) || use == Use.Equality && !negated
    case _ => false
  }

  private def ordinaryFloat(value: Any): Boolean = value match {
    case f: java.lang.Float => !f.isNaN
    case d: java.lang.Double => !d.isNaN
    case _ => false
  }

  private def wholeMillis(value: Any): Boolean = value match {
    case micros: java.lang.Long => micros.longValue % 1000L == 0L
    case t: java.sql.Timestamp => t.getNanos % 1000000 == 0
    case i: java.time.Instant => i.getNano % 1000000 == 0
    case l: java.time.LocalDateTime => l.getNano % 1000000 == 0
    case _ => false
  }

  // IS [NOT] NULL reads only null counts, whatever the values' bytes.
  private def nullTestType(t: DataType): Boolean = t match {
    case BooleanType | ByteType | ShortType | IntegerType | LongType | DateType | BinaryType => true
    case _: DecimalType | _: StringType => true
    case FloatType | DoubleType | TimestampType | TimestampNTZType => true
    case _ => false
  }

  /**
   * Dotted paths that name more than one field (top-level `a.b` next to field
   * `b` of struct `a`), in lower case: Spark and parquet-java pass column paths
   * as dotted strings in places, where the two are one.
   */
  def ambiguousPaths(schema: StructType): Set[String] = {
    def paths(t: StructType, prefix: Seq[String]): Seq[String] = t.fields.toSeq.flatMap { f =>
      val path = prefix :+ f.name
      path.mkString(".").toLowerCase(Locale.ROOT) +:
        (f.dataType match {
          case s: StructType => paths(s, path)
          case _ => Nil
        })
    }
    paths(schema, Nil).groupBy(identity).collect { case (p, same) if same.size > 1 => p }.toSet
  }

  private final class Judge(schema: StructType) {
    private lazy val ambiguous = ambiguousPaths(schema)

    private def plainPath(path: Seq[String]): Boolean =
      !path.exists(_.contains('.')) && !ambiguous.contains(path.mkString(".").toLowerCase(Locale.ROOT))

    private def column(e: Expression): Option[(Seq[String], DataType)] = e match {
      case a: Attribute => Some((Seq(a.name), a.dataType))
      case g: GetStructField => column(g.child).map { case (p, _) => (p :+ g.extractFieldName, g.dataType) }
      case _ => None
    }

    private def on(e: Expression, ok: DataType => Boolean): Boolean =
      column(e).exists { case (path, t) => ok(t) && plainPath(path) }

    private def withValues(c: Expression, use: Use, values: Iterable[Any], negated: Boolean): Boolean =
      on(c, t => values.forall(v => safeValue(t, use, v, negated)))

    private def compared(l: Expression, r: Expression, use: Use, negated: Boolean): Boolean = (l, r) match {
      case (c, Literal(v, _)) => withValues(c, use, Seq(v), negated)
      case (Literal(v, _), c) => withValues(c, use, Seq(v), negated)
      case _ => false
    }

    def safe(e: Expression, negated: Boolean): Boolean = e match {
      case And(l, r) => safe(l, negated) && safe(r, negated)
      case Or(l, r) => safe(l, negated) && safe(r, negated)
      case Not(c) => safe(c, !negated)
      case IsNull(c) => on(c, nullTestType)
      case IsNotNull(c) => on(c, nullTestType)
      case EqualTo(l, r) => compared(l, r, Use.Equality, negated)
      case EqualNullSafe(l, r) => compared(l, r, Use.Equality, negated)
      case LessThan(l, r) => compared(l, r, Use.Order, negated)
      case LessThanOrEqual(l, r) => compared(l, r, Use.Order, negated)
      case GreaterThan(l, r) => compared(l, r, Use.Order, negated)
      case GreaterThanOrEqual(l, r) => compared(l, r, Use.Order, negated)
      case StartsWith(c, Literal(v, _)) => withValues(c, Use.Substring, Seq(v), negated)
      case EndsWith(c, Literal(v, _)) => withValues(c, Use.Substring, Seq(v), negated)
      case Contains(c, Literal(v, _)) => withValues(c, Use.Substring, Seq(v), negated)
      case In(c, list) if list.forall(_.isInstanceOf[Literal]) =>
        withValues(c, Use.Equality, list.map(_.asInstanceOf[Literal].value), negated)
      case InSet(c, set) => withValues(c, Use.Equality, set, negated)
      case c @ (_: Attribute | _: GetStructField) => c.dataType == BooleanType && on(c, _ == BooleanType) // `WHERE flag`
      case _ => false
    }

    def safeSource(f: sources.Filter, caseSensitive: Boolean): Boolean = {
      def on(attribute: String, ok: DataType => Boolean) =
        SourceFilters.column(attribute, schema, caseSensitive).exists(c => ok(c.dataType) && plainPath(c.path))
      def valued(attribute: String, use: Use, values: Iterable[Any], negated: Boolean) =
        on(attribute, t => values.forall(v => safeValue(t, use, v, negated)))
      def go(f: sources.Filter, negated: Boolean): Boolean = f match {
        case sources.And(l, r) => go(l, negated) && go(r, negated)
        case sources.Or(l, r) => go(l, negated) && go(r, negated)
        case sources.Not(c) => go(c, !negated)
        case sources.IsNull(a) => on(a, nullTestType)
        case sources.IsNotNull(a) => on(a, nullTestType)
        case sources.EqualTo(a, v) => valued(a, Use.Equality, Seq(v), negated)
        case sources.EqualNullSafe(a, v) => valued(a, Use.Equality, Seq(v), negated)
        case sources.LessThan(a, v) => valued(a, Use.Order, Seq(v), negated)
        case sources.LessThanOrEqual(a, v) => valued(a, Use.Order, Seq(v), negated)
        case sources.GreaterThan(a, v) => valued(a, Use.Order, Seq(v), negated)
        case sources.GreaterThanOrEqual(a, v) => valued(a, Use.Order, Seq(v), negated)
        case sources.In(a, vs) => valued(a, Use.Equality, vs.toSeq, negated)
        case sources.StringStartsWith(a, v) => valued(a, Use.Substring, Seq(v), negated)
        case sources.StringEndsWith(a, v) => valued(a, Use.Substring, Seq(v), negated)
        case sources.StringContains(a, v) => valued(a, Use.Substring, Seq(v), negated)
        case _ => false
      }
      go(f, negated = false)
    }
  }
}
