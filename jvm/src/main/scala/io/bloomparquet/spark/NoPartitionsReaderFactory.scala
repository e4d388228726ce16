package io.bloomparquet.spark

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.connector.read.{InputPartition, PartitionReader, PartitionReaderFactory}

/**
 * The reader factory of a scan whose planning pruned every file: there is no
 * partition to read. Stands in for Spark's Parquet factory, whose construction
 * serializes and broadcasts the whole Hadoop configuration (~20 ms a query).
 */
private[spark] object NoPartitionsReaderFactory extends PartitionReaderFactory {
  override def createReader(partition: InputPartition): PartitionReader[InternalRow] =
    throw new IllegalStateException(s"bloomparquet planned no partitions, yet was asked to read $partition")
}
