package io.bloomparquet.pruning

import java.util.Comparator

import org.apache.parquet.io.api.Binary

/**
 * A literal as one file column stores it: the xxHash64 of its PLAIN encoding
 * (what writers insert into bloom filters) and the value statistics compare
 * against (Integer, Long or Binary; None where we don't use statistics).
 */
final case class PhysicalValue(hash: Long, statsValue: Option[Comparable[_]])

/** What a [[BloomPredicate.ColumnIn]] becomes for one file's column. */
sealed trait PhysicalProbe

object PhysicalProbe {
  /** We can't tell which rows match (type not mapped, rebase, NaN...): keep the row group. */
  final case class Unknown(reason: String) extends PhysicalProbe

  /**
   * A row matches only if its stored value is one of these. Empty: no row can match.
   * `sortedBy`: the order `values` are in, when sorted by the column's statistics
   * comparator, so each row group's [min, max] is two binary searches.
   */
  final case class AnyOf(values: IndexedSeq[PhysicalValue], sortedBy: Option[Comparator[Any]] = None)
      extends PhysicalProbe {
    lazy val hashes: Array[Long] = values.map(_.hash).toArray

    /** The same values sorted by `order`; unchanged if some value has no statistics form or the list is short. */
    def sorted(order: Comparator[Any]): AnyOf =
      if (values.size < SortFrom || values.exists(_.statsValue.isEmpty)) this
      else AnyOf(values.sortWith((a, b) => order.compare(a.statsValue.get, b.statsValue.get) < 0), Some(order))
  }

  /** Below this many values a linear pass over them is as cheap as searching. */
  private val SortFrom = 16

  def binary(bytes: Array[Byte]): Binary = Binary.fromConstantByteArray(bytes)
}
