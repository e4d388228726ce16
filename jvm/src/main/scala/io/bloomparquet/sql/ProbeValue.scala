package io.bloomparquet.sql

import org.apache.parquet.schema.LogicalTypeAnnotation.{DecimalLogicalTypeAnnotation, IntLogicalTypeAnnotation}
import org.apache.parquet.schema.PrimitiveType
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.{INT32, INT64}
import org.apache.spark.sql.types._

/**
 * A SQL constant brought to the Spark type [[io.bloomparquet.pruning.LiteralEncoder]]
 * expects for a file column, where that is exact: `5` probes a BIGINT column and
 * `1.5` a DECIMAL(9,2) one, as `col = 5` would after Spark's casts. Anything else
 * is left as given, and the encoder answers Unknown for a type that does not fit.
 */
object ProbeValue {

  private def integral(v: Any): Option[Long] = v match {
    case b: Byte => Some(b.toLong)
    case s: Short => Some(s.toLong)
    case i: Int => Some(i.toLong)
    case l: Long => Some(l)
    case _ => None
  }

  /** (type, Catalyst value) to encode for `column`; `t` and `v` are the constant's. */
  def coerce(t: DataType, v: Any, column: PrimitiveType): (DataType, Any) = {
    val isIntegral = t match { case ByteType | ShortType | IntegerType | LongType => true; case _ => false }
    (column.getLogicalTypeAnnotation, column.getPrimitiveTypeName) match {
      // The encoder takes a long for INT32 (if it fits) and INT64 columns of plain or signed INT type.
      case (null | _: IntLogicalTypeAnnotation, INT32 | INT64) if isIntegral => (LongType, integral(v).get)
      case (d: DecimalLogicalTypeAnnotation, _) if isIntegral || t.isInstanceOf[DecimalType] =>
        val exact = integral(v).map(java.math.BigDecimal.valueOf)
          .getOrElse(v.asInstanceOf[Decimal].toJavaBigDecimal)
        scala.util.Try(exact.setScale(d.getScale)).toOption.filter(_.precision <= d.getPrecision) match {
          case Some(b) => (DecimalType(d.getPrecision, d.getScale), Decimal(b, d.getPrecision, d.getScale))
          case None => (t, v) // more digits than the column stores: the encoder decides
        }
      case _ => (t, v)
    }
  }
}
