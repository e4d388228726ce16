package io.bloomparquet.testing

import scala.jdk.CollectionConverters._

import io.bloomparquet.planning.{FileKey, ListedVersions}
import org.apache.hadoop.conf.Configuration

/** py4j entry to [[ListedVersions]] (test jar only): the S3A suite counts its requests with S3A's statistics. */
object ListedVersionsBridge {

  /** The versions listings give the files (path, length, modification time), with no status from Spark: null where none. */
  def versions(paths: java.util.List[String], lengths: java.util.List[Number],
      mtimes: java.util.List[Number], conf: Configuration): java.util.List[String] = {
    val keys = paths.asScala.indices.map(i => FileKey(paths.get(i), lengths.get(i).longValue, mtimes.get(i).longValue))
    val filled = ListedVersions.fill(keys, conf)
    keys.map(k => filled.key(k).version.orNull).asJava
  }
}
