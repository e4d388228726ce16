package io.bloomparquet.testing

import java.net.URI
import java.nio.file.Files
import java.security.MessageDigest

import scala.jdk.CollectionConverters._

import org.apache.hadoop.fs.{CommonPathCapabilities, EtagSource, FileStatus, Path}

/**
 * The local file system under the scheme `etag:` (test jar only), whose
 * statuses carry an etag as object stores' do: the MD5 of the content, so a file
 * replaced by another of the same length and modification time has a new etag.
 */
class EtagFileSystem extends LocalUnderScheme {
  override def getUri: URI = EtagFileSystem.Uri
  override def getScheme: String = EtagFileSystem.Scheme

  override def hasPathCapability(path: Path, capability: String): Boolean =
    capability == CommonPathCapabilities.ETAGS_AVAILABLE || super.hasPathCapability(path, capability)

  private def tagged(st: FileStatus): FileStatus =
    if (st.isDirectory) new FileStatus(0, true, 1, 0, st.getModificationTime, st.getPath)
    else new EtagFileSystem.Status(st, EtagFileSystem.md5(pathToFile(st.getPath)))

  override def getFileStatus(f: Path): FileStatus = tagged(super.getFileStatus(f))
  override def listStatus(f: Path): Array[FileStatus] = super.listStatus(f).map(tagged)
}

object EtagFileSystem {
  val Scheme = "etag"
  val Uri: URI = URI.create(s"$Scheme:///")

  final class Status(st: FileStatus, etag: String)
    extends FileStatus(st.getLen, false, 1, st.getBlockSize, st.getModificationTime, st.getPath) with EtagSource {
    override def getEtag: String = etag
  }

  private def md5(file: java.io.File): String =
    MessageDigest.getInstance("MD5").digest(Files.readAllBytes(file.toPath)).map("%02x".format(_)).mkString

  /** Hadoop settings that mount this file system under `etag:` (uncached: each instance sees the files as they are). */
  def settings: java.util.Map[String, String] = Map(
    s"fs.$Scheme.impl" -> classOf[EtagFileSystem].getName,
    s"fs.$Scheme.impl.disable.cache" -> "true").asJava
}
