package io.bloomparquet.sql

import scala.jdk.CollectionConverters._

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.pruning.LiteralEncoder
import io.bloomparquet.pruning.PhysicalProbe.{AnyOf, Unknown}
import io.bloomparquet.planning.DataFiles
import io.bloomparquet.sbbf.FilterFound
import io.bloomparquet.schema.{ColumnName, ColumnResolver, ParquetLeaf, Unresolved}
import org.apache.parquet.format.converter.ParquetMetadataConverter
import org.apache.parquet.schema.MessageType
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

/**
 * `SELECT * FROM bloomparquet_probe(path, column, value)`: per file and row group,
 * whether the chunk's filter excludes `value` — encoded by the read path's
 * [[LiteralEncoder]], so a value it cannot encode exactly is 'may-contain'.
 * `value` is the constant's Catalyst value of type `valueType`.
 */
final case class ProbeTable(path: String, column: String, valueType: DataType, value: Any) extends DriverTable {
  override def schema: StructType = ProbeTable.schema

  override def rows(spark: SparkSession): Seq[InternalRow] = {
    val conf = SparkCompat.newHadoopConf(spark)
    val caseSensitive = SparkCompat.caseSensitive(spark)
    val parts = ColumnName.parts(column)
    val files = DataFiles.paths(path, conf).map { file =>
      val (status, fmd) = StoredFilters.footer(file, conf)
      val schema = new ParquetMetadataConverter().fromParquetMetadata(fmd).getFileMetaData.getSchema
      (file, status, fmd, resolve(file, schema, parts, caseSensitive))
    }
    if (files.nonEmpty && files.forall(_._4.isEmpty))
      throw new IllegalArgumentException(s"bloomparquet_probe: unknown column '$column' in $path; its leaf columns are " +
        files.head._2.getPath + ": " + new ParquetMetadataConverter().fromParquetMetadata(files.head._3)
          .getFileMetaData.getSchema.getColumns.asScala.map(_.getPath.mkString(".")).mkString(", "))
    files.flatMap {
      // A file without the column (schema evolution) has no filter for it.
      case (file, _, fmd, None) => fmd.getRow_groups.asScala.indices.map(ProbeTable.row(file, _, column, "no filter"))
      case (file, status, fmd, Some(leaf)) =>
        val (t, v) = ProbeValue.coerce(valueType, value, leaf.primitive)
        val probe = LiteralEncoder.encode(t, IndexedSeq(v), leaf.primitive)
        StoredFilters.read(status, fmd, conf, (_, c) => c == leaf.index).map { f =>
          val result = f.read match {
            case FilterFound.Absent => "no filter"
            case _: FilterFound.Broken => "unreadable filter"
            case FilterFound.Loaded(filter, _) => probe match {
                case _: Unknown => "may-contain"
                case a: AnyOf => if (filter.mightContainAny(a.hashes)) "may-contain" else "excluded"
              }
          }
          ProbeTable.row(file, f.rowGroup, leaf.path.mkString("."), result)
        }
    }
  }

  /** The leaf `column` names in this file; None if there is none; an error if it is ambiguous or repeated. */
  private def resolve(file: String, schema: MessageType, parts: Seq[String], caseSensitive: Boolean): Option[ParquetLeaf] =
    ColumnResolver.parquet(schema, parts, caseSensitive) match {
      case Right(leaf) => Some(leaf)
      case Left(Unresolved.Ambiguous(_, matches)) =>
        throw new IllegalArgumentException(s"bloomparquet_probe: $file: column '$column' is ambiguous: ${matches.mkString(", ")}")
      case Left(_: Unresolved.Repeated) =>
        throw new IllegalArgumentException(s"bloomparquet_probe: $file: column '$column' is inside an array or map")
      case Left(_) => None
    }
}

object ProbeTable {
  val schema: StructType = StructType(Seq(
      StructField("file", StringType, nullable = false), StructField("row_group", IntegerType, nullable = false),
      StructField("column", StringType, nullable = false), StructField("result", StringType, nullable = false)))

  def apply(args: FunctionArgs): ProbeTable = {
    args.noMore(3)
    val (t, v) = args.constant(2, "value")
    ProbeTable(args.string(0, "path"), args.string(1, "column"), t, v)
  }

  def row(file: String, rowGroup: Int, column: String, result: String): InternalRow =
    new GenericInternalRow(Array[Any](UTF8String.fromString(file), rowGroup, UTF8String.fromString(column),
        UTF8String.fromString(result)))
}
