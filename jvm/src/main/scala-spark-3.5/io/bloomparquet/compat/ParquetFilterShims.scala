package io.bloomparquet.compat

import scala.jdk.CollectionConverters._

import com.github.benmanes.caffeine.cache.{Cache, Caffeine}
import org.apache.hadoop.conf.Configuration
import org.apache.parquet.format.ColumnMetaData
import org.apache.parquet.hadoop.ParquetWriter
import org.apache.parquet.hadoop.metadata.{ColumnChunkMetaData, ParquetMetadata}

/**
 * parquet-java's bloom filter and writer settings API, in Spark 3.5's parquet-java (1.13), which predates
 * 1.14's: no `bloom_filter_length` in its footer model (parquet-format 2.9: planning reads it from the
 * footer's bytes itself, [[io.bloomparquet.tail.FilterLengths]]), no adaptive filter sizing, no
 * statistics switches.
 */
object ParquetFilterShims {

  // The lengths planning's footer reads found in the thrift bytes, by chunk (Caffeine's weak keys: by
  // identity, dropped with the footer that holds the chunk).
  private val lengths: Cache[ColumnChunkMetaData, Integer] =
    Caffeine.newBuilder().weakKeys().build[ColumnChunkMetaData, Integer]()

  /**
   * 1.13's footer model has no `bloom_filter_length`: the length [[noteFilterLengths]] found for the
   * chunk in its footer's bytes, when planning read them (else its filter is read whole).
   */
  def bloomFilterLength(chunk: ColumnChunkMetaData): Option[Int] = Option(lengths.getIfPresent(chunk)).map(_.intValue)

  /** Notes `footer`'s chunks' lengths (`lengths`: per row group, per chunk, read from its thrift bytes). */
  def noteFilterLengths(footer: ParquetMetadata, lengths: => IndexedSeq[IndexedSeq[Option[Int]]]): Unit = {
    val blocks = footer.getBlocks.asScala.toIndexedSeq
    if (blocks.exists(_.getColumns.asScala.exists(_.getBloomFilterOffset >= 0))) {
      val found = lengths
      if (found.size == blocks.size && blocks.zip(found).forall { case (b, l) => b.getColumns.size == l.size })
        for ((block, chunkLengths) <- blocks.zip(found); (chunk, length) <- block.getColumns.asScala.zip(chunkLengths))
          length.foreach(n => this.lengths.put(chunk, n))
    }
  }

  def bloomFilterLength(md: ColumnMetaData): Option[Int] = None

  /** Files written here carry no `bloom_filter_length` (optional in the format; readers find the header). */
  def setBloomFilterLength(md: ColumnMetaData, length: Int): Unit = ()

  /** Whether parquet-java sizes NDV-less filters by the values a chunk holds: 1.13 cannot. */
  val adaptiveFilters: Boolean = false

  /** parquet-java 1.14's key; 1.13 ignores it (an NDV-less filter takes `parquet.bloom.filter.max.bytes`). */
  val AdaptiveBloomFilterEnabled: String = "parquet.bloom.filter.adaptive.enabled"

  /** parquet-java 1.14's key; 1.13 ignores it. */
  val BloomFilterCandidatesNumber: String = "parquet.bloom.filter.candidates.number"

  /** parquet-java 1.13 has none of 1.14's writer settings: nothing to apply. */
  def withNewerSettings[B <: ParquetWriter.Builder[_, B]](builder: B, conf: Configuration): B = builder
}
