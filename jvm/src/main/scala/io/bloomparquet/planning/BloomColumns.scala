package io.bloomparquet.planning

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import com.github.benmanes.caffeine.cache.{Cache, Caffeine}
import io.bloomparquet.tail.FilterLengths
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileStatus, Path}
import org.apache.parquet.hadoop.metadata.ParquetMetadata
import org.apache.parquet.hadoop.util.HadoopInputFile

/**
 * The top-level columns whose chunks carry bloom filters, read from footers
 * (through the footer cache, so a table's files cost one read per JVM). A
 * runtime filter on a column without filters prunes nothing and still costs a
 * subquery and a plan: the scan declares only these (and partition columns).
 * Judged from a few files of a listing: declaring fewer columns than some file
 * could serve gives less pruning, never other rows.
 */
object BloomColumns {

  /** Files looked at per listing: the first and the last (a table's files are mostly written alike). */
  val Sampled: Int = 2

  /**
   * Column names (as the files spell them) with a filter in any of `files`' sampled footers. An
   * answer every footer of was read is kept per sampled listing where the cache is wanted (and
   * `conf` is then not built): planning asks again for every relation of every query over a
   * table, and the answer only steers where pruning is tried, never which rows a scan keeps,
   * so the files' listed lengths and modification times identify them well enough here.
   */
  def in(files: Seq[FileStatus], conf: => Configuration, useCache: Boolean): Set[String] = {
    val listed = sampled(files)
    def readAll(): (Set[String], Boolean) = {
      val hadoopConf = conf
      val perFile = sample(listed, hadoopConf).map { case (key, status) => columns(key, hadoopConf, useCache, status) }
      (perFile.flatten.flatten.toSet, perFile.forall(_.isDefined))
    }
    if (!useCache) readAll()._1
    else Option(answers.getIfPresent(listed)).getOrElse {
      val (columns, whole) = readAll()
      if (whole) answers.put(listed, columns)
      columns
    }
  }

  private val answers: Cache[Seq[FileKey], Set[String]] = Caffeine.newBuilder()
    .maximumSize(4096)
    .executor((task: Runnable) => task.run())
    .build[Seq[FileKey], Set[String]]()

  /** The first and last of `files` as listed (no version yet). */
  private[planning] def sampled(files: Seq[FileStatus]): Seq[FileKey] =
    (files.take(Sampled / 2) ++ files.takeRight(Sampled - Sampled / 2)).distinct
      .map(f => FileKey(f.getPath.toString, f.getLen, f.getModificationTime))

  /** `keys` (from [[sampled]]) keyed by version, with the status their listing gave. */
  private[planning] def sample(keys: Seq[FileKey], conf: Configuration): Seq[(FileKey, Option[FileStatus])] = {
    val listed = ListedVersions.fill(keys, conf)
    keys.map { k =>
      val key = listed.key(k)
      (key, listed.status(key))
    }
  }

  /** One file's filtered top-level columns (opened with its `listed` status if any); none when its footer can't be read. */
  def of(key: FileKey, conf: Configuration, useCache: Boolean, listed: Option[FileStatus] = None): Set[String] =
    columns(key, conf, useCache, listed).getOrElse(Set.empty)

  private def columns(key: FileKey, conf: Configuration, useCache: Boolean, listed: Option[FileStatus]): Option[Set[String]] =
    try Some(filtered(index(key, conf, useCache, listed).footer))
    catch { case NonFatal(_) => None }

  def filtered(footer: ParquetMetadata): Set[String] =
    footer.getBlocks.asScala.iterator.flatMap(_.getColumns.asScala)
      .filter(c => c.getBloomFilterOffset >= 0)
      .map(_.getPath.toArray.head).toSet

  /** `path`'s footer, from the cache or read (and cached where wanted), with the filters its tail read held. */
  private[planning] def index(path: FileKey, conf: Configuration, cacheWanted: Boolean,
      listed: Option[FileStatus]): FileBloomIndex = {
    val hadoopPath = new Path(path.path)
    val Versioned(key, _, useCache, asked) = Versioned(path, hadoopPath, conf, cacheWanted)
    (if (useCache) FileBloomIndexCache.get(key) else None).getOrElse {
      val status = listed.orElse(asked).getOrElse(PlanningOpen.status(key, hadoopPath))
      val file = HadoopInputFile.fromStatus(status, conf)
      val stream = PlanningOpen.stream(status, file, conf)
      val index = try {
        val (read, tail) = FileFooter.read(file, hadoopPath, conf, TailSizer.Initial, stream)
        val index = new FileBloomIndex(read, tail.fold(FilterLengths.Empty)(_.filterLengths))
        if (useCache) tail.foreach(FilePruner.addFiltersInTail(index, _, key))
        index
      } finally stream.close()
      // Encrypted footers stay out of the shared cache (as FilePruner keeps them out).
      if (useCache && !FileDecryption.isEncrypted(index.footer)) FileBloomIndexCache.put(key, index)
      index
    }
  }
}
