package io.bloomparquet.sql

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.compat.SparkCompat.TableFunction
import io.bloomparquet.digest.DigestJob
import io.bloomparquet.kernel.SbbfKernels
import io.bloomparquet.retrofit.TableRetrofit
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.plans.logical.LocalRelation
import org.apache.spark.sql.types.{StringType, StructField, StructType}
import org.apache.spark.unsafe.types.UTF8String

/**
 * The table functions [[io.bloomparquet.BloomParquetExtensions]] registers; `bloomparquet_retrofit`
 * also retrofits the table formats in `tables` (Delta Lake's, which this package may not import).
 */
object SqlFunctions {

  def all(tables: Seq[TableRetrofit]): Seq[TableFunction] = Seq(
    SparkCompat.tableFunction("bloomparquet_retrofit",
      "_FUNC_(path, columns[, fpp[, overwrite[, format]]]) - adds bloom filters on `columns` (comma-separated) to " +
        "the Parquet files under `path`, one Spark task per file; a row per file: " +
        RetrofitRelation.schema.simpleString + s". format: parquet (the default: each file replaced in place) or " +
        s"${tables.map(_.format).mkString(", ")} (the table at `path`: new files, committed at once; rows add " +
        "the new file and the version committed)",
      args => RetrofitRelation(FunctionArgs("bloomparquet_retrofit", args), tables)),
    SparkCompat.tableFunction("bloomparquet_digest",
      "_FUNC_(path, columns[, fpp[, full]]) - builds the bloom digest of the Parquet table at `path` from the " +
        "filters on `columns` (comma-separated) already in its files, folded to at most `fpp` (default " +
        s"${DigestJob.DefaultFpp}) where they are larger than that needs; the current digest's entries of unchanged " +
        "files are kept unless `full`. Plan-time pruning then rules out the files it covers with no read of their " +
        "own. One row: " + DigestRelation.schema.simpleString,
      args => DigestRelation(FunctionArgs("bloomparquet_digest", args))),
    SparkCompat.tableFunction("bloomparquet_filters",
      "_FUNC_(path) - a row per column chunk with a bloom filter in the Parquet files at `path` (file, " +
        "directory or glob), with the NDV and false-positive rate its bits imply: " + FiltersTable.schema.simpleString,
      args => DriverTableRelation(FiltersTable(FunctionArgs("bloomparquet_filters", args)))),
    SparkCompat.tableFunction("bloomparquet_probe",
      "_FUNC_(path, column, value) - per file and row group, whether the bloom filter of `column` excludes " +
        "`value` (a constant): excluded, may-contain, no filter or unreadable filter",
      args => DriverTableRelation(ProbeTable(FunctionArgs("bloomparquet_probe", args)))),
    SparkCompat.tableFunction("bloomparquet_kernel",
      "_FUNC_() - the SBBF kernel this JVM chose (vector or scalar) and why",
      args => {
        FunctionArgs("bloomparquet_kernel", args).noMore(0)
        val schema = StructType(Seq(StructField("kernel", StringType, nullable = false),
            StructField("reason", StringType, nullable = false)))
        LocalRelation(SparkCompat.toAttributes(schema),
          Seq(InternalRow(
              UTF8String.fromString(SbbfKernels.get().name), UTF8String.fromString(SbbfKernels.reason()))))
      })
  )
}
