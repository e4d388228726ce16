package io.bloomparquet.write

import io.bloomparquet.sbbf.ParquetHash
import org.apache.parquet.io.api.{Binary, RecordConsumer}
import org.apache.parquet.schema.{GroupType, MessageType, Type}

/**
 * Passes every call through to parquet-java's record consumer and, for the leaf
 * columns that get bloom filters, hashes the value exactly as it is written
 * (physical type, after Spark's conversions and rebasing). The field path is
 * followed with a stack of schema node ids, so nesting of any kind is tracked;
 * only the chosen leaves pay for hashing.
 */
final class HashingRecordConsumer(delegate: RecordConsumer, nodes: SchemaNodes, sinks: Array[FilterBuilder])
    extends RecordConsumer {

  private var stack = new Array[Int](16)
  private var depth = 0
  private var current = SchemaNodes.Root
  private var records = 0L

  /** Records (rows) started since this consumer was created: one row group's worth. */
  def recordCount: Long = records

  override def startMessage(): Unit = { records += 1; delegate.startMessage() }
  override def endMessage(): Unit = delegate.endMessage()

  override def startField(field: String, index: Int): Unit = {
    if (depth == stack.length) stack = java.util.Arrays.copyOf(stack, depth * 2)
    stack(depth) = current
    depth += 1
    current = nodes.child(current, index)
    delegate.startField(field, index)
  }

  override def endField(field: String, index: Int): Unit = {
    depth -= 1
    current = stack(depth)
    delegate.endField(field, index)
  }

  override def startGroup(): Unit = delegate.startGroup()
  override def endGroup(): Unit = delegate.endGroup()

  override def addInteger(value: Int): Unit = {
    val s = nodes.sink(current)
    if (s >= 0) sinks(s).add(ParquetHash.int32(value))
    delegate.addInteger(value)
  }

  override def addLong(value: Long): Unit = {
    val s = nodes.sink(current)
    if (s >= 0) sinks(s).add(ParquetHash.int64(value))
    delegate.addLong(value)
  }

  override def addFloat(value: Float): Unit = {
    val s = nodes.sink(current)
    if (s >= 0) sinks(s).add(ParquetHash.float(value))
    delegate.addFloat(value)
  }

  override def addDouble(value: Double): Unit = {
    val s = nodes.sink(current)
    if (s >= 0) sinks(s).add(ParquetHash.double(value))
    delegate.addDouble(value)
  }

  override def addBinary(value: Binary): Unit = {
    val s = nodes.sink(current)
    if (s >= 0) sinks(s).add(ParquetHash.binary(value))
    delegate.addBinary(value)
  }

  override def addBoolean(value: Boolean): Unit = delegate.addBoolean(value)
  override def flush(): Unit = delegate.flush()
}

/**
 * The Parquet schema as a tree of integer node ids: `child(node, i)` is the id of
 * field `i` of a group node, `sink(node)` the index of the leaf's filter (or -1).
 */
final class SchemaNodes private (children: Array[Array[Int]], sinks: Array[Int]) {
  def child(node: Int, index: Int): Int = children(node)(index)
  def sink(node: Int): Int = sinks(node)
}

object SchemaNodes {
  val Root = 0

  /** `leaves(i)` is the path of filter `i`; paths not in `schema` are ignored by the caller's check. */
  def apply(schema: MessageType, leaves: Seq[Seq[String]]): SchemaNodes = {
    val children = scala.collection.mutable.ArrayBuffer[Array[Int]]()
    val sinks = scala.collection.mutable.ArrayBuffer[Int]()
    val byPath = leaves.zipWithIndex.toMap
    def visit(t: Type, path: Seq[String]): Int = {
      val id = children.length
      children += Array.emptyIntArray
      sinks += -1
      if (t.isPrimitive) sinks(id) = byPath.getOrElse(path, -1)
      else {
        val g: GroupType = t.asGroupType()
        val kids = new Array[Int](g.getFieldCount)
        var i = 0
        while (i < kids.length) {
          val f = g.getType(i)
          kids(i) = visit(f, path :+ f.getName)
          i += 1
        }
        children(id) = kids
      }
      id
    }
    visit(schema, Nil)
    new SchemaNodes(children.toArray, sinks.toArray)
  }
}
