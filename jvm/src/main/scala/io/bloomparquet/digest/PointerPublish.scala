package io.bloomparquet.digest

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, StandardCopyOption}
import java.util.UUID

import scala.util.control.NonFatal

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{CommonPathCapabilities, FileContext, FileSystem, LocalFileSystem, Options, Path, RawLocalFileSystem}

/**
 * Points a table at a new digest ([[TableDigest.Pointer]]) so that a reader sees the old pointer or
 * the new one, whole, never a pointer being written:
 *  - object stores (they declare etags): one PUT of the small object, visible only once complete;
 *  - the local file system: written beside it without Hadoop's checksum sidecar (renamed after the
 *    file, a reader in between would see the new text with the old checksum) and moved over it
 *    atomically (POSIX rename);
 *  - elsewhere (HDFS): written beside it and renamed over it, atomically where the file system's
 *    `FileContext` renames with overwrite (HDFS does); where it has none, the old pointer is
 *    deleted first, and a reader in between finds no digest (it judges every file: safe).
 */
object PointerPublish {

  def publish(fs: FileSystem, conf: Configuration, folder: Path, pointer: TableDigest.Pointer): Unit = {
    val target = new Path(folder, TableDigest.PointerFile)
    val staged = new Path(folder, s".${TableDigest.PointerFile}-${UUID.randomUUID()}")
    val text = pointer.text.getBytes(UTF_8)
    fs match {
      case _ if fs.hasPathCapability(folder, CommonPathCapabilities.ETAGS_AVAILABLE) => write(fs, target, text)
      case local: LocalFileSystem => moved(local.getRawFileSystem.asInstanceOf[RawLocalFileSystem], staged, target, text)
      case raw: RawLocalFileSystem => moved(raw, staged, target, text)
      case _ =>
        write(fs, staged, text)
        try FileContext.getFileContext(fs.getUri, conf).rename(staged, target, Options.Rename.OVERWRITE)
        catch {
          case NonFatal(_) =>
            fs.delete(target, false)
            fs.rename(staged, target)
        }
    }
  }

  private def write(fs: FileSystem, path: Path, text: Array[Byte]): Unit = {
    val out = fs.create(path, true)
    try out.write(text)
    finally out.close()
  }

  private def moved(raw: RawLocalFileSystem, staged: Path, target: Path, text: Array[Byte]): Unit = {
    write(raw, staged, text)
    // A checksum of an earlier pointer would no longer match: gone before the new text arrives.
    raw.delete(new Path(target.getParent, s".${target.getName}.crc"), false)
    Files.move(raw.pathToFile(staged).toPath, raw.pathToFile(target).toPath, StandardCopyOption.ATOMIC_MOVE,
      StandardCopyOption.REPLACE_EXISTING)
  }
}
