package io.bloomparquet.pruning

import java.util.Comparator

import scala.jdk.CollectionConverters._

import io.bloomparquet.pruning.BloomPredicate.{AllOf, AnyOf, ColumnIn}
import io.bloomparquet.schema.ColumnResolver
import org.apache.parquet.schema.MessageType

/**
 * A [[BloomPredicate]] bound to one file's schema: each column resolved to its
 * leaf index in the file (the index of its chunk in every row group) and each
 * literal encoded and hashed once for that file.
 */
sealed trait CompiledPredicate

object CompiledPredicate {
  /**
   * `chunk` is the leaf index in the file schema (= column chunk index in a row
   * group); `useFilter` false: its bloom filters are not trusted, statistics are.
   */
  final case class Leaf(chunk: Int, probe: PhysicalProbe.AnyOf, useFilter: Boolean = true) extends CompiledPredicate
  final case class And(children: Seq[CompiledPredicate]) extends CompiledPredicate
  final case class Or(children: Seq[CompiledPredicate]) extends CompiledPredicate
  /** Known outcome for every row group: true keeps (missing column, unknown), false prunes. */
  final case class Const(mayMatch: Boolean) extends CompiledPredicate

  /**
   * Leaves whose dotted path is also another leaf's (top-level `a.b` next to
   * field `b` of struct `a`). parquet-java's writer keys a row group's filters
   * by that dotted string, so it writes one column's filter for both: their
   * filters can't be told apart from the footer and are not probed.
   */
  def sharedDottedPaths(schema: MessageType): Set[Int] = {
    val dotted = schema.getColumns.asScala.map(_.getPath.mkString(".")).toIndexedSeq
    val shared = dotted.groupBy(identity).collect { case (d, all) if all.size > 1 => d }.toSet
    dotted.indices.filter(i => shared.contains(dotted(i))).toSet
  }

  def compile(p: BloomPredicate, schema: MessageType, caseSensitive: Boolean): CompiledPredicate =
    compile(p, schema, caseSensitive, sharedDottedPaths(schema))

  private def compile(p: BloomPredicate, schema: MessageType, caseSensitive: Boolean, shared: Set[Int]): CompiledPredicate = p match {
    case BloomPredicate.NoMatch => Const(false)
    case AllOf(cs) => And(cs.map(compile(_, schema, caseSensitive, shared)))
    case AnyOf(cs) => Or(cs.map(compile(_, schema, caseSensitive, shared)))
    case ColumnIn(path, dataType, values, fieldIds) =>
      // A reader matching by field id reads the column carrying the ids, whatever its name in this file.
      val resolved =
        if (fieldIds.isEmpty) ColumnResolver.parquet(schema, path, caseSensitive) else ColumnResolver.parquetByIds(schema, fieldIds)
      resolved match {
        // A column missing from this file reads as null; we keep rather than reason about it
        // (and about an ambiguous or repeated one, which we do not probe).
        case Left(_) => Const(true)
        case Right(leaf) =>
          val primitive = leaf.primitive
          LiteralEncoder.encode(dataType, values, primitive) match {
            case PhysicalProbe.AnyOf(vs, _) if vs.isEmpty => Const(false)
            // Sorted in the order this column's statistics compare by (signed or unsigned, per type).
            case probe: PhysicalProbe.AnyOf =>
              Leaf(leaf.index, probe.sorted(primitive.comparator().asInstanceOf[Comparator[Any]]), !shared.contains(leaf.index))
            // Can't tell which rows match: keep every row group, and read no filter for it.
            case PhysicalProbe.Unknown(_) => Const(true)
          }
      }
  }
}
