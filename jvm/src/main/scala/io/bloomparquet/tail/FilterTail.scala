package io.bloomparquet.tail

import java.io.{ByteArrayInputStream, ByteArrayOutputStream, OutputStream}
import java.nio.charset.StandardCharsets.US_ASCII
import java.nio.{ByteBuffer, ByteOrder}

import scala.jdk.CollectionConverters._

import io.bloomparquet.sbbf.SplitBlockBloomFilter
import io.bloomparquet.schema.ColumnResolver
import org.apache.parquet.format.{BloomFilterAlgorithm, BloomFilterCompression, BloomFilterHash, BloomFilterHeader,
  ColumnChunk, FileMetaData, SplitBlockAlgorithm, Uncompressed, Util, XxHash}

/** A filter for the column chunk `column` (index in the row group's column list) of row group `rowGroup`. */
final case class ChunkBloom(rowGroup: Int, column: Int, filter: SplitBlockBloomFilter)

/**
 * The end of a Parquet file: bloom filters appended one after another (so a
 * reader fetches all of a file's new filters in one read), then the footer
 * thrift, its length and the magic. Shared by the writer (which splices the
 * filters in before the footer parquet-java wrote) and retrofit (which appends
 * them after a file's existing bytes). Footers are parsed and written only with
 * parquet-format-structures' thrift classes.
 */
object FilterTail {
  val Magic: Array[Byte] = "PAR1".getBytes(US_ASCII)
  val EncryptedMagic: Array[Byte] = "PARE".getBytes(US_ASCII)

  /** Where the footer is in `tail` (the last bytes of a file): (footer start in tail, footer length), or why not. */
  /** The footer length a plaintext Parquet file's last 8 bytes state, whether or not `tail` holds it all. */
  def footerLength(tail: Array[Byte]): Option[Int] =
    if (tail.length < 8 || !java.util.Arrays.equals(java.util.Arrays.copyOfRange(tail, tail.length - 4, tail.length), Magic)) None
    else Some(ByteBuffer.wrap(tail, tail.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt).filter(_ > 0)

  def locateFooter(tail: Array[Byte]): Either[String, (Int, Int)] = {
    if (tail.length < 12) return Left(s"${tail.length} bytes cannot hold a Parquet footer")
    val magic = java.util.Arrays.copyOfRange(tail, tail.length - 4, tail.length)
    if (java.util.Arrays.equals(magic, EncryptedMagic))
      return Left(s"the file has an encrypted footer (Parquet modular encryption); $NoSplicing")
    if (!java.util.Arrays.equals(magic, Magic)) return Left("the file does not end with the Parquet magic PAR1")
    val len = ByteBuffer.wrap(tail, tail.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt
    if (len <= 0 || len > tail.length - 8) Left(s"footer length $len does not fit the ${tail.length}-byte tail")
    else Right((tail.length - 8 - len, len))
  }

  def parseFooter(bytes: Array[Byte], offset: Int, length: Int): FileMetaData =
    Util.readFileMetaData(new ByteArrayInputStream(bytes, offset, length))

  /** Why encrypted files are refused: filters spliced in would be plaintext, next to a footer we can't re-seal. */
  private val NoSplicing = "bloomparquet's file tools (retrofit, bloomparquet_filters, bloomparquet_probe) neither " +
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
      math.min(md.getDictionary_page_offset, md.getData_page_offset) else md.getData_page_offset
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
      md.setBloom_filter_length(bytes.length)
      out.write(bytes)
      pos += bytes.length
    }
    val footer = new ByteArrayOutputStream()
    Util.writeFileMetaData(fmd, footer)
    footer.writeTo(out)
    val len = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(footer.size).array()
    out.write(len)
    out.write(Magic)
    pos - position + footer.size + 8
  }
}
