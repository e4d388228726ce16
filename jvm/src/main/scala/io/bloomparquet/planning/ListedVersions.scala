package io.bloomparquet.planning

import scala.util.control.NonFatal

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{CommonPathCapabilities, EtagSource, FileStatus, FileSystem, Path}

/**
 * Etags for files about to be pruned, from one listing of their directory rather than a status
 * call per file, on stores that offer them (S3A, ABFS, GCS). At 20 ms a request, a status call
 * per file is most of a point lookup's planning; a listing returns 1,000 files a request. Each
 * directory is listed page by page until its wanted files are found or the pages read reach the
 * status calls still to save (a large directory, few files); a directory of one file is left to
 * its status call.
 *
 * The listing is this query's own, never Spark's: Spark's statuses (S3A's carry etags) can be
 * older than the files (a table's listing cached until `REFRESH TABLE`), and a file replaced
 * since would be judged by its old footer and filters while Spark's reader reads the new one.
 *
 * A file whose listed length or modification time differs from its key changed since Spark
 * listed it: it keeps no version, so [[Versioned]] asks the store for one (never the cache's).
 *
 * The statuses found are kept to open the files with ([[PlanningOpen]]): S3A's streams take the
 * etag only from its own statuses, and its analytics stream (Hadoop 3.5's default) asks for the
 * object's metadata, a request per file, when it has none.
 */
object ListedVersions {

  /** The keys listings gave a version, with it, and the status each versioned key was listed with. */
  final case class Filled(versioned: Map[FileKey, FileKey], statuses: Map[FileKey, FileStatus]) {
    /** `k` with the version a listing gave it, or itself. */
    def key(k: FileKey): FileKey = versioned.getOrElse(k, k)
    def status(key: FileKey): Option[FileStatus] = statuses.get(key)
  }

  /** Files a listing request returns (S3's page, ABFS's default). */
  val PageSize: Int = 1000

  /** The etags listings give `keys` (a key the listings don't version maps to itself). */
  def fill(keys: Seq[FileKey], conf: Configuration, parallelism: Int = 1): Filled = {
    val unversioned = keys.filter(_.version.isEmpty).distinct
    val byStore = unversioned.groupBy(k => storeOf(k.path))
    val found = byStore.values.flatMap { group =>
      etagStore(group.head, conf).fold(Map.empty[FileKey, FileStatus])(fs => versions(fs, group, parallelism))
    }.toMap
    val versioned = found.map { case (k, s) => k -> k.copy(version = etag(s, k)) }
    Filled(versioned, found.map { case (k, s) => versioned(k) -> s })
  }

  /**
   * The text naming a path's store (`s3a://bucket`, `file:`), read off the path without parsing it: a
   * scan plans many thousands of files. Paths of one store written alike share it; any other
   * spelling only makes a group of its own, asked about on its own.
   */
  private def storeOf(path: String): String = {
    val scheme = path.indexOf(':')
    if (scheme < 0) ""
    else if (path.startsWith("//", scheme + 1)) {
      val end = path.indexOf('/', scheme + 3)
      if (end < 0) path else path.substring(0, end)
    } else path.substring(0, scheme + 1)
  }

  private def etagStore(key: FileKey, conf: Configuration): Option[FileSystem] =
    try {
      val p = new Path(key.path)
      Some(p.getFileSystem(conf)).filter(fs => fs.hasPathCapability(p, CommonPathCapabilities.ETAGS_AVAILABLE))
    } catch { case NonFatal(_) => None }

  /** Directories are listed `parallelism` at a time (a partitioned table has many): each is a request. */
  private def versions(fs: FileSystem, keys: Seq[FileKey], parallelism: Int): Map[FileKey, FileStatus] = {
    val byDirectory = keys.map(k => fs.makeQualified(new Path(k.path)).toString -> k).toMap
      .groupBy { case (p, _) => new Path(p).getParent }
      .filter(_._2.size >= 2) // one status call costs no more than one page
    PlanningPool.forEachFile[Path, Map[FileKey, FileStatus]](byDirectory.keys.toSeq, parallelism, _ => None,
      dir => listDirectory(fs, dir, byDirectory(dir))).values.flatten.toMap
  }

  private def etag(status: FileStatus, key: FileKey): Option[String] = status match {
    case e: EtagSource if status.getLen == key.length && status.getModificationTime == key.modificationTime =>
      Option(e.getEtag).filter(_.nonEmpty)
    case _ => None
  }

  /** One directory's listing, stopped once it has found `files` or costs more pages than they would status calls. */
  private def listDirectory(fs: FileSystem, dir: Path, files: Map[String, FileKey]): Map[FileKey, FileStatus] =
    try {
      val it = fs.listStatusIterator(dir)
      val found = Map.newBuilder[FileKey, FileStatus]
      var left = files.size
      var seen = 0L
      while (left > 0 && it.hasNext && seen / PageSize < left) {
        val status = it.next()
        seen += 1
        files.get(fs.makeQualified(status.getPath).toString).filter(etag(status, _).isDefined).foreach { k =>
          found += k -> status
          left -= 1
        }
      }
      found.result()
    } catch { case NonFatal(_) => Map.empty } // each file then asks for its own version
}
