package io.bloomparquet.planning

import scala.util.control.NonFatal

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path

/**
 * The version of a file that planning judged: its length and modification time as listed, and
 * what [[FileVersion]] offers beyond them. A task reads what planning cut of a file only while
 * the file is still this version.
 */
final case class JudgedVersion(length: Long, modificationTime: Long, version: FileVersion.Lookup)

object JudgedVersion {

  /** The version of the file at `path` now (one status call); None when it can't be had (gone, unreadable). */
  def now(path: String, conf: Configuration): Option[JudgedVersion] =
    try {
      val p = new Path(path)
      val fs = p.getFileSystem(conf)
      val status = fs.getFileStatus(p)
      Some(JudgedVersion(status.getLen, status.getModificationTime, FileVersion.of(fs, p, status)))
    } catch { case NonFatal(_) => None }
}
