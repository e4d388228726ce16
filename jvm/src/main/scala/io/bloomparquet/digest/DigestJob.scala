package io.bloomparquet.digest

import java.util.UUID

import scala.jdk.CollectionConverters._

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.{OptionRegistry, OptionValidator, Scope}
import io.bloomparquet.planning.{DataFiles, FileVersion}
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileStatus, FileSystem, Path}
import org.apache.spark.sql.SparkSession
import org.apache.spark.util.SerializableConfiguration

/**
 * What building a digest did: where it went, what it covers (`filesReused` of the files taken from
 * the digest it replaces, not read again), and what it cost (`bytesRead` and `filterBytes`: of the
 * files read).
 */
final case class DigestBuilt(path: String, files: Int, filesSkipped: Int, filesReused: Int, entries: Int, classes: Int,
    bytesRead: Long, filterBytes: Long, digestBytes: Long, seconds: Double) {

  /** For Python: as a map, keys as `bloomparquet.build_digest` documents them. */
  def forPython: java.util.Map[String, Any] =
    Map[String, Any]("path" -> path, "files" -> files, "files_skipped" -> filesSkipped, "files_reused" -> filesReused,
      "entries" -> entries, "classes" -> classes, "bytes_read" -> bytesRead, "filter_bytes" -> filterBytes,
      "digest_bytes" -> digestBytes, "seconds" -> seconds).asJava
}

/**
 * Builds a Parquet directory's bloom digest as a Spark job: one task per group of files reads each
 * file's footer and its filters on `columns` (never a data page) and right-sizes them; the driver
 * writes the digest into the table's `_bloomparquet` folder (hidden from Spark's listing) under a
 * name of its own, then points `_bloomparquet/digest` at it: readers see the old digest or the new
 * one whole, on object stores too (no rename).
 */
object DigestJob {
  val Folder: String = TableDigest.Folder

  /**
   * The false-positive bound entries are folded to where their own filters are larger than it needs:
   * a file the digest keeps is judged on its own (a footer read), so for a point miss that is about
   * this fraction of the entries; lower costs digest bytes (a filter is never made larger than its own).
   */
  val DefaultFpp: Double = 1e-4

  /** The digest's file property naming the columns it was built for. */
  val ColumnsProperty = "bloomparquet.columns"

  /**
   * Builds the digest of the table at `root` for `columns` at bound `fpp`. Unless `full`, the entries of
   * the current digest (built for the same columns and bound) whose files are unchanged are kept, and
   * only the other files are read.
   */
  def build(spark: SparkSession, root: String, columns: Seq[String], fpp: Double, full: Boolean): DigestBuilt = {
    require(columns.nonEmpty, "digest: give at least one column")
    OptionValidator.validate(Map(OptionRegistry.Columns.key -> columns.mkString(","), OptionRegistry.Fpp.key -> fpp.toString),
      Seq(Scope.Retrofit))
    val started = System.nanoTime()
    val conf = SparkCompat.newHadoopConf(spark)
    val base = new Path(root)
    val fs = base.getFileSystem(conf)
    val rootPath = fs.makeQualified(base)
    val listed = DataFiles.statuses(rootPath.toString, conf)
    val tasks = listed.flatMap(s => DigestRoot.relative(rootPath, fs.makeQualified(s.getPath)).map(s -> _))
    val previous = if (full) None else PreviousDigest.load(fs, rootPath, columns, fpp)
    val reused = previous.fold(Map.empty[String, FileFilters]) { p =>
      tasks.flatMap { case (s, rel) => p.reusable(rel, s, FileVersion.of(fs, s.getPath, s)).map(rel -> _) }.toMap
    }
    val read = readAll(spark, tasks.filterNot { case (_, rel) => reused.contains(rel) }, columns.toVector, fpp, conf)
    val covered = (read.filter(_.skipped.isEmpty) ++ reused.values).sortBy(_.file.path).toIndexedSeq
    val filters = covered.zipWithIndex.flatMap { case (f, i) =>
      f.filters.map(r => DigestFilter(r.column, r.leaf, r.parquetType, DigestEntry(i, r.rowGroup), r.words))
    }
    val folder = new Path(rootPath, Folder)
    val name = s"digest-${System.currentTimeMillis()}-${UUID.randomUUID()}.puffin"
    val target = new Path(folder, name)
    val out = fs.create(target, false)
    val footer = try BloomDigest.write(out, covered.map(_.file), filters, fpp,
        Map("created-by" -> Option(getClass.getPackage.getImplementationVersion).fold("bloomparquet")("bloomparquet " + _),
          ColumnsProperty -> columns.mkString(",")))
    finally out.close()
    val indexStart = footer.blobs.find(_.kind == DigestIndex.BlobType).map(_.offset)
    publish(fs, conf, folder, TableDigest.Pointer(name, fs.getFileStatus(target).getLen, indexStart))
    DigestBuilt(target.toString, covered.size, read.count(_.skipped.nonEmpty), reused.size, filters.size,
      footer.blobs.count(_.kind == BloomDigest.ClassBlobType), read.map(_.bytesRead).sum, read.map(_.filterBytes).sum,
      fs.getFileStatus(target).getLen, (System.nanoTime() - started) / 1e9)
  }

  private def readAll(spark: SparkSession, tasks: Seq[(FileStatus, String)], columns: Vector[String], fpp: Double,
      conf: Configuration): Seq[FileFilters] =
    if (tasks.isEmpty) Nil
    else {
      val shipped = new SerializableConfiguration(conf)
      val caseSensitive = SparkCompat.caseSensitive(spark)
      val sc = spark.sparkContext
      sc.parallelize(tasks, math.min(tasks.size, sc.defaultParallelism * 4))
        .map { case (status, path) => FileFilters.read(status, path, columns, caseSensitive, fpp, shipped.value) }
        .collect()
        .toSeq
    }

  /** Digests replaced longer ago than this are deleted when a newer one is published (planning may still be reading one). */
  val ReplacedDigestsKeptMillis: Long = 60L * 60 * 1000

  /**
   * Points the table at the digest `pointer` names ([[PointerPublish]]), then deletes the digests
   * replaced more than [[ReplacedDigestsKeptMillis]] ago.
   */
  private def publish(fs: FileSystem, conf: Configuration, folder: Path, pointer: TableDigest.Pointer): Unit = {
    PointerPublish.publish(fs, conf, folder, pointer)
    val name = pointer.name
    val cutoff = System.currentTimeMillis() - ReplacedDigestsKeptMillis
    fs.listStatus(folder).map(_.getPath.getName).foreach {
      case old @ TableDigest.DigestName(time) if old != name && time < cutoff => fs.delete(new Path(folder, old), false)
      case _ =>
    }
  }

  /** For Python: what [[build]] did, as a map. */
  def buildForPython(spark: SparkSession, root: String, columns: java.util.List[String], fpp: Double,
      full: Boolean): java.util.Map[String, Any] = build(spark, root, columns.asScala.toSeq, fpp, full).forPython
}
