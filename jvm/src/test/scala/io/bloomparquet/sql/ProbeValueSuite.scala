package io.bloomparquet.sql

import io.bloomparquet.pruning.LiteralEncoder
import io.bloomparquet.pruning.PhysicalProbe.{AnyOf, Unknown}
import io.bloomparquet.sbbf.ParquetHash
import org.apache.parquet.schema.{LogicalTypeAnnotation, PrimitiveType, Types}
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName._
import org.apache.parquet.schema.Type.Repetition.OPTIONAL
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

/** SQL constants reach the encoder as the column's type where that is exact, and only then. */
class ProbeValueSuite extends munit.FunSuite {
  private val int64 = Types.primitive(INT64, OPTIONAL).named("l")
  private val int32 = Types.primitive(INT32, OPTIONAL).named("i")
  private def decimal(p: Int, s: Int, physical: PrimitiveType.PrimitiveTypeName) =
    Types.primitive(physical, OPTIONAL).as(LogicalTypeAnnotation.decimalType(s, p)).named("d")
  private val date = Types.primitive(INT32, OPTIONAL).as(LogicalTypeAnnotation.dateType()).named("dt")

  private def hashes(t: DataType, v: Any, c: PrimitiveType): Option[Seq[Long]] = {
    val (ct, cv) = ProbeValue.coerce(t, v, c)
    LiteralEncoder.encode(ct, IndexedSeq(cv), c) match {
      case a: AnyOf => Some(a.hashes.toSeq)
      case _: Unknown => None
    }
  }

  test("an INT constant probes BIGINT and INT columns; a BIGINT one an INT column only if it fits") {
    assertEquals(hashes(IntegerType, 5, int64), Some(Seq(ParquetHash.int64(5L))))
    assertEquals(hashes(LongType, 5L, int32), Some(Seq(ParquetHash.int32(5))))
    assertEquals(hashes(LongType, 1L << 40, int32), None)
  }

  test("decimals and integers rescale exactly to the column's decimal, else are left to the encoder") {
    val d92 = decimal(9, 2, INT32)
    assertEquals(hashes(DecimalType(3, 1), Decimal(BigDecimal("12.5"), 3, 1), d92), Some(Seq(ParquetHash.int32(1250))))
    assertEquals(hashes(IntegerType, 7, d92), Some(Seq(ParquetHash.int32(700))))
    assertEquals(hashes(LongType, 12L, decimal(18, 3, INT64)), Some(Seq(ParquetHash.int64(12000L))))
    // 1.234 has more digits than scale 2: not rescaled, and the encoder cannot say.
    assertEquals(hashes(DecimalType(4, 3), Decimal(BigDecimal("1.234"), 4, 3), d92), None)
    // Too many digits for precision 9.
    assertEquals(hashes(LongType, 10000000000L, d92), None)
  }

  test("other types pass unchanged: a DATE constant probes a DATE column, an INT one does not, nor a string") {
    assertEquals(hashes(DateType, 7305, date), Some(Seq(ParquetHash.int32(7305))))
    assertEquals(hashes(IntegerType, 7305, date), None)
    assertEquals(hashes(StringType, UTF8String.fromString("5"), int64), None)
  }
}
