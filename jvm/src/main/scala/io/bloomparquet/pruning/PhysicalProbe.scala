package io.bloomparquet.pruning

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

  /** A row matches only if its stored value is one of these. Empty: no row can match. */
  final case class AnyOf(values: IndexedSeq[PhysicalValue]) extends PhysicalProbe {
    lazy val hashes: Array[Long] = values.map(_.hash).toArray
  }

  def binary(bytes: Array[Byte]): Binary = Binary.fromConstantByteArray(bytes)
}
