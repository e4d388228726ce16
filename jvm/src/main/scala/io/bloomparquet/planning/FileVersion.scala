package io.bloomparquet.planning

import java.nio.file.{Files, Paths}

import scala.util.control.NonFatal

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{CommonPathCapabilities, EtagSource, FileStatus, FileSystem, LocalFileSystem, Path, RawLocalFileSystem}

/**
 * What the file system offers, beyond length and modification time, to tell two
 * versions of one path apart: a file replaced by another of the same length and
 * modification time (`cp --preserve=timestamps`, `rsync -t`, `touch -r`, stores
 * with second-granularity times) is then another version.
 *
 *  - stores declaring etags (S3A, ABFS, GCS): the etag;
 *  - the local file system: inode and change time (ctime is set by the kernel on every
 *    write, rename onto or metadata change, and no user call can set it back);
 *  - HDFS: the file id (a new file, also at the same path, gets a new one), with the
 *    modification time Spark's listing already keys on.
 *
 * Elsewhere nothing is offered: path, length and modification time stay the only key
 * (the user guide names that residual risk).
 */
object FileVersion {

  sealed trait Lookup
  /** The file system offers nothing more: path, length and modification time identify the file. */
  case object NotOffered extends Lookup
  /** The file system's own version of the file (etag, inode and ctime, file id). */
  final case class Version(value: String) extends Lookup
  /** The file system offers versions but this file's could not be had: don't trust the cache for it. */
  case object Unknown extends Lookup

  def of(path: String, conf: Configuration): Lookup = lookup(new Path(path), conf)._1

  /** The version of the file at `p`, and the status asked for it if one was (etag stores, HDFS). */
  def lookup(p: Path, conf: Configuration): (Lookup, Option[FileStatus]) =
    try {
      val fs = p.getFileSystem(conf)
      lazy val status = fs.getFileStatus(p)
      val version = of(fs, p, status)
      (version,
        if (version == NotOffered || fs.isInstanceOf[LocalFileSystem] || fs.isInstanceOf[RawLocalFileSystem]) None
        else Some(status))
    } catch { case NonFatal(_) => (Unknown, None) }

  /** The version of the file at `p`, whose `status` the caller already holds (no second status call). */
  def of(fs: FileSystem, p: Path, status: => FileStatus): Lookup =
    try fs match {
        case fs: LocalFileSystem => localVersion(fs.pathToFile(p))
        case fs: RawLocalFileSystem => localVersion(fs.pathToFile(p))
        case fs if fs.hasPathCapability(p, CommonPathCapabilities.ETAGS_AVAILABLE) => etag(status)
        case fs if hdfs(fs) => fileId(status)
        case _ => NotOffered
      }
    catch { case NonFatal(_) => Unknown }

  private def localVersion(file: java.io.File): Lookup = {
    val attrs = Files.readAttributes(Paths.get(file.getPath), "unix:ino,ctime")
    // The change time as nanoseconds: its text form formats a date (a planning of many files asks each).
    val ctime = attrs.get("ctime").asInstanceOf[java.nio.file.attribute.FileTime].to(java.util.concurrent.TimeUnit.NANOSECONDS)
    Version(s"ino=${attrs.get("ino")},ctime=$ctime")
  }

  private def etag(status: FileStatus): Lookup = status match {
    case e: EtagSource if e.getEtag != null && e.getEtag.nonEmpty => Version(e.getEtag)
    case _ => Unknown
  }

  // DistributedFileSystem by name: HDFS classes are not on every classpath we run on.
  private def hdfs(fs: FileSystem): Boolean =
    scala.util.Try(fs.getScheme).toOption.exists(s => s == "hdfs" || s == "viewfs")

  // HdfsFileStatus.getFileId, found reflectively for the same reason.
  private def fileId(status: FileStatus): Lookup =
    try {
      val id = status.getClass.getMethod("getFileId").invoke(status)
      Version(s"fileId=$id,mtime=${status.getModificationTime}")
    } catch { case NonFatal(_) => NotOffered }
}

/**
 * `key` with the version its file system offers, that version, whether the cache may serve it
 * (wanted, and the version is not unknown: a file whose version can't be had is read fresh), and
 * the status a status call returned for it (to open the file with: S3A's streams take an etag
 * only from its own statuses).
 */
final case class Versioned(key: FileKey, version: FileVersion.Lookup, useCache: Boolean, status: Option[FileStatus])

object Versioned {
  /**
   * A key that already holds a version (a listing's etag: [[ListedVersions]]) costs no status call.
   * `hadoopPath`: `path`'s, parsed once per planned file.
   */
  def apply(path: FileKey, hadoopPath: Path, conf: Configuration, cacheWanted: Boolean): Versioned = {
    val (version, status) =
      path.version.fold(FileVersion.lookup(hadoopPath, conf))(v => (FileVersion.Version(v), None))
    val key = version match {
      case FileVersion.Version(v) => path.copy(version = Some(v))
      case _ => path
    }
    // A status that disagrees with the key's listing is of a file changed since: not opened by it.
    val same = status.filter(s => s.getLen == path.length && s.getModificationTime == path.modificationTime)
    Versioned(key, version, cacheWanted && version != FileVersion.Unknown, same)
  }
}
