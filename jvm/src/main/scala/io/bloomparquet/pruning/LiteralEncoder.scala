package io.bloomparquet.pruning

import java.math.BigInteger

import io.bloomparquet.pruning.PhysicalProbe.{AnyOf, Unknown}
import io.bloomparquet.sbbf.ParquetHash
import org.apache.parquet.schema.LogicalTypeAnnotation._
import org.apache.parquet.schema.PrimitiveType
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName._
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

/**
 * Encodes Catalyst literal values the way a given Parquet column stores them,
 * so that Spark's equality on the read type equals equality of the stored
 * PLAIN bytes. Anything where that is not certain is [[PhysicalProbe.Unknown]].
 *
 *  - Integers: INT32/INT64 with no annotation or a signed INT annotation no
 *    wider than the read type (a narrowing read would wrap); byte/short/int
 *    sign-extend to INT32; a long in an INT32 file only if it fits.
 *  - DATE / TIMESTAMP(MICROS|MILLIS) / TIMESTAMP_NTZ: only from 1900-01-01 on,
 *    where Spark's Julian/Gregorian rebasing of legacy files is the identity;
 *    the UTC-adjusted flag must match LTZ vs NTZ. INT96 is never probed.
 *  - FLOAT/DOUBLE: the raw bits; 0.0 also probes -0.0 (Spark: -0.0 = 0.0);
 *    NaN is Unknown (Spark: NaN = NaN, but NaN bit patterns vary).
 *  - STRING (binary collation) / BINARY: the bytes.
 *  - DECIMAL: only when the file's scale equals the read type's and its
 *    precision is no larger; the unscaled
 *    value as INT32, INT64 or a big-endian FIXED_LEN_BYTE_ARRAY. BYTE_ARRAY
 *    decimals have no canonical width: Unknown.
 */
object LiteralEncoder {

  /** 1900-01-01 as days and microseconds since the epoch. */
  private val MinDay = -25567
  private val MinMicros = MinDay * 86400L * 1000000L

  def encode(sparkType: DataType, values: IndexedSeq[Any], column: PrimitiveType): PhysicalProbe = {
    val out = IndexedSeq.newBuilder[PhysicalValue]
    val it = values.iterator
    while (it.hasNext) {
      encodeOne(sparkType, it.next(), column) match {
        case Right(vs) => out ++= vs
        case Left(reason) => return Unknown(reason)
      }
    }
    AnyOf(out.result())
  }

  private type Result = Either[String, Seq[PhysicalValue]]

  private def int32(v: Int): Seq[PhysicalValue] = Seq(PhysicalValue(ParquetHash.int32(v), Some(Integer.valueOf(v))))
  private def int64(v: Long): Seq[PhysicalValue] = Seq(PhysicalValue(ParquetHash.int64(v), Some(java.lang.Long.valueOf(v))))
  private def bytes(b: Array[Byte]): Seq[PhysicalValue] = Seq(PhysicalValue(ParquetHash.bytes(b), Some(PhysicalProbe.binary(b))))
  private def unknown(what: String, column: PrimitiveType): Result = Left(s"$what in ${describe(column)}")

  private def describe(c: PrimitiveType): String =
    s"${c.getPrimitiveTypeName}${Option(c.getLogicalTypeAnnotation).fold("")(a => s" ($a)")}"

  /** No annotation, or a signed INT no wider than the read type: a narrowing read could wrap values. */
  private def signedIntAtMost(bits: Int, c: PrimitiveType): Boolean = c.getLogicalTypeAnnotation match {
    case null => bits >= (if (c.getPrimitiveTypeName == INT64) 64 else 32)
    case i: IntLogicalTypeAnnotation => i.isSigned && i.getBitWidth <= bits
    case _ => false
  }

