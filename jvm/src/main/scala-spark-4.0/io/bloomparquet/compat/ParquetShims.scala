package io.bloomparquet.compat

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.parquet.HadoopReadOptions
import org.apache.parquet.column.ColumnDescriptor
import org.apache.parquet.hadoop.{ParquetFileReader, ParquetWriter}
import org.apache.parquet.hadoop.metadata.ParquetMetadata
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.parquet.schema.{GroupType, MessageType, Type}

/** parquet-java calls whose shape differs between the parquet-java of Spark 4.0 (1.15) and later (1.16+). */
object ParquetShims {

  /** A reader of `columns` of `input` that reuses its already parsed `footer`. */
  def openColumns(input: HadoopInputFile, footer: ParquetMetadata, conf: Configuration,
      columns: Seq[ColumnDescriptor]): ParquetFileReader = {
    val reader = new ParquetFileReader(conf, input.getPath, footer, HadoopReadOptions.builder(conf).build())
    val schema = footer.getFileMetaData.getSchema
    reader.setRequestedSchema(new MessageType(schema.getName, project(schema, columns.map(_.getPath.toSeq)).asJava))
    reader
  }

  // 1.15 takes the projection as a schema: the file schema cut down to the paths.
  private def project(group: GroupType, paths: Seq[Seq[String]]): Seq[Type] =
    group.getFields.asScala.toSeq.flatMap { field =>
      val below = paths.filter(_.headOption.contains(field.getName)).map(_.tail)
      if (below.isEmpty) None
      else if (field.isPrimitive) Some(field)
      else Some(field.asGroupType.withNewFields(project(field.asGroupType, below).asJava))
    }

  /** parquet-java 1.15 has no row-count limit per row group: nothing to apply. */
  def withRowGroupRowCountLimit[B <: ParquetWriter.Builder[_, B]](builder: B, conf: Configuration): B = builder
}
