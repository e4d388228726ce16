package io.bloomparquet.compat

import scala.jdk.CollectionConverters._

import org.apache.parquet.column.ColumnDescriptor
import org.apache.parquet.schema.{GroupType, MessageType, Type}

/** parquet-java before 1.16 (Spark 3.5, 4.0) takes a reader's projection as a schema, not as columns. */
private[compat] object ParquetProjection {

  /** The file schema cut down to `columns`. */
  def of(schema: MessageType, columns: Seq[ColumnDescriptor]): MessageType =
    new MessageType(schema.getName, project(schema, columns.map(_.getPath.toSeq)).asJava)

  private def project(group: GroupType, paths: Seq[Seq[String]]): Seq[Type] =
    group.getFields.asScala.toSeq.flatMap { field =>
      val below = paths.filter(_.headOption.contains(field.getName)).map(_.tail)
      if (below.isEmpty) None
      else if (field.isPrimitive) Some(field)
      else Some(field.asGroupType.withNewFields(project(field.asGroupType, below).asJava))
    }
}
