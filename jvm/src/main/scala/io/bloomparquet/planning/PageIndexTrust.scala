package io.bloomparquet.planning

import java.util.Locale

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import com.github.benmanes.caffeine.cache.{Cache, Caffeine}

import io.bloomparquet.pruning.PageIndexConsistency
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.HadoopReadOptions
import org.apache.parquet.hadoop.ParquetFileReader
import org.apache.parquet.hadoop.metadata.{BlockMetaData, ColumnChunkMetaData}
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.parquet.schema.MessageType

/**
 * Whether parquet-java may skip pages by the page indexes of the row groups one split reads: every
 * column index it would use is consistent with its chunk's footer ([[PageIndexConsistency]]). Read
 * in the task that reads the split, as parquet-java reads them: the footer for the split's range
 * (the row groups whose midpoints lie in it, as Spark's reader selects them), with the read's keys
 * when the file is encrypted, then each judged chunk's column and offset index.
 */
object PageIndexTrust {

  /**
   * Whether the page indexes of `columns` (leaf paths joined by dots, in lower case; when one names
   * no leaf of the file, as under a table format's column mapping, every column's) in the row groups
   * of split `[start, start + length)` of `path` may be used. A file that cannot be read so: false.
   */
  def trusted(path: Path, fileLength: Long, modificationTime: Long, start: Long, length: Long, columns: Set[String],
      conf: Configuration): Boolean =
    // A read that failed is not kept: the next query tries again.
    Option(verdicts.get(Split(path.toString, fileLength, modificationTime, start, length, columns),
        _ => read(path, start, length, columns, conf).map(java.lang.Boolean.valueOf).orNull)).exists(_.booleanValue)

  /** A split of one file version, and the columns judged. */
  private final case class Split(path: String, fileLength: Long, modificationTime: Long, start: Long, length: Long,
      columns: Set[String])

  // Verdicts of this JVM, per split of a file version: a query after the first reads no footer or index for them
  // again. A file replaced in place has another length or time; a verdict is a few dozen bytes.
  private val verdicts: Cache[Split, java.lang.Boolean] = Caffeine.newBuilder().maximumSize(200000).build[Split, java.lang.Boolean]()

  private def read(path: Path, start: Long, length: Long, columns: Set[String], conf: Configuration): Option[Boolean] =
    try Some {
        val options = HadoopReadOptions.builder(conf, path).withRange(start, start + length).build()
        val reader = ParquetFileReader.open(HadoopInputFile.fromPath(path, conf), options)
        try {
          val schema = reader.getFooter.getFileMetaData.getSchema
          reader.getRowGroups.asScala.forall(block => judged(block, columns).forall(consistent(reader, schema, block, _)))
        } finally reader.close()
      }
    catch { case NonFatal(_) => None }

  private def name(chunk: ColumnChunkMetaData): String = chunk.getPath.toDotString.toLowerCase(Locale.ROOT)

  private def judged(block: BlockMetaData, columns: Set[String]): Seq[ColumnChunkMetaData] = {
    val chunks = block.getColumns.asScala.toSeq
    val named = chunks.filter(c => columns(name(c)))
    if (named.map(name).toSet == columns) named else chunks
  }

  private def consistent(reader: ParquetFileReader, schema: MessageType, block: BlockMetaData,
      chunk: ColumnChunkMetaData): Boolean =
    Option(reader.readColumnIndex(chunk)) match {
      case None => true // no column index: parquet-java reads every page
      case Some(index) =>
        Option(reader.readOffsetIndex(chunk)) match {
          case None => true // parquet-java skips no page without the offset index
          case Some(offsets) =>
            val repeated = schema.getColumnDescription(chunk.getPath.toArray).getMaxRepetitionLevel > 0
            PageIndexConsistency.consistent(chunk.getPrimitiveType, repeated, block.getRowCount, chunk.getValueCount,
              chunk.getStatistics, index, offsets)
        }
    }
}
