package io.bloomparquet.iceberg.impl

import scala.jdk.CollectionConverters._

import io.bloomparquet.planning.KeptRowGroups
import org.apache.iceberg.{DataFile, DeleteFile, FileScanTask, PartitionSpec, Schema, StructLike}
import org.apache.iceberg.expressions.Expression

/**
 * A data file's task that reads only the row groups planning kept. Iceberg splits a file's task at
 * its `split_offsets` (the row groups' starts) when it groups the scan's tasks into Spark's
 * partitions: this task's splits are Iceberg's own, those of the kept row groups, and adjacent ones
 * merge back as Iceberg merges any. Its own extent stays the whole file's, so read as it is (never,
 * as Iceberg splits every task it plans) it reads what Iceberg would have.
 */
private[impl] final class KeptRowGroupsTask(whole: FileScanTask, keptStarts: Set[Long], keptBytes: Long) extends FileScanTask {
  override def file(): DataFile = whole.file
  override def deletes(): java.util.List[DeleteFile] = whole.deletes
  override def schema(): Schema = whole.schema
  override def spec(): PartitionSpec = whole.spec
  override def partition(): StructLike = whole.partition
  override def start(): Long = whole.start
  override def length(): Long = whole.length
  override def residual(): Expression = whole.residual
  override def filesCount(): Int = whole.filesCount
  // What the task's reading costs, for Iceberg's packing of tasks: the kept row groups and the deletes.
  override def sizeBytes(): Long = keptBytes + (whole.sizeBytes - whole.length)
  override def estimatedRowsCount(): Long = whole.estimatedRowsCount * keptBytes / math.max(1L, whole.length)

  override def split(targetSplitSize: Long): java.lang.Iterable[FileScanTask] =
    whole.split(targetSplitSize).asScala.filter(s => keptStarts(s.start)).asJava
}

private[impl] object KeptRowGroupsTask {

  /**
   * `whole` cut to `kept`, where it is a whole file's task and Iceberg splits it at exactly the row
   * groups' starts planning read in the footer (else Iceberg's splits could not be told apart by row
   * group, and the file is read whole).
   */
  def of(whole: FileScanTask, kept: KeptRowGroups): Option[FileScanTask] = {
    val offsets = Option(whole.file.splitOffsets).map(_.asScala.map(_.longValue).toIndexedSeq)
    val starts = kept.spans.map(_.start)
    if (whole.start != 0 || whole.length != whole.file.fileSizeInBytes || !offsets.contains(starts)) None
    else {
      val keptSpans = kept.spans.indices.filter(kept.keep)
      Some(new KeptRowGroupsTask(whole, keptSpans.map(starts).toSet, keptSpans.map(kept.spans(_).compressedSize).sum))
    }
  }
}
