package io.bloomparquet.write

import io.bloomparquet.compat.ParquetFilterShims
import io.bloomparquet.options.BloomColumn
import org.apache.hadoop.conf.Configuration
import org.apache.parquet.hadoop.ParquetOutputFormat

/**
 * Filters in encrypted files (Parquet modular encryption). parquet-java writes
 * them: it seals each encrypted column's filter as header and bitset modules
 * with the column key and their AADs, and the footer that points at them is
 * encrypted or signed by the same writer. Splicing our own filters in would
 * mean re-encrypting and re-signing that footer, i.e. re-implementing the
 * encryption. So the columns and FPPs are ours, the sizing parquet-java's:
 * `bloom.ndv.<column>` when given, else its adaptive filter (candidates from
 * `parquet.bloom.filter.max.bytes` down to 32 bytes, the smallest that holds
 * the chunk's distinct values at the FPP is kept).
 */
object EncryptedFilters {
  /** Halvings of the largest candidate: 1 MiB down to 32 bytes. */
  private val Candidates = 16

  /**
   * Has parquet-java write `columns`' filters into the job's (encrypted) files.
   * Adaptive sizing is one switch for the whole file in parquet-java (an NDV wins
   * over it): set unless the job sets it, it also sizes the filters of other
   * columns given parquet-java filters without an NDV (instead of the maximum).
   */
  def delegate(conf: Configuration, columns: Seq[BloomColumn]): Unit = {
    if (columns.exists(_.ndv.isEmpty) && conf.get(ParquetFilterShims.AdaptiveBloomFilterEnabled) == null)
      conf.setBoolean(ParquetFilterShims.AdaptiveBloomFilterEnabled, true)
    columns.foreach { c =>
      def set(key: String, value: String): Unit = conf.set(s"$key#${c.dotted}", value)
      set(ParquetOutputFormat.BLOOM_FILTER_ENABLED, "true")
      set(ParquetOutputFormat.BLOOM_FILTER_FPP, c.fpp.toString)
      c.ndv match {
        case Some(ndv) => set(ParquetOutputFormat.BLOOM_FILTER_EXPECTED_NDV, ndv.toString)
        case None => set(ParquetFilterShims.BloomFilterCandidatesNumber, Candidates.toString)
      }
    }
  }
}
