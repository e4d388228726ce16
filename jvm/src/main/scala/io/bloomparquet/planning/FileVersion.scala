package io.bloomparquet.planning

import scala.util.control.NonFatal

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{CommonPathCapabilities, EtagSource, Path}

/**
 * The store's own version of a file (its etag), where the file system offers
 * one: a file replaced by another of the same length and modification time
 * (a copy preserving times, second-granularity stores) is then another cache
 * key. Stores that don't declare etags (local, HDFS) cost nothing: the key
 * stays path, length and modification time.
 */
object FileVersion {

  sealed trait Lookup
  /** The store has no etags: path, length and modification time identify the file. */
  case object NotOffered extends Lookup
  final case class Etag(value: String) extends Lookup
  /** The store has etags but this file's could not be had: don't trust the cache for it. */
  case object Unknown extends Lookup

  def of(path: String, conf: Configuration): Lookup =
    try {
      val p = new Path(path)
      val fs = p.getFileSystem(conf)
      if (!fs.hasPathCapability(p, CommonPathCapabilities.ETAGS_AVAILABLE)) NotOffered
      else fs.getFileStatus(p) match {
        case e: EtagSource if e.getEtag != null && e.getEtag.nonEmpty => Etag(e.getEtag)
        case _ => Unknown
      }
    } catch { case NonFatal(_) => Unknown }
}
