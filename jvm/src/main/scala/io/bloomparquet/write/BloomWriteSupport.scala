package io.bloomparquet.write

import scala.collection.mutable.ArrayBuffer

import io.bloomparquet.options.BloomColumn
import io.bloomparquet.sbbf.ParquetHash
import org.apache.hadoop.conf.Configuration
import org.apache.parquet.hadoop.api.WriteSupport
import org.apache.parquet.hadoop.api.WriteSupport.{FinalizedWriteContext, WriteContext}
import org.apache.parquet.io.api.RecordConsumer
import org.apache.parquet.schema.MessageType

/**
 * Wraps a WriteSupport (Spark's `ParquetWriteSupport`) to collect value hashes
 * per row group. parquet-java calls `prepareForWrite` once per row group (each
 * `InternalParquetRecordWriter.initStore`) and `finalizeWrite` after flushing the
 * last one, so those two calls are the row-group boundaries: the filters of the
 * chunks of the group just flushed are built there, sized for what it held.
 */
final class BloomWriteSupport[T](delegate: WriteSupport[T], columns: Seq[BloomColumn], beforeFooter: () => Unit)
    extends WriteSupport[T] {

  private var nodes: SchemaNodes = _
  private var consumer: HashingRecordConsumer = _
  private var sinks: Array[FilterBuilder] = Array.empty
  private val done = ArrayBuffer[RowGroupFilters]()
  private val lastValues = new Array[Long](columns.size)

  /** Filters of every row group flushed so far, in file order. */
  def rowGroups: Seq[RowGroupFilters] = done.toSeq

  // Only the Hadoop form: parquet-java 1.14+ hands a HadoopParquetConfiguration to init(ParquetConfiguration),
  // whose default unwraps it to this one (1.13, Spark 3.5's, has no other).
  override def init(conf: Configuration): WriteContext = {
    val ctx = delegate.init(conf)
    BloomWriteSupport.checkLeaves(ctx.getSchema, columns)
    nodes = SchemaNodes(ctx.getSchema, columns.map(_.path))
    ctx
  }

  override def prepareForWrite(recordConsumer: RecordConsumer): Unit = {
    finishRowGroup()
    // Row groups of a file tend to look alike: presize each collector for the last group's values.
    sinks = columns.indices.map(i => FilterBuilder(columns(i), lastValues(i))).toArray
    consumer = new HashingRecordConsumer(recordConsumer, nodes, sinks)
    delegate.prepareForWrite(consumer)
  }

  override def write(record: T): Unit = delegate.write(record)
  override def getName: String = delegate.getName

  override def finalizeWrite(): FinalizedWriteContext = {
    val ctx = delegate.finalizeWrite()
    finishRowGroup()
    beforeFooter()
    ctx
  }

  // parquet-java skips row groups with no records; so do we.
  private def finishRowGroup(): Unit = {
    if (consumer != null && consumer.recordCount > 0) {
      sinks.indices.foreach { i =>
        lastValues(i) = sinks(i).valueCount
      }
      done += RowGroupFilters(consumer.recordCount, sinks.map(_.build()))
    }
    consumer = null
    sinks = Array.empty
  }
}

object BloomWriteSupport {
  /** Every column must be a leaf of a type with a bloom filter hash; validation on the driver should make this hold. */
  def checkLeaves(schema: MessageType, columns: Seq[BloomColumn]): Unit = columns.foreach { c =>
    val leaf = try Some(schema.getType(c.path: _*))
    catch { case _: Exception => None }
    leaf match {
      case Some(t) if t.isPrimitive =>
        val p = t.asPrimitiveType().getPrimitiveTypeName
        if (!ParquetHash.hasBloomHash(p))
          throw new IllegalArgumentException(s"bloom.columns: column ${c.dotted} is written as $p, which has no bloom filter")
      case _ => throw new IllegalArgumentException(s"bloom.columns: column ${c.dotted} is not a leaf of the Parquet schema $schema")
    }
  }
}
