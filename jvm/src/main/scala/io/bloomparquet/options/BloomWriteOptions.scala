package io.bloomparquet.options

import java.util.Locale

import scala.util.Try

import io.bloomparquet.schema.{ColumnName, ColumnResolver, SparkColumn, Unresolved}
import org.apache.spark.sql.catalyst.util.AttributeNameParser
import org.apache.spark.sql.types._

/**
 * The write options, checked before any data is written. Keys are
 * case-insensitive; column names follow `spark.sql.caseSensitive`.
 *
 * | key                    | value                                   | default |
 * |------------------------|-----------------------------------------|---------|
 * | `bloom.columns`        | comma-separated columns; `a.b` is field `b` of struct `a`, backticks quote dots | none (no filters) |
 * | `bloom.fpp`            | false-positive probability in (0, 1)    | 0.01    |
 * | `bloom.fpp.<column>`   | FPP for one column                      | `bloom.fpp` |
 * | `bloom.ndv.<column>`   | distinct values per row group (integer >= 1): size for it instead of counting | counted |
 * | `bloom.sizing`         | `exact` (count distinct values per row group) or `fold` (fold one large filter) | `exact` |
 * | `bloom.fold.maxndv`    | `fold` only: distinct values the initial filter is sized for | 4194304 |
 *
 * Supported column types: byte, short, int, long, float, double, decimal, string,
 * binary, date, timestamp (unless `spark.sql.parquet.outputTimestampType=INT96`),
 * timestamp_ntz, and such fields inside structs. Not: boolean (no hash in the spec),
 * INT96 timestamps, arrays, maps, variant and other types.
 */
object BloomWriteOptions {
  val Columns = "bloom.columns"
  val Fpp = "bloom.fpp"
  val FppPrefix = "bloom.fpp."
  val NdvPrefix = "bloom.ndv."
  val SizingKey = "bloom.sizing"
  val FoldMaxNdv = "bloom.fold.maxndv"
  val DefaultFpp = 0.01

  private val Known = Seq(Columns, Fpp, FppPrefix + "<column>", NdvPrefix + "<column>", SizingKey, FoldMaxNdv)

  /** A write option key (lower case); reads accept these too, so one OPTIONS clause serves both. */
  def isWriteKey(k: String): Boolean =
    Set(Columns, Fpp, SizingKey, FoldMaxNdv)(k) || (k.startsWith(FppPrefix) && k.length > FppPrefix.length) ||
      (k.startsWith(NdvPrefix) && k.length > NdvPrefix.length)

  /**
   * The columns to write filters for, or an `IllegalArgumentException` naming the
   * option and what it accepts.
   *
   * @param timestampType value of `spark.sql.parquet.outputTimestampType` (INT96 has no filter)
   */
  def parse(options: Map[String, String], schema: StructType, caseSensitive: Boolean,
      timestampType: String): Seq[BloomColumn] = {
    val opts = options.map { case (k, v) => k.toLowerCase(Locale.ROOT) -> v }
    opts.keys.filter(_.startsWith("bloom.")).foreach { k =>
      if (!isWriteKey(k) && !BloomReadOptions.isReadKey(k))
        fail(s"unknown option '$k'; bloom options are ${Known.mkString(", ")}")
    }
    val names = opts.get(Columns).toSeq.flatMap(_.split(",")).map(_.trim).filter(_.nonEmpty)
    val defaultFpp = opts.get(Fpp).map(fpp(Fpp, _)).getOrElse(DefaultFpp)
    val sizing = opts.get(SizingKey).map { v =>
      Sizing.parse(v.trim.toLowerCase(Locale.ROOT))
        .getOrElse(fail(s"option '$SizingKey' = '$v': expected one of ${Sizing.all.map(_.name).mkString(", ")}"))
    }.getOrElse(Sizing.Exact)
    val foldMax = opts.get(FoldMaxNdv).map(ndv(FoldMaxNdv, _)).getOrElse(BloomColumn.DefaultFoldMaxNdv)

    val resolved = names.map(n => n -> resolve(n, schema, caseSensitive, timestampType)).distinctBy(_._2)
    // Per-column keys were lower-cased with the rest: match them without case.
    def perColumn(prefix: String): Map[Seq[String], String] = opts.collect {
      case (k, v) if k.startsWith(prefix) =>
        val col = k.substring(prefix.length)
        val parts = Try(AttributeNameParser.parseAttributeName(col)).getOrElse(Seq(col))
        val target = resolved.find(_._2.map(_.toLowerCase(Locale.ROOT)) == parts.map(_.toLowerCase(Locale.ROOT)))
          .getOrElse(fail(s"option '$k' names column '$col', which is not in $Columns (${names.mkString(", ")})"))
        target._2 -> v
    }
    val fpps = perColumn(FppPrefix)
    val ndvs = perColumn(NdvPrefix)
    resolved.map { case (_, path) =>
      val key = s"${path.mkString(".")}"
      BloomColumn(
        path = path,
        fpp = fpps.get(path).map(fpp(FppPrefix + key, _)).getOrElse(defaultFpp),
        ndv = ndvs.get(path).map(ndv(NdvPrefix + key, _)),
        sizing = sizing,
        foldMaxNdv = foldMax)
    }
  }

  private def fail(msg: String): Nothing = throw new IllegalArgumentException(s"bloomparquet: $msg")

  private def fpp(key: String, v: String): Double =
    checkFpp(s"option '$key' = '$v'", Try(v.trim.toDouble).getOrElse(Double.NaN))

  /** `value`, or an `IllegalArgumentException` saying what `what` accepts. */
  def checkFpp(what: String, value: Double): Double = {
    if (!(value > 0.0 && value < 1.0)) fail(s"$what: expected a probability strictly between 0 and 1, e.g. 0.01")
    value
  }

  private def ndv(key: String, v: String): Long = {
    val n = Try(v.trim.replace("_", "").toLong).getOrElse(-1L)
    if (n < 1) fail(s"option '$key' = '$v': expected a whole number of distinct values >= 1")
    n
  }

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
    path
  }
}
