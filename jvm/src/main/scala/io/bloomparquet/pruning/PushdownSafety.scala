package io.bloomparquet.pruning

import java.util.Locale

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.sources
import org.apache.spark.sql.types._

/**
 * The one judge of which data filters Spark's own Parquet pushdown may get under
 * `bloom.sparkPushdown=safe` (`options.SparkPushdown` says what each mode does with its verdict):
 * a positive list of null tests, =, <=>, IN and comparisons of a column with literals, and
 * And/Or/Not of those, on a column whose type is on [[safeType]] and whose path is plain. Pure.
 */
object PushdownSafety {

  /** Whether Catalyst `filter` is safe for Spark (the V2 scan builder); `schema` is the table's data schema. */
  def safe(filter: Expression, schema: StructType): Boolean = new Judge(schema).safe(filter)

  /** Whether V1 source `filter` is safe for Spark (the V1 route); an attribute that resolves to no single column is not. */
  def safe(filter: sources.Filter, schema: StructType, caseSensitive: Boolean): Boolean =
    new Judge(schema).safeSource(filter, caseSensitive)

  /**
   * Types Spark's Parquet pushdown judges as Spark does (differential tests).
   * Not strings: Spark hands parquet-java a Java `String`, in which stored bytes
   * that are not UTF-8 (`cast(unhex('C328') as string)`) became U+FFFD, so it
   * drops row groups holding the value. Not float/double: parquet-java compares
   * bits, so `x = 0.0` skips row groups holding only -0.0. Not timestamps: for a
   * file storing milliseconds Spark floors the literal, so `ts < '...00.0005'`
   * becomes `ts < 0 ms` and skips a row group holding 0 ms. Not binary: untested.
   */
  def safeType(t: DataType): Boolean = t match {
    case BooleanType | ByteType | ShortType | IntegerType | LongType | DateType => true
    case _: DecimalType => true
    case _ => false
  }

  // IS [NOT] NULL reads only null counts, whatever the values' bytes.
  private def nullTestType(t: DataType): Boolean = safeType(t) ||
    (t match {
      case StringType | BinaryType | FloatType | DoubleType | TimestampType | TimestampNTZType => true
      case _ => false
    })

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

    private def compared(l: Expression, r: Expression): Boolean = (l, r) match {
      case (c, _: Literal) => on(c, safeType)
      case (_: Literal, c) => on(c, safeType)
      case _ => false
    }

    def safe(e: Expression): Boolean = e match {
      case And(l, r) => safe(l) && safe(r)
      case Or(l, r) => safe(l) && safe(r)
      case Not(c) => safe(c)
      case IsNull(c) => on(c, nullTestType)
      case IsNotNull(c) => on(c, nullTestType)
      case EqualTo(l, r) => compared(l, r)
      case EqualNullSafe(l, r) => compared(l, r)
      case LessThan(l, r) => compared(l, r)
      case LessThanOrEqual(l, r) => compared(l, r)
      case GreaterThan(l, r) => compared(l, r)
      case GreaterThanOrEqual(l, r) => compared(l, r)
      case In(c, list) => list.forall(_.isInstanceOf[Literal]) && on(c, safeType)
      case InSet(c, _) => on(c, safeType)
      case c @ (_: Attribute | _: GetStructField) => c.dataType == BooleanType && on(c, safeType) // `WHERE flag`
      case _ => false
    }

    def safeSource(f: sources.Filter, caseSensitive: Boolean): Boolean = {
      def on(attribute: String, ok: DataType => Boolean) =
        SourceFilters.column(attribute, schema, caseSensitive).exists(c => ok(c.dataType) && plainPath(c.path))
      def go(f: sources.Filter): Boolean = f match {
        case sources.And(l, r) => go(l) && go(r)
        case sources.Or(l, r) => go(l) && go(r)
        case sources.Not(c) => go(c)
        case sources.IsNull(a) => on(a, nullTestType)
        case sources.IsNotNull(a) => on(a, nullTestType)
        case sources.EqualTo(a, _) => on(a, safeType)
        case sources.EqualNullSafe(a, _) => on(a, safeType)
        case sources.LessThan(a, _) => on(a, safeType)
        case sources.LessThanOrEqual(a, _) => on(a, safeType)
        case sources.GreaterThan(a, _) => on(a, safeType)
        case sources.GreaterThanOrEqual(a, _) => on(a, safeType)
        case sources.In(a, _) => on(a, safeType)
        case _ => false
      }
      go(f)
    }
  }
}