  private def encodeOne(t: DataType, v: Any, c: PrimitiveType): Result = (t, c.getPrimitiveTypeName) match {
    case (ByteType, INT32) if signedIntAtMost(8, c) => Right(int32(v.asInstanceOf[Byte].toInt))
    case (ShortType, INT32) if signedIntAtMost(16, c) => Right(int32(v.asInstanceOf[Short].toInt))
    case (IntegerType, INT32) if signedIntAtMost(32, c) => Right(int32(v.asInstanceOf[Int]))
    case (LongType, INT64) if signedIntAtMost(64, c) => Right(int64(v.asInstanceOf[Long]))
    case (LongType, INT32) if signedIntAtMost(32, c) =>
      val l = v.asInstanceOf[Long]
      if (l.isValidInt) Right(int32(l.toInt)) else unknown(s"long $l outside int range", c)

    case (DateType, INT32) if c.getLogicalTypeAnnotation.isInstanceOf[DateLogicalTypeAnnotation] =>
      val d = v.asInstanceOf[Int]
      if (d >= MinDay) Right(int32(d)) else unknown("date before 1900 (rebase)", c)

    case (TimestampType | TimestampNTZType, INT64) =>
      (c.getLogicalTypeAnnotation, v.asInstanceOf[Long]) match {
        case (ts: TimestampLogicalTypeAnnotation, micros) if ts.isAdjustedToUTC == (t == TimestampType) =>
          if (micros < MinMicros) unknown("timestamp before 1900 (rebase)", c)
          else ts.getUnit match {
            case TimeUnit.MICROS => Right(int64(micros))
            // Spark reads millis * 1000: a literal with sub-milli digits matches nothing.
            case TimeUnit.MILLIS => Right(if (micros % 1000 == 0) int64(micros / 1000) else Nil)
            case TimeUnit.NANOS => unknown("nanosecond timestamp", c)
          }
        case _ => unknown(s"$t", c)
      }

    case (FloatType, FLOAT) =>
      val f = v.asInstanceOf[Float]
      if (f.isNaN) unknown("NaN", c)
      else if (f == 0.0f) Right(Seq(0.0f, -0.0f).map(z => PhysicalValue(ParquetHash.float(z), None)))
      else Right(Seq(PhysicalValue(ParquetHash.float(f), None)))
    case (DoubleType, DOUBLE) =>
      val d = v.asInstanceOf[Double]
      if (d.isNaN) unknown("NaN", c)
      else if (d == 0.0) Right(Seq(0.0, -0.0).map(z => PhysicalValue(ParquetHash.double(z), None)))
      else Right(Seq(PhysicalValue(ParquetHash.double(d), None)))

    case (_: StringType, BINARY) => c.getLogicalTypeAnnotation match {
        case null | _: StringLogicalTypeAnnotation | _: EnumLogicalTypeAnnotation | _: JsonLogicalTypeAnnotation =>
          Right(bytes(v.asInstanceOf[UTF8String].getBytes))
        case _ => unknown("string", c)
      }
    case (BinaryType, BINARY) if c.getLogicalTypeAnnotation == null => Right(bytes(v.asInstanceOf[Array[Byte]]))
    case (BinaryType, FIXED_LEN_BYTE_ARRAY) if c.getLogicalTypeAnnotation == null =>
      val b = v.asInstanceOf[Array[Byte]]
      Right(if (b.length == c.getTypeLength) bytes(b) else Nil)

    case (dt: DecimalType, physical) => c.getLogicalTypeAnnotation match {
        case d: DecimalLogicalTypeAnnotation if d.getScale == dt.scale && d.getPrecision <= dt.precision =>
          // The unscaled value at the file's scale; a value with more digits can't be stored there.
          val exact = scala.util.Try(v.asInstanceOf[Decimal].toJavaBigDecimal.setScale(d.getScale)).toOption
          if (exact.isEmpty) return Right(Nil)
          val unscaled = exact.get.unscaledValue
          physical match {
            case INT32 => Right(if (unscaled.bitLength < 32) int32(unscaled.intValue) else Nil)
            case INT64 => Right(if (unscaled.bitLength < 64) int64(unscaled.longValue) else Nil)
            case FIXED_LEN_BYTE_ARRAY => Right(fixedBigEndian(unscaled, c.getTypeLength).map(bytes).getOrElse(Nil))
            case _ => unknown("decimal", c)
          }
        case _ => unknown(s"$dt", c)
      }

    case _ => unknown(s"$t", c)
  }

  /** Two's complement, big-endian, sign-extended to `width` bytes; None if it doesn't fit. */
  def fixedBigEndian(unscaled: BigInteger, width: Int): Option[Array[Byte]] = {
    val minimal = unscaled.toByteArray
    if (minimal.length > width) None
    else {
      val out = Array.fill[Byte](width)(if (unscaled.signum < 0) -1 else 0)
      System.arraycopy(minimal, 0, out, width - minimal.length, minimal.length)
      Some(out)
    }
  }
}
