package io.bloomparquet.schema

import java.util.Locale

import scala.annotation.tailrec
import scala.jdk.CollectionConverters._

import io.bloomparquet.schema.Unresolved._
import org.apache.parquet.column.ColumnDescriptor
import org.apache.parquet.schema.{MessageType, PrimitiveType}
import org.apache.spark.sql.types.{DataType, StructType}

/** A column of a Spark schema: its path as the schema spells it, and its type. */
final case class SparkColumn(path: Seq[String], dataType: DataType)

/** A leaf column of a Parquet schema; `index` is its chunk's index in every row group. */
final case class ParquetLeaf(index: Int, descriptor: ColumnDescriptor) {
  def path: Seq[String] = descriptor.getPath.toSeq
  def primitive: PrimitiveType = descriptor.getPrimitiveType
}

/**
 * Resolves a name path (see [[ColumnName]]) against a Spark schema, a Parquet
 * schema or a list of leaf paths, one part per level: a part names a field of
 * the struct (group) reached so far, so `Seq("a.b")` is only a top-level column
 * named `a.b` and `Seq("a", "b")` only field `b` of struct `a`. With
 * `caseSensitive` (the session's `spark.sql.caseSensitive`) a part matches its
 * exact spelling; without, the one field equal ignoring case, and several such
 * fields resolve to nothing. Pure; no SparkSession.
 */
object ColumnResolver {

  /**
   * Whether two field names match. Without case they are compared in lower
   * case (Locale.ROOT), as Spark's Parquet reader matches file columns: a
   * probe then reads the column Spark reads.
   */
  def sameName(a: String, b: String, caseSensitive: Boolean): Boolean =
    if (caseSensitive) a == b else a.toLowerCase(Locale.ROOT) == b.toLowerCase(Locale.ROOT)

  /** The field at `path` in `schema`, whatever its type; the walk enters structs only. */
  def spark(schema: StructType, path: Seq[String], caseSensitive: Boolean): Either[NotFound, SparkColumn] = {
    require(path.nonEmpty, "an empty column path")
    path.foldLeft[Either[NotFound, SparkColumn]](Right(SparkColumn(Nil, schema))) {
      case (Right(SparkColumn(at, struct: StructType)), name) =>
        pick(struct.fields.toSeq, name, caseSensitive, at)(_.name).map(f => SparkColumn(at :+ f.name, f.dataType))
      case (Right(SparkColumn(at, _)), _) => Left(NotAStruct(at))
      case (failed, _) => failed
    }
  }

  /** The leaf at `path` in `schema`, refused when inside a repeated field. */
  def parquet(schema: MessageType, path: Seq[String], caseSensitive: Boolean): Either[Unresolved, ParquetLeaf] = {
    val columns = schema.getColumns.asScala.toIndexedSeq
    leaf(columns.map(_.getPath.toSeq), path, caseSensitive).flatMap { i =>
      val found = ParquetLeaf(i, columns(i))
      if (found.descriptor.getMaxRepetitionLevel > 0) Left(Repeated(found.path)) else Right(found)
    }
  }

  /**
   * The leaf whose fields carry `ids` level by level (a reader matching columns by field id, as
   * Iceberg's and Spark's with `spark.sql.parquet.fieldId.read.enabled` do, whatever the names),
   * refused when inside a repeated field; several such leaves (ids repeated) resolve to nothing.
   */
  def parquetByIds(schema: MessageType, ids: Seq[Int]): Either[Unresolved, ParquetLeaf] = {
    require(ids.nonEmpty, "an empty field id path")
    val columns = schema.getColumns.asScala.toIndexedSeq
    def idsAlong(path: Array[String]): Seq[Option[Int]] =
      path.indices.map(i => Option(schema.getType(path.take(i + 1): _*).getId).map(_.intValue))
    val wanted = ids.map(Some(_))
    columns.indices.filter(i => columns(i).getPath.length == ids.length && idsAlong(columns(i).getPath) == wanted) match {
      case Seq(i) =>
        val found = ParquetLeaf(i, columns(i))
        if (found.descriptor.getMaxRepetitionLevel > 0) Left(Repeated(found.path)) else Right(found)
      case Seq() => Left(Missing(Nil, Nil))
      case many => Left(Ambiguous(Nil, many.map(columns(_).getPath.mkString("."))))
    }
  }

  /** The index in `leaves` (leaf column paths, e.g. a row group's chunks) of the one at `path`. */
  def leaf(leaves: Seq[Seq[String]], path: Seq[String], caseSensitive: Boolean): Either[Unresolved, Int] = {
    require(path.nonEmpty, "an empty column path")
    // `under`: the leaves (with their index) below `at`, the parts resolved so far.
    @tailrec def walk(at: Seq[String], under: Seq[(Seq[String], Int)]): Either[Unresolved, Int] = {
      val depth = at.length
      val deeper = under.filter(_._1.length > depth)
      if (depth == path.length) under match {
        case Seq((p, i)) if p.length == depth => Right(i)
        case _ => Left(NotALeaf(at))
      }
      else if (depth > 0 && deeper.isEmpty) Left(NotAStruct(at))
      else pick(deeper.map(_._1(depth)).distinct, path(depth), caseSensitive, at)(identity) match {
        case Right(name) => walk(at :+ name, deeper.filter(_._1(depth) == name))
        case Left(failed) => Left(failed)
      }
    }
    walk(Nil, leaves.zipWithIndex)
  }

  /** The one of `fields` called `name` under the case rule. */
  private def pick[A](fields: Seq[A], name: String, caseSensitive: Boolean, at: Seq[String])(nameOf: A => String)
      : Either[NotFound, A] =
    fields.filter(f => sameName(nameOf(f), name, caseSensitive)) match {
      case Seq(one) => Right(one)
      case Seq() => Left(Missing(at, fields.map(nameOf)))
      case many => Left(Ambiguous(at, many.map(nameOf)))
    }
}
