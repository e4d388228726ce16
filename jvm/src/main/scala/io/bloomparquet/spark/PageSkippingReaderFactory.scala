package io.bloomparquet.spark

import io.bloomparquet.compat.SparkCompat
import org.apache.spark.broadcast.Broadcast
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.connector.metric.CustomTaskMetric
import org.apache.spark.sql.connector.read.{InputPartition, PartitionReader, PartitionReaderFactory}
import org.apache.spark.sql.execution.datasources.{FilePartition, PartitionedFile}
import org.apache.spark.sql.vectorized.ColumnarBatch
import org.apache.spark.util.SerializableConfiguration

/**
 * Spark's Parquet reader factory of a V2 scan (`plain`, page skipping off) that reads each split
 * whose page indexes `skipping` trusts through `indexed`, the same scan's factory with page
 * skipping on. A partition's splits are read in their order, a run of splits alike by one reader.
 */
final class PageSkippingReaderFactory(plain: PartitionReaderFactory, indexed: PartitionReaderFactory,
    skipping: PageSkipping, conf: Broadcast[SerializableConfiguration]) extends PartitionReaderFactory {

  private def runs(fp: FilePartition): Seq[(Boolean, Array[PartitionedFile])] =
    fp.files.foldLeft(Vector.empty[(Boolean, Vector[PartitionedFile])]) { (acc, split) =>
      val trusted = skipping.trusted(split, conf.value.value)
      acc.lastOption match {
        case Some((t, splits)) if t == trusted => acc.init :+ ((t, splits :+ split))
        case _ => acc :+ ((trusted, Vector(split)))
      }
    }.map { case (t, splits) => (t, splits.toArray) }

  private def read[T](partition: InputPartition, open: (PartitionReaderFactory, InputPartition) => PartitionReader[T])
      : PartitionReader[T] = partition match {
    case fp: FilePartition =>
      def factory(trusted: Boolean) = if (trusted) indexed else plain
      runs(fp) match {
        case Seq() => open(plain, fp)
        case Seq((trusted, _)) => open(factory(trusted), fp)
        case several => new ChainedReader(several.iterator.map { case (trusted, splits) =>
            () => open(factory(trusted), SparkCompat.newFilePartition(fp.index, splits))
          })
      }
    case other => open(plain, other)
  }

  override def createReader(partition: InputPartition): PartitionReader[InternalRow] =
    read(partition, (f, p) => f.createReader(p))

  override def createColumnarReader(partition: InputPartition): PartitionReader[ColumnarBatch] =
    read(partition, (f, p) => f.createColumnarReader(p))

  override def supportColumnarReads(partition: InputPartition): Boolean = plain.supportColumnarReads(partition)
}

/** The readers `parts` opens, one after the other, each opened when the one before is done. */
private[spark] final class ChainedReader[T](parts: Iterator[() => PartitionReader[T]]) extends PartitionReader[T] {
  private var current: Option[PartitionReader[T]] = None

  override def next(): Boolean = {
    var found = current.exists(_.next())
    while (!found && parts.hasNext) {
      current.foreach(_.close())
      current = Some(parts.next()())
      found = current.get.next()
    }
    found
  }

  override def get(): T = current.get.get()
  override def close(): Unit = current.foreach(_.close())
  override def currentMetricsValues(): Array[CustomTaskMetric] =
    current.fold(Array.empty[CustomTaskMetric])(_.currentMetricsValues())
}
