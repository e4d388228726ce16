package io.bloomparquet.testing

import org.apache.hadoop.fs.{FileStatus, FileSystem, Path, RemoteIterator}

/** RawLocalFileSystem's own iterator opens `file:` URIs only; test file systems under other schemes list through listStatus. */
trait ListsThroughListStatus extends FileSystem {
  override def listStatusIterator(p: Path): RemoteIterator[FileStatus] = {
    val it = listStatus(p).iterator
    new RemoteIterator[FileStatus] {
      def hasNext: Boolean = it.hasNext
      def next(): FileStatus = it.next()
    }
  }
}
