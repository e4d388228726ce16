package io.bloomparquet.planning

import scala.jdk.CollectionConverters._

import org.apache.parquet.column.statistics.BinaryStatistics
import org.apache.parquet.hadoop.metadata.ParquetMetadata

/**
 * Heap bytes of what a cached [[FileBloomIndex]] holds, as a 64-bit JVM lays it
 * out with compressed references (heaps under 32 GiB: 12-byte headers, 4-byte
 * references, 8-byte alignment). Arrays are counted exactly; parquet-java's
 * metadata objects by per-object costs measured with heap deltas
 * (FileBloomIndexCacheSuite checks the total against one).
 */
object HeapBytes {
  private def align(n: Long): Long = (n + 7) & ~7L

  def array(elementBytes: Long): Long = align(16 + elementBytes)

  /** A string of `chars` Latin-1 characters (compact strings): the String and its byte array. */
  def string(chars: Int): Long = 24 + array(chars)

  /** A ConcurrentHashMap entry keyed by a `ChunkAt`: node, key, its share of the table (resized by doubling). */
  val ChunkMapEntry: Long = 32 + 24 + 20

  // Fitted to heap deltas (FileBloomIndexCacheSuite, parquet-java of Spark 4.3; a 160-chunk and a 960-chunk
  // file): a column chunk's metadata (ColumnChunkMetaData, its statistics, encoding stats, index references)
  // without binary min/max bytes; a row group's BlockMetaData and its column list; the file metadata and schema.
  private val PerChunk = 480L
  private val PerRowGroup = 200L
  private val PerFile = 2048L
  private val PerSchemaField = 160L

  /** A footer parsed by parquet-java: its row groups' chunk metadata, statistics bytes, schema and key-values. */
  def footer(footer: ParquetMetadata): Long = {
    var bytes = PerFile
    val meta = footer.getFileMetaData
    bytes += meta.getSchema.getPaths.size * PerSchemaField
    meta.getKeyValueMetaData.asScala.foreach { case (k, v) => bytes += 32 + string(k.length) + string(v.length) }
    if (meta.getCreatedBy != null) bytes += string(meta.getCreatedBy.length)
    footer.getBlocks.asScala.foreach { block =>
      bytes += PerRowGroup + 4L * block.getColumns.size
      block.getColumns.asScala.foreach { chunk =>
        bytes += PerChunk
        chunk.getStatistics match {
          case s: BinaryStatistics if s.hasNonNullValue =>
            bytes += 2 * 32 + array(s.getMinBytes.length) + array(s.getMaxBytes.length) // two Binary objects
          case _ =>
        }
      }
    }
    bytes
  }
}
