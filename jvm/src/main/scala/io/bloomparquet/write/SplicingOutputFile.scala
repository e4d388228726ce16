package io.bloomparquet.write

import java.io.ByteArrayOutputStream

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import io.bloomparquet.options.BloomColumn
import io.bloomparquet.sbbf.SplitBlockBloomFilter
import io.bloomparquet.tail.{ChunkBloom, FilterTail, FooterTail}
import org.apache.parquet.io.{OutputFile, PositionOutputStream}
import org.slf4j.LoggerFactory

/** The filters of one row group, in [[BloomColumn]] order, and its row count (to match the footer). */
final case class RowGroupFilters(rows: Long, filters: Array[SplitBlockBloomFilter])

/**
 * An [[OutputFile]] whose stream writes through until [[startBuffering]] (called
 * when parquet-java has flushed its last row group), then keeps the tail it is
 * given (page indexes, parquet-java's own filters, footer) in memory. On close it
 * writes that tail's indexes and filters unchanged, our filters right after them,
 * then the footer with `bloom_filter_offset/length` set. If anything about the
 * tail is not what we expect, the tail is written unchanged: a valid file
 * without our filters, never a broken one.
 */
final class SplicingOutputFile(delegate: OutputFile, columns: Seq[BloomColumn], rowGroups: () => Seq[RowGroupFilters])
    extends OutputFile {

  private var stream: SplicingStream = _

  override def create(blockSizeHint: Long): PositionOutputStream = wrap(delegate.create(blockSizeHint))
  override def createOrOverwrite(blockSizeHint: Long): PositionOutputStream = wrap(delegate.createOrOverwrite(blockSizeHint))
  override def supportsBlockSize(): Boolean = delegate.supportsBlockSize()
  override def defaultBlockSize(): Long = delegate.defaultBlockSize()
  override def getPath: String = delegate.getPath

  private def wrap(out: PositionOutputStream): PositionOutputStream = {
    stream = new SplicingStream(out, (tailStart, tail) => splice(tailStart, tail))
    stream
  }

  /** From now on everything written is the file's tail. */
  def startBuffering(): Unit = if (stream != null) stream.startBuffering()

  /** What to write in place of `tail` (which starts at file position `tailStart`). */
  private def splice(tailStart: Long, tail: Array[Byte]): Array[Byte] = {
    val out = new ByteArrayOutputStream(tail.length + 1024)
    SplicingOutputFile.plan(tailStart, tail, columns, rowGroups()) match {
      case Right((prefixLength, fmd, blooms)) =>
        out.write(tail, 0, prefixLength)
        FilterTail.writeFiltersAndFooter(out, tailStart + prefixLength, fmd, blooms)
        out.toByteArray
      case Left(reason) =>
        SplicingOutputFile.log.warn(s"bloomparquet: writing ${delegate.getPath} without bloom filters: $reason")
        tail
    }
  }
}

object SplicingOutputFile {
  private val log = LoggerFactory.getLogger(classOf[SplicingOutputFile])

  /**
   * Checks the buffered tail against what we collected and, when it all agrees,
   * returns (bytes of the tail before the footer, the footer to rewrite, the filters).
   */
  def plan(tailStart: Long, tail: Array[Byte], columns: Seq[BloomColumn], rowGroups: Seq[RowGroupFilters])
      : Either[String, (Int, org.apache.parquet.format.FileMetaData, Seq[ChunkBloom])] =
    try {
      FooterTail.locateFooter(tail).flatMap { case (footerStart, footerLength) =>
        val fmd = FooterTail.parseFooter(tail, footerStart, footerLength)
        FilterTail.checkNotEncrypted(fmd).flatMap { _ =>
          val groups = fmd.getRow_groups.asScala.toSeq
          if (groups.size != rowGroups.size)
            Left(s"footer has ${groups.size} row groups, we saw ${rowGroups.size}")
          else if (groups.zip(rowGroups).exists { case (g, r) => g.getNum_rows != r.rows })
            Left("row counts in the footer differ from the rows we hashed")
          else if (groups.exists(_.getColumns.asScala.exists(c => FilterTail.chunkEnd(c) > tailStart)))
            Left("column data found after the point where the tail was expected to start")
          else {
            val indexes = columns.map(c => FilterTail.columnIndex(fmd, c.path))
            columns.zip(indexes).find(_._2.isEmpty) match {
              case Some((c, _)) if groups.nonEmpty => Left(s"column ${c.dotted} not found in the footer")
              case _ =>
                val blooms = for {
                  (rg, g) <- rowGroups.zipWithIndex
                  (idx, i) <- indexes.zipWithIndex
                  col <- idx
                } yield ChunkBloom(g, col, rg.filters(i))
                Right((footerStart, fmd, blooms))
            }
          }
        }
      }
    } catch { case NonFatal(e) => Left(s"unreadable footer: $e") }
}

/** Writes through, then buffers after [[startBuffering]]; `finish` rewrites the buffered tail at close. */
final class SplicingStream(out: PositionOutputStream, finish: (Long, Array[Byte]) => Array[Byte])
    extends PositionOutputStream {
  private var tail: ByteArrayOutputStream = _
  private var tailStart = 0L
  private var closed = false

  def startBuffering(): Unit = if (tail == null) {
    tailStart = out.getPos
    tail = new ByteArrayOutputStream(64 * 1024)
  }

  override def getPos: Long = if (tail == null) out.getPos else tailStart + tail.size
  override def write(b: Int): Unit = if (tail == null) out.write(b) else tail.write(b)
  override def write(b: Array[Byte], off: Int, len: Int): Unit =
    if (tail == null) out.write(b, off, len) else tail.write(b, off, len)
  override def flush(): Unit = if (tail == null) out.flush()

  override def close(): Unit = if (!closed) {
    closed = true
    try { if (tail != null) out.write(finish(tailStart, tail.toByteArray)) }
    finally out.close()
  }
}
