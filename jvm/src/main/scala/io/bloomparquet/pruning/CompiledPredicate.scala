package io.bloomparquet.pruning

import java.util.{Comparator, Locale}

import scala.jdk.CollectionConverters._

import io.bloomparquet.pruning.BloomPredicate.{AllOf, AnyOf, ColumnIn}
import org.apache.parquet.schema.{GroupType, MessageType, Type}

/**
 * A [[BloomPredicate]] bound to one file's schema: each column resolved to its
 * leaf index in the file (the index of its chunk in every row group) and each
 * literal encoded and hashed once for that file.
 */
sealed trait CompiledPredicate

object CompiledPredicate {
  /** `chunk` is the leaf index in the file schema (= column chunk index in a row group). */
  final case class Leaf(chunk: Int, probe: PhysicalProbe.AnyOf) extends CompiledPredicate
  final case class And(children: Seq[CompiledPredicate]) extends CompiledPredicate
  final case class Or(children: Seq[CompiledPredicate]) extends CompiledPredicate
  /** Known outcome for every row group: true keeps (missing column, unknown), false prunes. */
  final case class Const(mayMatch: Boolean) extends CompiledPredicate

  def compile(p: BloomPredicate, schema: MessageType, caseSensitive: Boolean): CompiledPredicate = p match {
    case BloomPredicate.NoMatch => Const(false)
    case AllOf(cs) => And(cs.map(compile(_, schema, caseSensitive)))
    case AnyOf(cs) => Or(cs.map(compile(_, schema, caseSensitive)))
    case ColumnIn(path, dataType, values) =>
      resolve(schema, path, caseSensitive) match {
        // A column missing from this file reads as null; we keep rather than reason about it.
        case None => Const(true)
        case Some((chunk, primitive)) =>
          LiteralEncoder.encode(dataType, values, primitive) match {
            case PhysicalProbe.AnyOf(vs, _) if vs.isEmpty => Const(false)
            // Sorted in the order this column's statistics compare by (signed or unsigned, per type).
            case probe: PhysicalProbe.AnyOf => Leaf(chunk, probe.sorted(primitive.comparator().asInstanceOf[Comparator[Any]]))
            // Can't tell which rows match: keep every row group, and read no filter for it.
            case PhysicalProbe.Unknown(_) => Const(true)
          }
      }
  }

  /**
   * The leaf index and primitive type of `path` in `schema`; None when absent,
   * not a primitive, repeated anywhere on the way, or ambiguous without case.
   */
  def resolve(schema: MessageType, path: Seq[String], caseSensitive: Boolean): Option[(Int, org.apache.parquet.schema.PrimitiveType)] = {
    def field(group: GroupType, name: String): Option[Type] = {
      val fields = group.getFields.asScala
      val hits = if (caseSensitive) fields.filter(_.getName == name)
        else fields.filter(_.getName.toLowerCase(Locale.ROOT) == name.toLowerCase(Locale.ROOT))
      if (hits.size == 1) Some(hits.head) else None
    }
    // Walk down the path: every step an unambiguous, non-repeated field of a group.
    val walked = path.foldLeft(Option((schema: Type, Vector.empty[String]))) {
      case (Some((group, names)), name) if !group.isPrimitive =>
        field(group.asGroupType, name).filterNot(_.isRepetition(Type.Repetition.REPEATED)).map(t => (t, names :+ t.getName))
      case _ => None
    }
    val (current, target) = walked match {
      case Some((t, names)) if t.isPrimitive => (t, names)
      case _ => return None
    }
    val leaf = schema.getPaths.asScala.indexWhere(_.sameElements(target))
    if (leaf < 0) None else Some((leaf, current.asPrimitiveType))
  }
}
