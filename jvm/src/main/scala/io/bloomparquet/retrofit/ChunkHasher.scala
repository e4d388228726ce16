package io.bloomparquet.retrofit

import scala.jdk.CollectionConverters._

import io.bloomparquet.sbbf.ParquetHash
import io.bloomparquet.write.FilterBuilder
import org.apache.parquet.column.ColumnDescriptor
import org.apache.parquet.column.impl.ColumnReadStoreImpl
import org.apache.parquet.column.page.PageReadStore
import org.apache.parquet.io.api.{Converter, GroupConverter, PrimitiveConverter}
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName._
import org.apache.parquet.schema.{GroupType, MessageType}

/**
 * Feeds the non-null values of one column chunk, in their physical form, to a
 * [[FilterBuilder]]: the same hashes the writer inserts. Reads through parquet-java's
 * column readers (any encoding, compression, page version); no records are built.
 */
object ChunkHasher {

  def hashChunk(pages: PageReadStore, schema: MessageType, createdBy: String, column: ColumnDescriptor,
      sink: FilterBuilder): Unit = {
    val store = new ColumnReadStoreImpl(pages, new NoopGroup(schema), schema, createdBy)
    val reader = store.getColumnReader(column)
    val maxDef = column.getMaxDefinitionLevel
    // Only non-repeated leaves are accepted, so there is one value slot (maybe null) per row.
    val n = pages.getRowCount
    val kind = column.getPrimitiveType.getPrimitiveTypeName
    var i = 0L
    while (i < n) {
      if (reader.getCurrentDefinitionLevel == maxDef) {
        val h = kind match {
          case INT32 => ParquetHash.int32(reader.getInteger)
          case INT64 => ParquetHash.int64(reader.getLong)
          case FLOAT => ParquetHash.float(reader.getFloat)
          case DOUBLE => ParquetHash.double(reader.getDouble)
          case BINARY | FIXED_LEN_BYTE_ARRAY => ParquetHash.binary(reader.getBinary)
          case other => throw new IllegalArgumentException(s"column ${column.getPath.mkString(".")}: $other has no bloom filter hash")
        }
        sink.add(h)
      }
      reader.consume()
      i += 1
    }
  }

  /** Column readers want a converter tree; we read values directly, so every converter does nothing. */
  private final class NoopGroup(t: GroupType) extends GroupConverter {
    private val children: Array[Converter] = t.getFields.asScala.map { f =>
      if (f.isPrimitive) new PrimitiveConverter {} else new NoopGroup(f.asGroupType())
    }.toArray[Converter]
    override def getConverter(fieldIndex: Int): Converter = children(fieldIndex)
    override def start(): Unit = ()
    override def end(): Unit = ()
  }
}
