package io.bloomparquet.sql

import scala.jdk.CollectionConverters._

import io.bloomparquet.compat.ParquetFilterShims
import io.bloomparquet.kernel.SbbfKernels
import io.bloomparquet.sbbf.{BloomFilterReader, FilterFound}
import io.bloomparquet.tail.FooterTail
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileStatus, Path}
import org.apache.parquet.format.FileMetaData
import org.apache.parquet.hadoop.util.HadoopInputFile

/** A column chunk's filter: where the footer says it is (`length` when `bloom_filter_length` is set) and what reading it gave. */
final case class StoredFilter(rowGroup: Int, column: Int, path: Seq[String], offset: Long, length: Option[Int],
    read: FilterFound.Whole)

/** Reads a Parquet file's footer and the filters of the chunks asked for, with the read path's reader. */
object StoredFilters {

  def footer(file: String, conf: Configuration): (FileStatus, FileMetaData) = {
    val p = new Path(file)
    val status = p.getFileSystem(conf).getFileStatus(p)
    (status, FooterTail.readThrift(p.getFileSystem(conf), status)._1)
  }

  /** The filters of the chunks (row group, column index) `wanted` selects, in footer order; chunks with no filter offset read as Absent. */
  def read(status: FileStatus, fmd: FileMetaData, conf: Configuration, wanted: (Int, Int) => Boolean): Seq[StoredFilter] = {
    val chunks = fmd.getRow_groups.asScala.toIndexedSeq.zipWithIndex.flatMap { case (rg, r) =>
      rg.getColumns.asScala.toIndexedSeq.zipWithIndex.collect {
        case (c, i) if wanted(r, i) =>
          val md = c.getMeta_data
          val offset = if (md.isSetBloom_filter_offset) md.getBloom_filter_offset else -1L
          val length = ParquetFilterShims.bloomFilterLength(md)
          (r, i, md.getPath_in_schema.asScala.toSeq, offset, length, c.isSetCrypto_metadata)
      }
    }
    // A plaintext footer's encrypted columns: their filters are sealed, and these functions hold no keys.
    val (sealedChunks, plain) = chunks.partition(_._6)
    val reads = if (plain.isEmpty) Nil
    else {
      val in = HadoopInputFile.fromStatus(status, conf).newStream()
      try BloomFilterReader.readMany(in, status.getLen,
          plain.map { case (_, _, _, o, l, _) => BloomFilterReader.FilterAt(o, l.getOrElse(BloomFilterReader.UnknownLength)) },
          SbbfKernels.get())
      finally in.close()
    }
    val sealedRead = FilterFound.Broken("encrypted column (Parquet modular encryption): its filter is not decrypted here", 0)
    val byChunk = (plain.zip(reads) ++ sealedChunks.map(_ -> sealedRead)).toMap
    chunks.map { case c @ (r, i, p, o, l, _) => StoredFilter(r, i, p, o, l, byChunk(c)) }
  }
}
