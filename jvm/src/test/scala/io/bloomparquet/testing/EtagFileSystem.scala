package io.bloomparquet.testing

import java.net.URI
import java.io.FileNotFoundException
import java.nio.file.{Files, NoSuchFileException}
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

  /** The status with its etag; None when the file vanished after it was listed. */
  private def tagged(st: FileStatus): Option[FileStatus] =
    if (st.isDirectory) Some(new FileStatus(0, true, 1, 0, st.getModificationTime, st.getPath))
    else EtagFileSystem.md5(pathToFile(st.getPath)).map(new EtagFileSystem.Status(st, _))

  override def getFileStatus(f: Path): FileStatus =
    tagged(super.getFileStatus(f)).getOrElse(throw new FileNotFoundException(s"File $f does not exist"))
  // A store's listing is one snapshot with its etags: a file deleted while they are hashed here is left out.
  override def listStatus(f: Path): Array[FileStatus] = super.listStatus(f).flatMap(tagged)
}

object EtagFileSystem {
  val Scheme = "etag"
  val Uri: URI = URI.create(s"$Scheme:///")

  final class Status(st: FileStatus, etag: String)
      extends FileStatus(st.getLen, false, 1, st.getBlockSize, st.getModificationTime, st.getPath) with EtagSource {
    override def getEtag: String = etag
  }

  private def md5(file: java.io.File): Option[String] =
    try Some(MessageDigest.getInstance("MD5").digest(Files.readAllBytes(file.toPath)).map("%02x".format(_)).mkString)
    catch { case _: NoSuchFileException => None }

  /** Hadoop settings that mount this file system under `etag:` (uncached: each instance sees the files as they are). */
  def settings: java.util.Map[String, String] = Map(
    s"fs.$Scheme.impl" -> classOf[EtagFileSystem].getName,
    s"fs.$Scheme.impl.disable.cache" -> "true").asJava
}
