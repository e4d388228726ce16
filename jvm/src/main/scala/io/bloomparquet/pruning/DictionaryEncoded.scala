package io.bloomparquet.pruning

import scala.jdk.CollectionConverters._

import io.bloomparquet.compat.ByteRange
import org.apache.parquet.column.Encoding
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData

/**
 * Whether every data page of a chunk is dictionary-encoded, so that its dictionary holds every
 * value its rows do. The footer's encoding stats say so; without them only the Parquet 1.0
 * encodings can (PLAIN_DICTIONARY beside level encodings alone, as parquet-java's dictionary
 * filter reads them): a 2.0 chunk listing RLE_DICTIONARY may have fallen back to plain pages.
 */
object DictionaryEncoded {
  // The 1.0 names, deprecated in parquet-java but what such files' footers hold.
  val PlainDictionary: Encoding = Encoding.valueOf("PLAIN_DICTIONARY")
  private val LevelEncodings: Set[Encoding] = Set(Encoding.RLE, Encoding.valueOf("BIT_PACKED"))

  def allPages(chunk: ColumnChunkMetaData): Boolean = {
    val stats = chunk.getEncodingStats
    if (stats != null) stats.hasDictionaryPages && stats.hasDictionaryEncodedPages && !stats.hasNonDictionaryEncodedPages
    else {
      val encodings = Option(chunk.getEncodings).fold(Set.empty[Encoding])(_.asScala.toSet)
      encodings.contains(PlainDictionary) && (encodings - PlainDictionary).subsetOf(LevelEncodings)
    }
  }

  /** Where the chunk's dictionary page lies, when the footer places it before the data pages. */
  def pageRange(chunk: ColumnChunkMetaData): Option[ByteRange] = {
    val (dictionary, data) = (chunk.getDictionaryPageOffset, chunk.getFirstDataPageOffset)
    if (dictionary > 0 && dictionary < data) Some(ByteRange(dictionary, data - dictionary)) else None
  }
}
