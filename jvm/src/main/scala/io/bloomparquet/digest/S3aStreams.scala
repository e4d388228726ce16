package io.bloomparquet.digest

import scala.util.Try

import org.apache.hadoop.fs.FileSystem

/** Which input stream an S3A file system opens objects with, read from its settings (no request). */
object S3aStreams {
  private val StreamType = "fs.s3a.input.stream.type"

  /**
   * Whether `fs` is S3A opening objects with its analytics stream: set so (for the file system or,
   * folded into its settings by S3A, for its bucket), or left to a Hadoop whose default it is.
   */
  def analytics(fs: FileSystem): Boolean = fs.getScheme == "s3a" && {
    fs.getConf.getTrimmed(StreamType, "default").toLowerCase(java.util.Locale.ROOT) match {
      case "analytics" => true
      case "default" | "" => defaultIsAnalytics(fs)
      case _ => false
    }
  }

  // Hadoop 3.5 made the analytics stream S3A's default; Hadoop before it has no such setting (classic).
  private def defaultIsAnalytics(fs: FileSystem): Boolean = Try {
    val integration = Class.forName("org.apache.hadoop.fs.s3a.impl.streams.StreamIntegration", false,
      fs.getClass.getClassLoader)
    integration.getField("DEFAULT_STREAM_TYPE").get(null).toString.equalsIgnoreCase("analytics")
  }.getOrElse(false)
}
