package io.bloomparquet.sql

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.planning.DataFiles
import io.bloomparquet.sbbf.{FillEstimates, FilterFound}
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

/**
 * `SELECT * FROM bloomparquet_filters(path)`: a row per column chunk with a
 * `bloom_filter_offset` in the Parquet files at `path` (file, directory or glob),
 * with what its bits say (the CLI's `inspect` estimates).
 */
final case class FiltersTable(path: String) extends DriverTable {
  override def schema: StructType = FiltersTable.schema

  override def rows(spark: SparkSession): Seq[InternalRow] = {
    val conf = SparkCompat.newHadoopConf(spark)
    DataFiles.paths(path, conf).flatMap { file =>
      val (status, fmd) = StoredFilters.footer(file, conf)
      StoredFilters.read(status, fmd, conf,
        (r, c) =>
          fmd.getRow_groups.get(r).getColumns.get(c).getMeta_data.isSetBloom_filter_offset)
        .map(FiltersTable.row(file, _))
    }
  }
}

object FiltersTable {
  val schema: StructType = StructType(Seq(
      StructField("file", StringType, nullable = false), StructField("row_group", IntegerType, nullable = false),
      StructField("column", StringType, nullable = false), StructField("offset", LongType, nullable = false),
      StructField("bytes", LongType), StructField("has_length", BooleanType, nullable = false),
      StructField("num_bytes", IntegerType), StructField("estimated_ndv", DoubleType),
      StructField("estimated_fpp", DoubleType), StructField("status", StringType, nullable = false)))

  def apply(args: FunctionArgs): FiltersTable = {
    args.noMore(1)
    FiltersTable(args.string(0, "path"))
  }

  /** `bytes`: the stated `bloom_filter_length`, else the bitset's size (null when unreadable). */
  def row(file: String, f: StoredFilter): InternalRow = {
    val (loaded, status) = f.read match {
      case FilterFound.Loaded(filter, _) => (Some(filter), "ok")
      case FilterFound.Broken(reason, _, _) => (None, reason)
      case FilterFound.Absent => (None, "absent")
    }
    def orNull[A](o: Option[A]): Any = o.getOrElse(null)
    val bytes = f.length.map(_.toLong).orElse(loaded.map(_.numBytes.toLong))
    new GenericInternalRow(Array[Any](UTF8String.fromString(file), f.rowGroup, UTF8String.fromString(f.path.mkString(".")),
        f.offset, orNull(bytes), f.length.isDefined, orNull(loaded.map(_.numBytes)),
        orNull(loaded.flatMap(l => FillEstimates.estimatedNdv(l.words))), orNull(loaded.map(l => FillEstimates.fpp(l.words))),
        UTF8String.fromString(status)))
  }
}
