package io.bloomparquet.testing

import org.apache.hadoop.fs.{FileStatus, Path, RawLocalFileSystem, RemoteIterator}

/**
 * The local file system mounted under another scheme (test file systems that
 * wrap it: [[FailingFileSystem]], [[SlowFileSystem]]), with statuses and
 * listings that work for a scheme other than `file:`.
 */
abstract class LocalUnderScheme extends RawLocalFileSystem {
  // RawLocalFileSystem's statuses load their permissions through `file:` URIs only; plain statuses carry none.
  private def plain(st: FileStatus): FileStatus =
    new FileStatus(st.getLen, st.isDirectory, st.getReplication, st.getBlockSize, st.getModificationTime, st.getPath)

  override def getFileStatus(f: Path): FileStatus = plain(super.getFileStatus(f))
  override def listStatus(f: Path): Array[FileStatus] = super.listStatus(f).map(plain)

  // RawLocalFileSystem's own iterator opens `file:` URIs only; list through listStatus instead.
  override def listStatusIterator(p: Path): RemoteIterator[FileStatus] = {
    val it = listStatus(p).iterator
    new RemoteIterator[FileStatus] {
      def hasNext: Boolean = it.hasNext
      def next(): FileStatus = it.next()
    }
  }
}
