package io.bloomparquet.spark

import io.bloomparquet.options.SparkPushdown
import org.apache.hadoop.conf.Configuration
import org.apache.parquet.hadoop.ParquetInputFormat

/**
 * What parquet-java inside Spark's tasks may judge in scans we prune.
 *
 * Bloom filters, never (judge each filter once): it would re-read the filters of every row
 * group we kept, judge malformed filters we ignore by its own rules (and drop row groups
 * holding matches), and allocate whatever a footer claims.
 *
 * Column indexes (page skipping), off here, on with `bloom.sparkPushdown=all`: a column index is
 * not checked against anything before parquet-java drops pages with it, and writers have shipped
 * wrong ones (every page marked all-null while the chunk's statistics count values, as in
 * parquet-testing's `datapage_v1-*-checksum.parquet`): every row of such a chunk is lost. Under
 * `safe`, [[PageSkipping]] turns it back on for each split whose indexes agree with its footer.
 *
 * Chunk statistics and dictionaries stay on for what `bloom.sparkPushdown` lets through:
 * parquet-java ignores statistics whose sort order it can't trust, and uses a dictionary only
 * when the chunk's encoding stats show every data page is dictionary-encoded.
 */
object InTaskParquet {
  def settings(pushdown: SparkPushdown): Map[String, String] = Map(
    ParquetInputFormat.BLOOM_FILTERING_ENABLED -> "false",
    ParquetInputFormat.COLUMN_INDEX_FILTERING_ENABLED -> (pushdown == SparkPushdown.All).toString)

  /**
   * For scans of another format (Delta Lake's, read through relation options that become its
   * Hadoop configuration; the filters it pushes are judged by `PrunedScanFormat`): `safe` as
   * above; `none` also switches statistics and dictionaries off, so parquet-java drops no row
   * group; `all` leaves the reader as it was.
   */
  def settingsOfOtherFormats(pushdown: SparkPushdown): Map[String, String] = pushdown match {
    case SparkPushdown.All => Map.empty
    case SparkPushdown.Off => settings(pushdown) ++ Map(
        ParquetInputFormat.STATS_FILTERING_ENABLED -> "false",
        ParquetInputFormat.DICTIONARY_FILTERING_ENABLED -> "false")
    case SparkPushdown.Safe => settings(pushdown)
  }

  /** For the V1 route, which hands us the Hadoop configuration its reader will use. */
  def configure(conf: Configuration, pushdown: SparkPushdown): Unit =
    settings(pushdown).foreach { case (k, v) => conf.set(k, v) }
}
