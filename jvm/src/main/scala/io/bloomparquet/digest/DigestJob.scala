package io.bloomparquet.digest

import java.util.UUID

import scala.jdk.CollectionConverters._

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.options.{OptionRegistry, OptionValidator, Scope}
import io.bloomparquet.retrofit.RetrofitJob
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileStatus, FileSystem, Path}
import org.apache.spark.sql.SparkSession
import org.apache.spark.util.SerializableConfiguration

/** What building a digest did: where it went, what it covers, and what it cost. */
final case class DigestBuilt(path: String, files: Int, filesSkipped: Int, entries: Int, classes: Int, bytesRead: Long,
    filterBytes: Long, digestBytes: Long, seconds: Double)

/**
 * Builds a Parquet directory's bloom digest as a Spark job: one task per group of files reads each
 * file's footer and its filters on `columns` (never a data page) and right-sizes them; the driver
 * writes the digest into the table's `_bloomparquet` folder (hidden from Spark's listing) under a
 * name of its own, then points `_bloomparquet/digest` at it: readers see the old digest or the new
 * one whole, on object stores too (no rename).
 */
object DigestJob {
  val Folder: String = TableDigest.Folder
  val Pointer: String = TableDigest.PointerFile

  def build(spark: SparkSession, root: String, columns: Seq[String], fpp: Double): DigestBuilt = {
    require(columns.nonEmpty, "digest: give at least one column")
    OptionValidator.validate(Map(OptionRegistry.Columns.key -> columns.mkString(","), OptionRegistry.Fpp.key -> fpp.toString),
      Seq(Scope.Retrofit))
    val started = System.nanoTime()
    val conf = SparkCompat.newHadoopConf(spark)
    val base = new Path(root)
    val fs = base.getFileSystem(conf)
    val rootPath = fs.makeQualified(base)
    val listed = RetrofitJob.listStatuses(rootPath.toString, conf)
    val prefix = rootPath.toUri.getPath.stripSuffix("/") + "/"
    val tasks = listed.map(s => (s, s.getPath.toUri.getPath.stripPrefix(prefix)))
    val read = readAll(spark, tasks, columns.toVector, fpp, conf)
    val covered = read.filter(_.skipped.isEmpty).toIndexedSeq
    val filters = covered.zipWithIndex.flatMap { case (f, i) =>
      f.filters.map(r => DigestFilter(r.column, r.leaf, r.parquetType, DigestEntry(i, r.rowGroup), r.words))
    }
    val folder = new Path(rootPath, Folder)
    val name = s"digest-${System.currentTimeMillis()}-${UUID.randomUUID()}.puffin"
    val target = new Path(folder, name)
    val out = fs.create(target, false)
    val footer = try BloomDigest.write(out, covered.map(_.file), filters, fpp,
        Map("created-by" -> Option(getClass.getPackage.getImplementationVersion).fold("bloomparquet")("bloomparquet " + _),
          "bloomparquet.columns" -> columns.mkString(",")))
    finally out.close()
    publish(fs, folder, name, fs.getFileStatus(target).getLen)
    DigestBuilt(target.toString, covered.size, read.size - covered.size, filters.size,
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

  /**
   * Points the table's digest at `name` of `length` bytes ([[TableDigest.Pointer]]): one small file written
   * whole (an object store's PUT, or create-and-write here).
   */
  private def publish(fs: FileSystem, folder: Path, name: String, length: Long): Unit = {
    val out = fs.create(new Path(folder, Pointer), true)
    try out.write(TableDigest.Pointer(name, length).text.getBytes(java.nio.charset.StandardCharsets.UTF_8))
    finally out.close()
  }

  /** For Python: what [[build]] did, as a map. */
  def buildForPython(spark: SparkSession, root: String, columns: java.util.List[String], fpp: Double): java.util.Map[String, Any] = {
    val b = build(spark, root, columns.asScala.toSeq, fpp)
    Map[String, Any]("path" -> b.path, "files" -> b.files, "files_skipped" -> b.filesSkipped, "entries" -> b.entries,
      "classes" -> b.classes, "bytes_read" -> b.bytesRead, "filter_bytes" -> b.filterBytes, "digest_bytes" -> b.digestBytes,
      "seconds" -> b.seconds).asJava
  }
}
