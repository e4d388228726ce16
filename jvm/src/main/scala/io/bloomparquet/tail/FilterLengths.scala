package io.bloomparquet.tail

import java.io.ByteArrayInputStream

import scala.util.control.NonFatal

import shaded.parquet.org.apache.thrift.protocol.{TCompactProtocol, TProtocol, TProtocolUtil}
import shaded.parquet.org.apache.thrift.transport.TIOStreamTransport

/**
 * Each column chunk's `bloom_filter_length` (`ColumnMetaData` field 15) read from a footer's
 * thrift bytes, for parquet-java releases whose footer model predates the field (1.13, Spark
 * 3.5's), whose reader skips it: without it a filter can only be read whole. Read with parquet's
 * own (shaded) thrift protocol, every other field skipped. Per row group, per chunk; None where a
 * chunk has none; empty when the bytes do not parse as a footer. A wrong length can't lose rows:
 * a block read checks the filter's header against it ([[io.bloomparquet.sbbf.BloomFilterReader]]).
 */
object FilterLengths {
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
