// In Spark's package: the RDD of `parallelize` and its partitions are private[spark].
package org.apache.spark.bloomparquet

import org.apache.spark.OneToOneDependency
import org.apache.spark.rdd.{ParallelCollectionPartition, ParallelCollectionRDD, RDD}
import org.apache.spark.util.SizeEstimator

/**
 * The bytes an RDD's data takes in the driver, when the RDD is `parallelize`d data seen through
 * one-to-one maps only: what PySpark's `createDataFrame` from a list or (Arrow off) from pandas
 * builds — pickled batches parallelized, then unpickled into rows. Read from the partitions the
 * driver already holds; no job runs.
 */
object DriverHeldRdd {

  /** The payload of `rdd`'s root collection, counting up to just past `limit`; None when it is not driver-held. */
  def bytes(rdd: RDD[_], limit: Long): Option[Long] = rdd match {
    case p: ParallelCollectionRDD[_] => payload(p, limit)
    case _ => rdd.dependencies match {
        case Seq(d: OneToOneDependency[_]) => bytes(d.rdd, limit)
        case _ => None
      }
  }

  // Slicing the collection into partitions is local (no job); counting stops once past `limit`.
  private def payload(rdd: ParallelCollectionRDD[_], limit: Long): Option[Long] = {
    val slices = rdd.partitions.iterator
    var sum = 0L
    var known = true
    while (known && sum <= limit && slices.hasNext) slices.next() match {
      case p: ParallelCollectionPartition[_] => sum += valuesBytes(p.values)
      case _ => known = false
    }
    if (known) Some(sum) else None
  }

  // PySpark's partitions hold serialized batches (pickle or Arrow): their lengths are the data's size.
  private def valuesBytes(values: Seq[_]): Long = values.headOption match {
    case Some(_: Array[Byte]) => values.iterator.map {
        case b: Array[Byte] => b.length.toLong
        case other => SizeEstimator.estimate(other.asInstanceOf[AnyRef])
      }.sum
    // Other collections (Scala `parallelize`): Spark's own estimate, at least 8 bytes a row (a Range is tiny).
    case Some(_) => math.max(SizeEstimator.estimate(values), 8L * values.size)
    case None => 0L
  }
}
