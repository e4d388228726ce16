package io.bloomparquet.tail

import java.io.{ByteArrayOutputStream, OutputStream}
import java.nio.{ByteBuffer, ByteOrder}

import scala.jdk.CollectionConverters._

import io.bloomparquet.compat.ParquetFilterShims
import io.bloomparquet.sbbf.SplitBlockBloomFilter
import io.bloomparquet.schema.ColumnResolver
import org.apache.parquet.format.{BloomFilterAlgorithm, BloomFilterCompression, BloomFilterHash, BloomFilterHeader, ColumnChunk, FileMetaData, SplitBlockAlgorithm, Uncompressed, Util, XxHash}

/** A filter for the column chunk `column` (index in the row group's column list) of row group `rowGroup`. */
final case class ChunkBloom(rowGroup: Int, column: Int, filter: SplitBlockBloomFilter)

/**
 * The end of a Parquet file: bloom filters appended one after another (so a
 * reader fetches all of a file's new filters in one read), then the footer
 * thrift, its length and the magic. Shared by the writer (which splices the
 * filters in before the footer parquet-java wrote) and retrofit (which appends
 * them after a file's existing bytes). Footers are written only with
 * parquet-format-structures' thrift classes; [[FooterTail]] reads them.
 */
object FilterTail {
  /** Why encrypted files are refused: filters spliced in would be plaintext, next to a footer we can't re-seal. */
  private[tail] val NoSplicing = "bloomparquet's file tools (retrofit, bloomparquet_filters, bloomparquet_probe) neither " +
    "decrypt such files nor add filters to them (new filters would have to be encrypted with the column keys and the " +
    "footer re-encrypted or re-signed). Queries read them with the session's keys; writing with " +
    "format(\"bloomparquet\") and encryption settings writes encrypted filters"

  /** Refuses files we must not touch: encrypted columns or an encryption algorithm in a plaintext footer. */
  def checkNotEncrypted(fmd: FileMetaData): Either[String, Unit] =
    if (fmd.isSetEncryption_algorithm || fmd.isSetFooter_signing_key_metadata)
      Left(s"the file uses Parquet modular encryption (plaintext footer); $NoSplicing")
    else if (fmd.getRow_groups.asScala.exists(_.getColumns.asScala.exists(c => c.isSetCrypto_metadata || c.isSetEncrypted_column_metadata)))
      Left(s"the file has encrypted columns (Parquet modular encryption); $NoSplicing")
    else Right(())

  /** Where each column chunk's bytes end (data pages incl. dictionary). */
  def chunkEnd(c: ColumnChunk): Long = {
    val md = c.getMeta_data
    val start = if (md.isSetDictionary_page_offset && md.getDictionary_page_offset > 0)
      math.min(md.getDictionary_page_offset, md.getData_page_offset)
    else md.getData_page_offset
    start + md.getTotal_compressed_size
  }

  /** Index of the column chunk with `path` (as the file spells it: exact match) in every row group, or None. */
  def columnIndex(fmd: FileMetaData, path: Seq[String]): Option[Int] = {
    def pathOf(c: ColumnChunk) = c.getMeta_data.getPath_in_schema.asScala.toSeq
    val rgs = fmd.getRow_groups.asScala
    rgs.headOption.flatMap(rg => ColumnResolver.leaf(rg.getColumns.asScala.toSeq.map(pathOf), path, caseSensitive = true).toOption)
      .filter(idx => rgs.forall(rg => rg.getColumns.size > idx && pathOf(rg.getColumns.get(idx)) == path))
  }

  private def header(numBytes: Int): BloomFilterHeader = new BloomFilterHeader(
    numBytes,
    BloomFilterAlgorithm.BLOCK(new SplitBlockAlgorithm()),
    BloomFilterHash.XXHASH(new XxHash()),
    BloomFilterCompression.UNCOMPRESSED(new Uncompressed()))

  /** Header + bitset, as stored in the file. */
  def serialize(filter: SplitBlockBloomFilter): Array[Byte] = {
    val out = new ByteArrayOutputStream(filter.numBytes + 32)
    Util.writeBloomFilterHeader(header(filter.numBytes), out)
    filter.writeTo(out)
    out.toByteArray
  }

  /**
   * Writes `filters` then the footer `fmd` (mutated: only the bloom offset and
   * length of those chunks change) to `out`, whose first byte lands at file
   * position `position`. Returns the bytes written.
   */
  def writeFiltersAndFooter(out: OutputStream, position: Long, fmd: FileMetaData, filters: Seq[ChunkBloom]): Long = {
    var pos = position
    filters.foreach { f =>
      val bytes = serialize(f.filter)
      val md = fmd.getRow_groups.get(f.rowGroup).getColumns.get(f.column).getMeta_data
      md.setBloom_filter_offset(pos)
      ParquetFilterShims.setBloomFilterLength(md, bytes.length)
      out.write(bytes)
      pos += bytes.length
    }
    val footer = new ByteArrayOutputStream()
    Util.writeFileMetaData(fmd, footer)
    footer.writeTo(out)
    val len = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(footer.size).array()
    out.write(len)
    out.write(FooterTail.Magic)
    pos - position + footer.size + 8
  }
}
