package io.bloomparquet.spark

import java.util.Locale

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.SparkPushdown
import io.bloomparquet.planning.PageIndexTrust
import io.bloomparquet.schema.ColumnName
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.hadoop.ParquetInputFormat
import org.apache.spark.broadcast.Broadcast
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.execution.datasources.PartitionedFile
import org.apache.spark.sql.sources.Filter
import org.apache.spark.util.SerializableConfiguration

/**
 * parquet-java's page skipping by column index in a scan we prune, under `bloom.sparkPushdown=safe`:
 * on for each split whose page indexes [[PageIndexTrust]] finds consistent with their footer, off for
 * the others. Spark's own reader skips pages by every index unchecked; one that never skipped pages
 * would decode more rows than Spark's wherever the data is sorted. `columns`: the leaves the filters
 * handed to Spark's reader name (dotted, lower case), whose indexes parquet-java would use.
 */
final case class PageSkipping(columns: Set[String]) {

  /** Whether `split`'s page indexes may be used (read in the task: its footer, then the judged indexes). */
  def trusted(split: PartitionedFile, conf: Configuration): Boolean =
    PageIndexTrust.trusted(new Path(SparkCompat.filePath(split)), split.fileSize, split.modificationTime, split.start,
      split.length, columns, conf)

  /** A V1 format's reading of a split: through `indexed` (page skipping on) where it is trusted, else `plain`. */
  def choose(plain: PartitionedFile => Iterator[InternalRow], indexed: PartitionedFile => Iterator[InternalRow],
      conf: Broadcast[SerializableConfiguration]): PartitionedFile => Iterator[InternalRow] =
    split => if (trusted(split, conf.value.value)) indexed(split) else plain(split)
}

object PageSkipping {
  val Key: String = ParquetInputFormat.COLUMN_INDEX_FILTERING_ENABLED

  /**
   * The page skipping of a scan whose reader gets `pushed` under `pushdown`: none where Spark's
   * reader would skip no page by them (nothing pushed, Spark's pushdown off), where the session
   * switched page skipping off, or under `all` (page skipping on, unchecked) and `none`.
   */
  def of(spark: SparkSession, pushdown: SparkPushdown, pushed: Seq[Filter]): Option[PageSkipping] =
    if (pushdown != SparkPushdown.Safe || pushed.isEmpty || !SparkCompat.sqlConf(spark).parquetFilterPushDown) None
    else if (!SparkCompat.newHadoopConf(spark).getBoolean(Key, true)) None
    else Some(PageSkipping(pushed.flatMap(_.references).map(leaf).toSet))

  private def leaf(attribute: String): String =
    ColumnName.parse(attribute).fold(_ => attribute, _.mkString(".")).toLowerCase(Locale.ROOT)

  /** A copy of `conf` with parquet-java's page skipping on. */
  def on(conf: Configuration): Configuration = {
    val copy = new Configuration(conf)
    copy.setBoolean(Key, true)
    copy
  }
}
