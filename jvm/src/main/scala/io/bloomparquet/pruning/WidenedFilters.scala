package io.bloomparquet.pruning

import java.time.temporal.ChronoUnit

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.sources
import org.apache.spark.sql.types._

/**
 * A data filter [[PushdownSafety]] finds unsafe for Spark's Parquet reader, widened into one that
 * is safe and holds for every row the original holds: Spark's reader may then skip by it what it
 * safely can, and Spark still applies the original after the scan.
 *
 * The one widening: a timestamp ordering against a literal that is not a whole millisecond. For a
 * file storing milliseconds, Spark's reader floors the literal, so `ts < 0.5 ms` becomes `ts < 0 ms`
 * and skips a row group holding 0 ms. Rounded outwards instead (an upper bound up, a lower bound
 * down, to whole milliseconds) it is exact for such files and a superset for finer ones. And and
 * Or widen where both sides do (a filter with another withheld part stays withheld whole, as
 * before); nothing under a Not widens. Pure.
 */
object WidenedFilters {

  /** `filter` or a superset of it safe for Spark's reader (the V2 scan builder), if one is. */
  def of(filter: Expression, schema: StructType): Option[Expression] =
    if (PushdownSafety.safe(filter, schema)) Some(filter)
    else {
      val widened = filter match {
        case And(l, r) => for (a <- of(l, schema); b <- of(r, schema)) yield And(a, b)
        case Or(l, r) => for (a <- of(l, schema); b <- of(r, schema)) yield Or(a, b)
        case LessThan(c, Micros(v, t)) => Some(LessThan(c, Literal(up(v), t)))
        case LessThanOrEqual(c, Micros(v, t)) => Some(LessThanOrEqual(c, Literal(up(v), t)))
        case GreaterThan(c, Micros(v, t)) => Some(GreaterThan(c, Literal(down(v), t)))
        case GreaterThanOrEqual(c, Micros(v, t)) => Some(GreaterThanOrEqual(c, Literal(down(v), t)))
        case LessThan(Micros(v, t), c) => Some(LessThan(Literal(down(v), t), c))
        case LessThanOrEqual(Micros(v, t), c) => Some(LessThanOrEqual(Literal(down(v), t), c))
        case GreaterThan(Micros(v, t), c) => Some(GreaterThan(Literal(up(v), t), c))
        case GreaterThanOrEqual(Micros(v, t), c) => Some(GreaterThanOrEqual(Literal(up(v), t), c))
        case _ => None
      }
      widened.filter(PushdownSafety.safe(_, schema))
    }

  /** [[of]] for a V1 source filter (the V1 format, a table format's). */
  def of(filter: sources.Filter, schema: StructType, caseSensitive: Boolean): Option[sources.Filter] =
    if (PushdownSafety.safe(filter, schema, caseSensitive)) Some(filter)
    else {
      def go(f: sources.Filter) = of(f, schema, caseSensitive)
      val widened = filter match {
        case sources.And(l, r) => for (a <- go(l); b <- go(r)) yield sources.And(a, b)
        case sources.Or(l, r) => for (a <- go(l); b <- go(r)) yield sources.Or(a, b)
        case sources.LessThan(a, v) => rounded(v, upwards = true).map(sources.LessThan(a, _))
        case sources.LessThanOrEqual(a, v) => rounded(v, upwards = true).map(sources.LessThanOrEqual(a, _))
        case sources.GreaterThan(a, v) => rounded(v, upwards = false).map(sources.GreaterThan(a, _))
        case sources.GreaterThanOrEqual(a, v) => rounded(v, upwards = false).map(sources.GreaterThanOrEqual(a, _))
        case _ => None
      }
      widened.filter(PushdownSafety.safe(_, schema, caseSensitive))
    }

  /** A timestamp literal (microseconds) that is not a whole millisecond. */
  private object Micros {
    def unapply(e: Expression): Option[(Long, DataType)] = e match {
      case Literal(v: Long, t @ (TimestampType | TimestampNTZType)) if v % 1000L != 0L => Some((v, t))
      case _ => None
    }
  }

  private def down(micros: Long): Long = Math.floorDiv(micros, 1000L) * 1000L
  private def up(micros: Long): Long = down(micros) + 1000L

  // A V1 source filter's timestamp value, rounded to a whole millisecond; None for another value.
  private def rounded(value: Any, upwards: Boolean): Option[Any] = value match {
    case t: java.sql.Timestamp if t.getNanos % 1000000 != 0 =>
      // getTime is the floor in milliseconds: the nanoseconds field is a positive fraction of a second.
      Some(new java.sql.Timestamp(t.getTime + (if (upwards) 1L else 0L)))
    case i: java.time.Instant if i.getNano % 1000000 != 0 =>
      val floor = i.truncatedTo(ChronoUnit.MILLIS)
      Some(if (upwards) floor.plusMillis(1) else floor)
    case l: java.time.LocalDateTime if l.getNano % 1000000 != 0 =>
      val floor = l.truncatedTo(ChronoUnit.MILLIS)
      Some(if (upwards) floor.plus(1, ChronoUnit.MILLIS) else floor)
    case _ => None
  }
}
