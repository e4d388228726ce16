package io.bloomparquet.planning

import scala.util.control.NonFatal

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileStatus, Path}
import org.apache.parquet.hadoop.util.HadoopStreams
import org.apache.parquet.io.{InputFile, SeekableInputStream}

/**
 * How planning opens a file: with Hadoop's `openFile` and the listed status (no status call on
 * open where the store honours it: S3A), for random reads, with a buffer of
 * [[FilePruner.ReadBufferBytes]] rather than `io.file.buffer.size` (Spark sets 64 KiB): a
 * planning read is a footer or a few 32-byte blocks, and a buffered stream fills its buffer on
 * every seek (the local file system read 64 KiB per probed block).
 */
object PlanningOpen {

  /** The status the listing gave `key` at `path` (length and modification time: what `openFile` needs). */
  def status(key: FileKey, path: Path): FileStatus = new FileStatus(key.length, false, 1, 0L, key.modificationTime, path)

  /** `status`'s file opened for planning; through parquet-java's open (`input`) where the store refuses the status. */
  def stream(status: FileStatus, input: => InputFile, conf: Configuration): SeekableInputStream =
    try {
      val open = status.getPath.getFileSystem(conf).openFile(status.getPath).withFileStatus(status)
        .opt("fs.option.openfile.read.policy", "random")
        .opt("fs.option.openfile.buffer.size", FilePruner.ReadBufferBytes.toString)
      HadoopStreams.wrap(open.build().get())
    } catch { case NonFatal(_) => input.newStream() }
}
