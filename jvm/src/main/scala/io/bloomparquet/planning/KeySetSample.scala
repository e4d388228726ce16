package io.bloomparquet.planning

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import com.github.benmanes.caffeine.cache.{Cache, Caffeine}
import io.bloomparquet.kernel.SbbfKernels
import io.bloomparquet.pruning.ChunkAt
import io.bloomparquet.pruning.KeySetPayoff.RowGroupSample
import io.bloomparquet.sbbf.{BloomFilterReader, FillEstimates, FilterFound}
import io.bloomparquet.schema.FileColumn
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileStatus, Path}
import org.apache.parquet.column.statistics.Statistics
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName

/**
 * What a key-set filter's payoff is judged on ([[io.bloomparquet.pruning.KeySetPayoff]]): a few
 * row groups of a listing (the first and middle one of the files [[BloomColumns]] samples) with,
 * for one column, its filter's false-positive rate and distinct count from the filter's
 * bits, its numeric min/max and its rows. The column is found as its table names it ([[FileColumn]]: a
 * top-level name, or field ids for tables matched by id). At most [[RowGroups]] filters are read, through the planning cache, so a scan that
 * then probes them reads them once. None when a sampled file or filter can't be read or is
 * encrypted: nothing known, the filter stays. A file version's samples are kept (small, a few per
 * file): planning asks again for every query over the same files, and counting a filter's bits costs.
 */
object KeySetSample {

  /** Row groups sampled: two of each sampled file. */
  val RowGroups: Int = 2 * BloomColumns.Sampled

  def of(files: Seq[FileStatus], column: FileColumn, caseSensitive: Boolean, conf: => Configuration,
      useCache: Boolean): Option[Seq[RowGroupSample]] = {
    val listed = BloomColumns.sampled(files)
    def read(): Option[Seq[RowGroupSample]] =
      try {
        val hadoopConf = conf
        val perFile = BloomColumns.sample(listed, hadoopConf).map { case (key, status) =>
          file(key, status, column, caseSensitive, hadoopConf, useCache)
        }
        if (perFile.exists(_.isEmpty)) None else Some(perFile.flatten.flatten)
      } catch { case NonFatal(_) => None }
    // Kept per sampled listing as BloomColumns keeps its answers, and for the same reason.
    if (!useCache) read()
    else Option(byListing.getIfPresent((listed, column, caseSensitive))).orElse {
      val samples = read()
      samples.foreach(byListing.put((listed, column, caseSensitive), _))
      samples
    }
  }

  private val byListing: Cache[(Seq[FileKey], FileColumn, Boolean), Seq[RowGroupSample]] = Caffeine.newBuilder()
    .maximumSize(4096)
    .executor((task: Runnable) => task.run())
    .build[(Seq[FileKey], FileColumn, Boolean), Seq[RowGroupSample]]()

  private val judged: Cache[(FileKey, FileColumn, Boolean), Seq[RowGroupSample]] = Caffeine.newBuilder()
    .maximumSize(16384)
    .executor((task: Runnable) => task.run())
    .build[(FileKey, FileColumn, Boolean), Seq[RowGroupSample]]()

  /** A file version's samples, kept where the cache is wanted; what could not be read is judged anew. */
  private def file(key: FileKey, listed: Option[FileStatus], column: FileColumn, caseSensitive: Boolean,
      conf: Configuration, useCache: Boolean): Option[Seq[RowGroupSample]] =
    if (!useCache) read(key, listed, column, caseSensitive, conf, useCache)
    else Option(judged.getIfPresent((key, column, caseSensitive))).orElse {
      val read = this.read(key, listed, column, caseSensitive, conf, useCache)
      read.foreach(judged.put((key, column, caseSensitive), _))
      read
    }

  private def read(key: FileKey, listed: Option[FileStatus], column: FileColumn, caseSensitive: Boolean,
      conf: Configuration, useCache: Boolean): Option[Seq[RowGroupSample]] = {
    // The footer with its filter lengths. Filters read here join the cached index under this scan's own key.
    val footerIndex = BloomColumns.index(key, conf, useCache, listed)
    val footer = footerIndex.footer
    if (FileDecryption.isEncrypted(footer)) None
    else {
      val blocks = footer.getBlocks.asScala.toIndexedSeq
      // The first and the middle one: a file's last row group is often a short remainder.
      val picked = (blocks.indices.take(1) ++ blocks.indices.drop(blocks.size / 2).take(1)).distinct
      // A file without the column (written before it was added) adds no sample.
      val leaf = column.leaf(footer.getFileMetaData.getSchema, caseSensitive).toOption.map(_.index)
      val chunks = for (rg <- picked; i <- leaf) yield (rg, i, blocks(rg).getColumns.get(i))
      val index = if (useCache) FileBloomIndexCache.get(key) else None
      lazy val status = listed.getOrElse(PlanningOpen.status(key, new Path(key.path)))
      lazy val stream = PlanningOpen.stream(status, HadoopInputFile.fromStatus(status, conf), conf)
      var opened = false
      try {
        val samples = chunks.map { case (rg, i, chunk) =>
          val filter = if (chunk.getBloomFilterOffset < 0) Some(None)
          else {
            val found = index.flatMap(_.filter(ChunkAt(rg, i))).collect { case w: FilterFound.Whole => w }.getOrElse {
              opened = true
              val length = footerIndex.filterLength(ChunkAt(rg, i)).getOrElse(BloomFilterReader.UnknownLength)
              val read = BloomFilterReader.read(stream, key.length, chunk.getBloomFilterOffset, length, SbbfKernels.get())
              // Kept for the scan's probes, as its own reads are; not a failed read, which is judged anew.
              read match {
                case _: FilterFound.Loaded => index.foreach(_.addFilter(ChunkAt(rg, i), read))
                case _ =>
              }
              read
            }
            found match {
              case FilterFound.Loaded(f, _) => Some(Some(f))
              case FilterFound.Absent => Some(None)
              case _ => None
            }
          }
          filter.map { f =>
            // Distinct values only where min/max count them: integers (decimals' unscaled ones too).
            val ndv = f.filter(_ => integral(chunk))
              .flatMap(b => FillEstimates.estimatedNdv(FillEstimates.fill(b.sampledWords), b.numBytes / 32))
            RowGroupSample(f.map(b => FillEstimates.fpp(b.sampledWords)), bound(chunk, min = true), bound(chunk, min = false), ndv,
              blocks(rg).getRowCount)
          }
        }
        if (samples.exists(_.isEmpty)) None else Some(samples.flatten)
      } finally if (opened) stream.close()
    }
  }

  private def integral(chunk: ColumnChunkMetaData): Boolean =
    Set(PrimitiveTypeName.INT32, PrimitiveTypeName.INT64)(chunk.getPrimitiveType.getPrimitiveTypeName)

  /** A numeric chunk's min or max as a double (for relative widths only: decimals stay unscaled). */
  private def bound(chunk: ColumnChunkMetaData, min: Boolean): Option[Double] = {
    val stats: Statistics[_] = chunk.getStatistics
    val numeric = Set(PrimitiveTypeName.INT32, PrimitiveTypeName.INT64, PrimitiveTypeName.FLOAT, PrimitiveTypeName.DOUBLE)
    if (stats == null || stats.isEmpty || !stats.hasNonNullValue || !numeric(chunk.getPrimitiveType.getPrimitiveTypeName)) None
    else (if (min) stats.genericGetMin else stats.genericGetMax) match {
      case n: Number if !n.doubleValue.isNaN => Some(n.doubleValue)
      case _ => None
    }
  }
}
