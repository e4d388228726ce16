package io.bloomparquet.pruning

import io.bloomparquet.pruning.PhysicalProbe.{AnyOf, Unknown}
import io.bloomparquet.sbbf.ParquetHash
import org.apache.parquet.schema.{LogicalTypeAnnotation => L, PrimitiveType, Types}
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName._
import org.apache.parquet.schema.Type.Repetition.OPTIONAL
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

class LiteralEncoderSuite extends munit.FunSuite {

  private def col(t: PrimitiveTypeName, a: L = null, len: Int = 0): PrimitiveType = {
    val b = Types.primitive(t, OPTIONAL).as(a)
    (if (t == FIXED_LEN_BYTE_ARRAY) b.length(len) else b).named("c")
  }
  private def hashes(p: PhysicalProbe): Seq[Long] = p match {
    case a: AnyOf => a.values.map(_.hash)
    case u: Unknown => fail(s"unexpected $u")
  }
  private def enc(t: DataType, v: Any, c: PrimitiveType) = LiteralEncoder.encode(t, IndexedSeq(v), c)

  test("integers sign-extend, and narrowing reads are refused") {
    assertEquals(hashes(enc(ByteType, (-3).toByte, col(INT32, L.intType(8, true)))), Seq(ParquetHash.int32(-3)))
    assertEquals(hashes(enc(IntegerType, 7, col(INT32))), Seq(ParquetHash.int32(7)))
    assertEquals(hashes(enc(LongType, 7L, col(INT64))), Seq(ParquetHash.int64(7L)))
    assertEquals(hashes(enc(LongType, 7L, col(INT32))), Seq(ParquetHash.int32(7)))
    assert(enc(LongType, 1L << 40, col(INT32)).isInstanceOf[Unknown])
    assert(enc(ByteType, 1.toByte, col(INT32)).isInstanceOf[Unknown]) // file INT32 read as byte may wrap
    assert(enc(IntegerType, 1, col(INT32, L.intType(32, false))).isInstanceOf[Unknown]) // unsigned
  }

  test("floating point: both zeros, NaN unknown") {
    assertEquals(hashes(enc(DoubleType, 0.0, col(DOUBLE))).toSet, Set(ParquetHash.double(0.0), ParquetHash.double(-0.0)))
    assertEquals(hashes(enc(FloatType, -0.0f, col(FLOAT))).toSet, Set(ParquetHash.float(0.0f), ParquetHash.float(-0.0f)))
    assert(enc(DoubleType, Double.NaN, col(DOUBLE)).isInstanceOf[Unknown])
    assert(enc(DoubleType, 1.0, col(FLOAT)).isInstanceOf[Unknown])
  }

  test("dates and timestamps: units, UTC flag, rebase-era values") {
    val micros = 1700000000123456L
    val utcMicros = col(INT64, L.timestampType(true, L.TimeUnit.MICROS))
    assertEquals(hashes(enc(TimestampType, micros, utcMicros)), Seq(ParquetHash.int64(micros)))
    assert(enc(TimestampNTZType, micros, utcMicros).isInstanceOf[Unknown])
    val ntzMillis = col(INT64, L.timestampType(false, L.TimeUnit.MILLIS))
    assertEquals(hashes(enc(TimestampNTZType, 1700000000123000L, ntzMillis)), Seq(ParquetHash.int64(1700000000123L)))
    assertEquals(hashes(enc(TimestampNTZType, micros, ntzMillis)), Nil) // sub-millisecond: no stored value equals it
    assert(enc(TimestampType, -3000000000000000L, utcMicros).isInstanceOf[Unknown]) // before 1900
    assert(enc(TimestampType, micros, col(INT96)).isInstanceOf[Unknown])
    assertEquals(hashes(enc(DateType, 19000, col(INT32, L.dateType()))), Seq(ParquetHash.int32(19000)))
    assert(enc(DateType, -100000, col(INT32, L.dateType())).isInstanceOf[Unknown])
  }

  test("decimals by physical type; scale must match") {
    val d = Decimal(BigDecimal("-12.34"))
    val dt = DecimalType(9, 2)
    assertEquals(hashes(enc(dt, d, col(INT32, L.decimalType(2, 9)))), Seq(ParquetHash.int32(-1234)))
    assertEquals(hashes(enc(DecimalType(18, 2), d, col(INT64, L.decimalType(2, 18)))), Seq(ParquetHash.int64(-1234L)))
    val flba = col(FIXED_LEN_BYTE_ARRAY, L.decimalType(2, 20), len = 9)
    val expected = Array.fill[Byte](9)(-1); expected(7) = 0xfb.toByte; expected(8) = 0x2e.toByte // -1234 big-endian
    assertEquals(hashes(enc(DecimalType(20, 2), d, flba)), Seq(ParquetHash.bytes(expected)))
    assert(enc(dt, d, col(INT32, L.decimalType(3, 9))).isInstanceOf[Unknown])
    assert(enc(dt, d, col(BINARY, L.decimalType(2, 9))).isInstanceOf[Unknown])
  }

  test("strings and binary hash their bytes; statistics values are Binary") {
    val s = UTF8String.fromString("日本")
    val p = enc(StringType, s, col(BINARY, L.stringType()))
    assertEquals(hashes(p), Seq(ParquetHash.bytes("日本".getBytes("UTF-8"))))
    assert(p.asInstanceOf[AnyOf].values.head.statsValue.get.isInstanceOf[org.apache.parquet.io.api.Binary])
    assertEquals(hashes(enc(BinaryType, Array[Byte](1, 2), col(FIXED_LEN_BYTE_ARRAY, len = 3))), Nil)
    assert(enc(BooleanType, true, col(BOOLEAN)).isInstanceOf[Unknown])
  }
}
