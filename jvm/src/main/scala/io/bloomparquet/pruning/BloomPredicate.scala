package io.bloomparquet.pruning

import org.apache.spark.sql.types.DataType

/**
 * What a query asks of the data that a bloom filter can answer, in terms of the
 * table's (read) schema. A row group may be skipped only if the predicate is
 * false for every row in it; everything here is a necessary condition of the
 * query's filter (unconvertible conjuncts are dropped, never guessed).
 */
sealed trait BloomPredicate extends Serializable {
  /** Columns the predicate probes, for explain and for reading only the filters needed. */
  def columns: Set[Seq[String]]
}

object BloomPredicate {

  /**
   * `column IN (values)`: values are non-null Catalyst internal values of `dataType`. `fieldIds`,
   * where given, are the Parquet field ids of the column's path, level by level, for a reader that
   * matches columns by id (Delta's column mapping in `id` mode, Iceberg): a file's column is the one
   * carrying those ids whatever its name there, and a file with no such column is not probed.
   */
  final case class ColumnIn(path: Seq[String], dataType: DataType, values: IndexedSeq[Any], fieldIds: Seq[Int] = Nil)
      extends BloomPredicate {
    def columns: Set[Seq[String]] = Set(path)
    override def toString: String = {
      val shown = if (values.size <= 5) values.mkString(", ") else values.take(5).mkString(", ") + s", ... ${values.size} values"
      s"${path.mkString(".")} IN ($shown)"
    }
  }

  final case class AllOf(children: Seq[BloomPredicate]) extends BloomPredicate {
    def columns: Set[Seq[String]] = children.flatMap(_.columns).toSet
    override def toString: String = children.mkString("(", " AND ", ")")
  }

  final case class AnyOf(children: Seq[BloomPredicate]) extends BloomPredicate {
    def columns: Set[Seq[String]] = children.flatMap(_.columns).toSet
    override def toString: String = children.mkString("(", " OR ", ")")
  }

  /** A predicate no row satisfies (`x = NULL`, `x IN ()`). */
  case object NoMatch extends BloomPredicate {
    def columns: Set[Seq[String]] = Set.empty
    override def toString: String = "false"
  }

  /** `path IN values`: nulls never compare equal and drop out; nothing left matches nothing. */
  def in(path: Seq[String], dataType: DataType, values: Seq[Any]): BloomPredicate = {
    val nonNull = values.filter(_ != null).distinct.toIndexedSeq
    if (nonNull.isEmpty) NoMatch else ColumnIn(path, dataType, nonNull)
  }

  /** The AND of `parts` (None when there is none); one part that matches nothing makes all of it. */
  def allOf(parts: Seq[BloomPredicate]): Option[BloomPredicate] = parts match {
    case Seq() => None
    case Seq(one) => Some(one)
    case many if many.contains(NoMatch) => Some(NoMatch)
    case many => Some(AllOf(many))
  }

  /**
   * `p` with each probe mapped by `column` (to the column a table's files hold it under), a probe it
   * cannot map dropped: in an AND the rest still holds (fewer conditions keep more files), an OR needs
   * every branch (a dropped branch could hold any row). None where nothing is left to probe.
   */
  def mapColumns(p: BloomPredicate)(column: ColumnIn => Option[ColumnIn]): Option[BloomPredicate] = p match {
    case c: ColumnIn => column(c)
    case AllOf(children) => allOf(children.flatMap(mapColumns(_)(column)))
    case AnyOf(children) =>
      val mapped = children.map(mapColumns(_)(column))
      if (mapped.forall(_.isDefined)) Some(AnyOf(mapped.flatten)) else None
    case NoMatch => Some(NoMatch)
  }

  /** The OR of two parts; a part that matches nothing drops out. */
  def anyOf(a: BloomPredicate, b: BloomPredicate): BloomPredicate = (a, b) match {
    case (NoMatch, x) => x
    case (x, NoMatch) => x
    case _ => AnyOf(Seq(a, b))
  }
}
