package io.bloomparquet.write

import java.util.Locale

import io.bloomparquet.options.{BloomColumn, OptionRegistry, OptionSpec, OptionValidator}
import io.bloomparquet.schema.{ColumnName, ColumnResolver, SparkColumn, Unresolved}
import org.apache.spark.sql.types._

/**
 * The write options, typed and checked against the data's schema before any data is
 * written (in `write`: `options` knows keys and values, not schemas). What each
 * means, its default and what it accepts: [[OptionRegistry]] (docs/writing.md,
 * "Options"). Column names follow `spark.sql.caseSensitive`.
 *
 * Supported column types: byte, short, int, long, float, double, decimal, string,
 * binary, date, timestamp (unless `spark.sql.parquet.outputTimestampType=INT96`),
 * timestamp_ntz, and such fields inside structs. Not: boolean (no hash in the spec),
 * INT96 timestamps, arrays, maps, variant and other types.
 */
object BloomWriteOptions {
  private val Columns = OptionRegistry.Columns.key

  /**
   * The columns to write filters for, or an `IllegalArgumentException` naming the
   * option and what it accepts.
   *
   * @param timestampType value of `spark.sql.parquet.outputTimestampType` (INT96 has no filter)
   */
  def parse(options: Map[String, String], schema: StructType, caseSensitive: Boolean,
      timestampType: String): Seq[BloomColumn] = {
    val valid = OptionValidator.validate(options)
    val names = valid.find(OptionRegistry.Columns).getOrElse(Nil)
    val resolved = names.map(n => n -> resolve(n, schema, caseSensitive, timestampType))
      .foldLeft(Vector.empty[(String, Seq[String])])((kept, r) => if (kept.exists(_._2 == r._2)) kept else kept :+ r)
    // Per-column keys were lower-cased with the rest: match them without case.
    def perColumn[T](spec: OptionSpec[T]): Map[Seq[String], T] = valid.perColumn(spec).map { case (key, col, value) =>
      val parts = ColumnName.parts(col)
      val target = resolved.find(_._2.map(_.toLowerCase(Locale.ROOT)) == parts.map(_.toLowerCase(Locale.ROOT)))
        .getOrElse(fail(s"option '$key' names column '$col', which is not in $Columns (${names.mkString(", ")})"))
      target._2 -> value
    }.toMap
    val fpps = perColumn(OptionRegistry.ColumnFpp)
    val ndvs = perColumn(OptionRegistry.ColumnNdv)
    resolved.map { case (_, path) =>
      BloomColumn(
        path = path,
        fpp = fpps.getOrElse(path, valid.get(OptionRegistry.Fpp)),
        ndv = ndvs.get(path),
        sizing = valid.get(OptionRegistry.SizingKey),
        foldMaxNdv = valid.get(OptionRegistry.FoldMaxNdv))
    }
  }

  private def fail(msg: String): Nothing = OptionSpec.fail(msg)

  /** The Parquet path of column `name` in `schema`, checked to be a supported leaf. */
  def resolve(name: String, schema: StructType, caseSensitive: Boolean, timestampType: String): Seq[String] = {
    val parts = ColumnName.parse(name).getOrElse(fail(s"option '$Columns': cannot parse column name '$name'"))
    val SparkColumn(path, leaf) = ColumnResolver.spark(schema, parts, caseSensitive).fold({
        case Unresolved.NotAStruct(at) =>
          fail(s"option '$Columns': '$name' goes inside ${at.mkString(".")}, which is not a struct " +
            "(arrays and maps are not supported)")
        case Unresolved.Missing(at, fields) =>
          fail(s"option '$Columns': unknown column '$name'; the columns are ${fields.mkString(", ")}" +
            (if (at.isEmpty) " (partition columns are not stored in the files)" else ""))
        case Unresolved.Ambiguous(_, matches) => fail(s"option '$Columns': '$name' is ambiguous: ${matches.mkString(", ")}")
      }, identity)
    checkType(name, leaf, timestampType)
    path
  }

  /**
   * Fails unless Spark writes a column `name` of type `leaf` as a Parquet type with a bloom filter hash;
   * `timestampType` is `spark.sql.parquet.outputTimestampType` (INT96 has none).
   */
  def checkType(name: String, leaf: DataType, timestampType: String): Unit = {
    val desc = s"option '$Columns': column '$name' has type ${leaf.simpleString}"
    leaf match {
      case ByteType | ShortType | IntegerType | LongType | FloatType | DoubleType | DateType |
          BinaryType | TimestampNTZType => ()
      case _: DecimalType | _: StringType | _: CharType | _: VarcharType => ()
      case TimestampType =>
        if (timestampType.equalsIgnoreCase("INT96"))
          fail(s"$desc, which Spark writes as INT96 (spark.sql.parquet.outputTimestampType=INT96); INT96 has no bloom " +
            "filter. Set spark.sql.parquet.outputTimestampType to TIMESTAMP_MICROS or TIMESTAMP_MILLIS")
      case BooleanType => fail(s"$desc: the Parquet spec defines no bloom filter hash for booleans")
      case _: StructType => fail(s"$desc: name its fields instead, e.g. '$name.${leaf.asInstanceOf[StructType].fieldNames.head}'")
      case _: ArrayType | _: MapType => fail(s"$desc: arrays and maps are not supported (only struct fields)")
      case _ => fail(s"$desc, which is not supported; supported: byte, short, int, long, float, double, decimal, " +
          "string, binary, date, timestamp (not INT96), timestamp_ntz, and those inside structs")
    }
  }
}
