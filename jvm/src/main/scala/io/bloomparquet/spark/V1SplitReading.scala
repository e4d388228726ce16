package io.bloomparquet.spark

import io.bloomparquet.compat.{ByteRange, SparkCompat}
import io.bloomparquet.options.ReadSettings
import io.bloomparquet.planning.{JudgedVersion, KeptRowGroups}
import io.bloomparquet.pruning.BloomPredicate
import org.apache.spark.broadcast.Broadcast
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.execution.datasources.PartitionedFile
import org.apache.spark.util.SerializableConfiguration

/**
 * What a task of a V1 Parquet scan reads of one of Spark's splits, through `read` (the format's own
 * reader, so everything it does per file happens as for any split): the V1 half of the task side
 * [[PlannedReaderFactory]] is for V2 scans.
 *
 *  - `cutByPlanning`: a split of a file planning listed with [[KeptRowGroups]] (a Delta Lake read) is read
 *    as the runs of kept row groups it owns (parquet-java's midpoint rule, gaps up to `gapBytes` read
 *    through), where the file is still the version planning judged;
 *  - else, given `inTask`, the task judges the split's file from its footer and reads what it keeps
 *    (the `bloomparquet` V1 format: Spark plans V1 scans itself);
 *  - else the split as Spark planned it: a file gone or another version by now is Spark's reader's to meet.
 */
private[spark] final class V1SplitReading(read: PartitionedFile => Iterator[InternalRow],
    conf: Broadcast[SerializableConfiguration], cutByPlanning: Boolean, gapBytes: Long, inTask: Option[V1SplitReading.Judge])
    extends (PartitionedFile => Iterator[InternalRow]) with Serializable {

  override def apply(split: PartitionedFile): Iterator[InternalRow] = {
    val planned = if (cutByPlanning) KeptRowGroups.OfListedFile.of(split) else None
    planned.filter(k => JudgedVersion.now(SparkCompat.filePath(split), conf.value.value).contains(k.judged)) match {
      case Some(k) => k.ranges(split.start, split.length, gapBytes) match {
          case Seq(ByteRange(start, length)) if start == split.start && length == split.length => read(split)
          case ranges => ranges.iterator.flatMap(r => read(SparkCompat.withRange(split, r.start, r.length)))
        }
      case None => inTask.fold(read(split)) { j =>
          SplitPruning.prune(Seq(split), j.predicate, conf.value.value, j.settings, PruningSite.InTaskOneAtATime)
            .kept.iterator.flatMap(read)
        }
    }
  }
}

private[spark] object V1SplitReading {

  /** The predicate and settings a task judges its split's file with. */
  final case class Judge(predicate: BloomPredicate, settings: ReadSettings)
}
