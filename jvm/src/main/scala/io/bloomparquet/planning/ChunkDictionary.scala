package io.bloomparquet.planning

import java.io.ByteArrayInputStream

import scala.util.control.NonFatal

import io.bloomparquet.compat.ByteRange
import io.bloomparquet.pruning.{DictionaryEncoded, DictionaryHashes, ImpossibleFilter}
import io.bloomparquet.sbbf.ParquetHash
import org.apache.parquet.bytes.BytesInput
import org.apache.parquet.column.page.DictionaryPage
import org.apache.parquet.column.{ColumnDescriptor, Encoding}
import org.apache.parquet.compression.CompressionCodecFactory
import org.apache.parquet.format.{PageType, Util}
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData
import org.apache.parquet.io.SeekableInputStream
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName._

/** What reading one column chunk's dictionary page gave. */
sealed trait ChunkDictionary {
  def bytesRead: Long
}

object ChunkDictionary {
  final case class Values(hashes: DictionaryHashes, bytesRead: Long) extends ChunkDictionary

  /** A dictionary pruning can't use: the chunk is read as if it had none. */
  final case class Unusable(reason: String, bytesRead: Long) extends ChunkDictionary

  /** The most bytes of a dictionary page planning reads (parquet-java and pyarrow write at most 1 MiB by default). */
  val MaxPageBytes: Long = 2L << 20

  /** The most bytes a dictionary page may decompress to: a page claiming more is not read. */
  private val MaxUncompressedBytes: Int = 16 << 20

  /** Whether the dictionary of `chunk` holds every value of its rows and lies where planning reads it. */
  def readable(chunk: ColumnChunkMetaData): Boolean =
    ParquetHash.hasBloomHash(chunk.getPrimitiveType.getPrimitiveTypeName) && DictionaryEncoded.allPages(chunk) &&
      DictionaryEncoded.pageRange(chunk).exists(_.length <= MaxPageBytes)

  /**
   * Reads the dictionary page of `chunk` (one read of the bytes before its first data page) with
   * parquet-java's page header, codecs and dictionary decoding, and hashes its values. Only the read
   * throws (an I/O error, worth trying again); anything unexpected in the page makes it [[Unusable]]. A dictionary without the chunk's own min or max
   * (statistics say the chunk holds them) is as unusable as a corrupt filter.
   */
  def read(in: SeekableInputStream, chunk: ColumnChunkMetaData, column: ColumnDescriptor,
      codecs: CompressionCodecFactory): ChunkDictionary = {
    val range = DictionaryEncoded.pageRange(chunk)
    if (range.isEmpty) return Unusable("no dictionary page before the data pages", 0)
    val ByteRange(offset, length) = range.get
    val bytes = new Array[Byte](length.toInt)
    in.seek(offset)
    in.readFully(bytes)
    try {
      val page = new ByteArrayInputStream(bytes)
      val header = Util.readPageHeader(page)
      val dictionary = header.getDictionary_page_header
      if (header.getType != PageType.DICTIONARY_PAGE || dictionary == null)
        return Unusable(s"a ${header.getType} page where the dictionary page should be", length)
      val encoding = Encoding.valueOf(dictionary.getEncoding.name)
      val (compressed, uncompressed) = (header.getCompressed_page_size, header.getUncompressed_page_size)
      if (encoding != Encoding.PLAIN && encoding != DictionaryEncoded.PlainDictionary)
        return Unusable(s"dictionary encoded $encoding", length)
      if (compressed < 0 || compressed > page.available || uncompressed < 0 || uncompressed > MaxUncompressedBytes)
        return Unusable(s"dictionary page sizes $compressed/$uncompressed outside its ${page.available} bytes", length)
      val body = BytesInput.from(bytes, length.toInt - page.available, compressed)
      val plain = codecs.getDecompressor(chunk.getCodec).decompress(body, uncompressed)
      val values = encoding.initDictionary(column, new DictionaryPage(plain, dictionary.getNum_values, encoding))
      val hashes = Array.tabulate(values.getMaxId + 1) { id =>
        column.getPrimitiveType.getPrimitiveTypeName match {
          case INT32 => ParquetHash.int32(values.decodeToInt(id))
          case INT64 => ParquetHash.int64(values.decodeToLong(id))
          case FLOAT => ParquetHash.float(values.decodeToFloat(id))
          case DOUBLE => ParquetHash.double(values.decodeToDouble(id))
          case _ => ParquetHash.binary(values.decodeToBinary(id))
        }
      }
      val found = DictionaryHashes.of(hashes)
      ImpossibleFilter.reason(chunk.getPrimitiveType, chunk.getStatistics, found)
        .fold[ChunkDictionary](Values(found, length))(why => Unusable(why.replace("filter", "dictionary"), length))
    } catch { case NonFatal(e) => Unusable(e.toString, length) }
  }
}
