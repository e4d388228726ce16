package io.bloomparquet.tail

import java.io.ByteArrayInputStream

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import io.bloomparquet.compat.ParquetFilterShims
import org.apache.parquet.hadoop.metadata.ParquetMetadata
import shaded.parquet.org.apache.thrift.protocol.{TCompactProtocol, TProtocol, TProtocolUtil}
import shaded.parquet.org.apache.thrift.transport.TIOStreamTransport

/**
 * Each column chunk's `bloom_filter_length` (`ColumnMetaData` field 15) as read from a footer's
 * thrift bytes, carried with the footer parsed from them, for parquet-java releases whose footer
 * model predates the field (1.13, Spark 3.5's), whose reader skips it: without it a filter can only
 * be read whole. A wrong length can't lose rows: a block read checks the filter's header against it
 * ([[io.bloomparquet.sbbf.BloomFilterReader]]). Eight bytes a chunk.
 */
final class FilterLengths private (byRowGroup: Array[Array[Long]]) {

  /** The length read for chunk `c` of row group `rg`, when its footer's bytes state one. */
  def apply(rg: Int, c: Int): Option[Int] =
    if (rg < byRowGroup.length && c < byRowGroup(rg).length && byRowGroup(rg)(c) != FilterLengths.Unset)
      Some(byRowGroup(rg)(c).toInt)
    else None

  /** Heap bytes of this table: the arrays and their headers. */
  def heapBytes: Long = 16 + 16 + byRowGroup.map(a => 16L + 8L * a.length).sum
}

object FilterLengths {
  private val Unset = Long.MinValue

  /** No lengths beyond the footer model's: a footer parquet-java's reader parsed, or a model that has them. */
  val Empty: FilterLengths = new FilterLengths(Array.empty)

  /**
   * The lengths `footer`'s thrift bytes (`length` bytes at `offset`) state, where parquet-java's footer model
   * lacks the field and some chunk has a filter; [[Empty]] where they don't match the footer's row groups and chunks.
   */
  def of(footer: ParquetMetadata, bytes: Array[Byte], offset: Int, length: Int): FilterLengths = {
    val blocks = footer.getBlocks.asScala.toIndexedSeq
    if (ParquetFilterShims.footerHoldsFilterLengths || !blocks.exists(_.getColumns.asScala.exists(_.getBloomFilterOffset >= 0)))
      Empty
    else matching(footer, read(bytes, offset, length))
  }

  /** `found` as a table of `footer`'s chunks; [[Empty]] where its row groups or chunks are not the footer's. */
  private[tail] def matching(footer: ParquetMetadata, found: IndexedSeq[IndexedSeq[Option[Int]]]): FilterLengths = {
    val blocks = footer.getBlocks.asScala.toIndexedSeq
    if (found.size != blocks.size || blocks.zip(found).exists { case (b, l) => b.getColumns.size != l.size }) Empty
    else new FilterLengths(found.map(_.map(_.fold(Unset)(_.toLong)).toArray).toArray)
  }

  /**
   * The lengths of a footer's thrift bytes, read with parquet's own (shaded) thrift protocol, every other
   * field skipped: per row group, per chunk; None where a chunk has none; empty when the bytes do not parse.
   */
  // Nesting a skipped field may have: a footer's deepest is a few levels; hostile bytes can't recurse further.
  private val MaxDepth = 64
  // Thrift's type ids (its TType, whose constants javac inlined: parquet's shaded thrift leaves the class out).
  private val StopType: Byte = 0
  private val I32Type: Byte = 8
  private val StructType: Byte = 12
  private val ListType: Byte = 15

  def read(bytes: Array[Byte], offset: Int, length: Int): IndexedSeq[IndexedSeq[Option[Int]]] =
    try {
      val p = new TCompactProtocol(new TIOStreamTransport(new ByteArrayInputStream(bytes, offset, length)))
      var rowGroups = IndexedSeq.empty[IndexedSeq[Option[Int]]]
      fields(p) { case (4, ListType) => rowGroups = structs(p)(rowGroup(p)) } // FileMetaData.row_groups
      rowGroups
    } catch { case NonFatal(_) => IndexedSeq.empty }

  private def rowGroup(p: TProtocol): IndexedSeq[Option[Int]] = {
    var chunks = IndexedSeq.empty[Option[Int]]
    fields(p) { case (1, ListType) => chunks = structs(p)(columnChunk(p)) } // RowGroup.columns
    chunks
  }

  private def columnChunk(p: TProtocol): Option[Int] = {
    var length: Option[Int] = None
    fields(p) { case (3, StructType) => length = columnMetaData(p) } // ColumnChunk.meta_data
    length
  }

  private def columnMetaData(p: TProtocol): Option[Int] = {
    var length: Option[Int] = None
    fields(p) { case (15, I32Type) => length = Some(p.readI32()) } // ColumnMetaData.bloom_filter_length
    length
  }

  /** A struct's fields: those `take` reads, the others skipped. */
  private def fields(p: TProtocol)(take: PartialFunction[(Short, Byte), Unit]): Unit = {
    p.readStructBegin()
    var field = p.readFieldBegin()
    while (field.`type` != StopType) {
      val key = (field.id, field.`type`)
      if (take.isDefinedAt(key)) take(key) else TProtocolUtil.skip(p, field.`type`, MaxDepth)
      p.readFieldEnd()
      field = p.readFieldBegin()
    }
    p.readStructEnd()
  }

  /** A list of structs, each read by `element`; a list of anything else is not a footer's. */
  private def structs[T](p: TProtocol)(element: => T): IndexedSeq[T] = {
    val list = p.readListBegin()
    if (list.elemType != StructType) throw new IllegalArgumentException(s"a list of type ${list.elemType}")
    val out = IndexedSeq.fill(list.size)(element)
    p.readListEnd()
    out
  }
}
