package io.bloomparquet.testing

import java.io.{IOException, OutputStream}
import java.net.URI

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.permission.FsPermission
import org.apache.hadoop.fs.{DelegateToFileSystem, FSDataOutputStream, Path}
import org.apache.hadoop.util.Progressable

/**
 * The local file system under the scheme `failing:` (test jar only), failing
 * where a task could be killed: writes past a byte budget, or every rename; or
 * where a folder cannot be written: creating any file in a folder of a given name.
 * Register it with [[FailingFileSystem.settings]]; the settings are read when an
 * instance is created, so the FileSystem cache is off for the scheme.
 */
class FailingFileSystem extends LocalUnderScheme {
  private var writeBudget = Long.MaxValue
  private var failRename = false
  private var unwritableFolder: Option[String] = None

  override def getUri: URI = FailingFileSystem.Uri
  override def getScheme: String = FailingFileSystem.Scheme

  override def initialize(uri: URI, conf: Configuration): Unit = {
    super.initialize(uri, conf)
    writeBudget = conf.getLong(FailingFileSystem.FailWritesAfter, Long.MaxValue)
    failRename = conf.getBoolean(FailingFileSystem.FailRename, false)
    unwritableFolder = Option(conf.get(FailingFileSystem.UnwritableFolder)).filter(_.nonEmpty)
  }

  private def budgeted(out: => OutputStream, f: Path) = {
    if (unwritableFolder.exists(name => Iterator.iterate(f.getParent)(_.getParent).takeWhile(_ != null).exists(_.getName == name)))
      throw new IOException(s"failing: $f is in a folder that cannot be written")
    new FSDataOutputStream(new BudgetedStream(out, writeBudget, f), null)
  }

  // Both overloads: FileSystem.create(path, overwrite) reaches the one without a permission.
  override def create(f: Path, permission: FsPermission, overwrite: Boolean, bufferSize: Int, replication: Short,
      blockSize: Long, progress: Progressable): FSDataOutputStream =
    budgeted(super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress), f)

  override def create(f: Path, overwrite: Boolean, bufferSize: Int, replication: Short, blockSize: Long,
      progress: Progressable): FSDataOutputStream =
    budgeted(super.create(f, overwrite, bufferSize, replication, blockSize, progress), f)

  override def rename(src: Path, dst: Path): Boolean =
    if (failRename) throw new IOException(s"failing: rename $src -> $dst refused") else super.rename(src, dst)
}

object FailingFileSystem {
  val Scheme = "failing"
  val Uri: URI = URI.create(s"$Scheme:///")
  val FailWritesAfter = "bloomparquet.test.fail-writes-after"
  val FailRename = "bloomparquet.test.fail-rename"
  /** A folder name: no file can be created in a folder of that name (set it on the configuration directly). */
  val UnwritableFolder = "bloomparquet.test.unwritable-folder"

  /**
   * Hadoop settings that mount this file system (and its FileContext side)
   * under `failing:`, failing writes past `failWritesAfter` bytes (-1: never)
   * and, if `failRename`, every rename.
   */
  def settings(failWritesAfter: Long, failRename: Boolean): java.util.Map[String, String] = Map(
    s"fs.$Scheme.impl" -> classOf[FailingFileSystem].getName,
    s"fs.$Scheme.impl.disable.cache" -> "true",
    s"fs.AbstractFileSystem.$Scheme.impl" -> classOf[FailingAbstractFileSystem].getName,
    FailWritesAfter -> (if (failWritesAfter < 0) Long.MaxValue else failWritesAfter).toString,
    FailRename -> failRename.toString).asJava
}

/** Writes up to `budget` bytes through, then fails as a killed writer would (the bytes so far stay). */
private final class BudgetedStream(out: OutputStream, budget: Long, path: Path) extends OutputStream {
  private var written = 0L

  override def write(b: Int): Unit = write(Array(b.toByte), 0, 1)

  override def write(b: Array[Byte], off: Int, len: Int): Unit = {
    val allowed = math.min(len.toLong, budget - written).toInt
    out.write(b, off, allowed)
    written += allowed
    if (allowed < len) throw new IOException(s"failing: write to $path past $budget bytes refused")
  }

  override def flush(): Unit = out.flush()
  override def close(): Unit = out.close()
}

/** The `FileContext` view of [[FailingFileSystem]], where rename-with-overwrite goes. */
class FailingAbstractFileSystem(uri: URI, conf: Configuration)
    extends DelegateToFileSystem(uri, new FailingFileSystem, conf, FailingFileSystem.Scheme, false) {

  // The default deletes an existing destination first; a local rename replaces it in one step.
  override def renameInternal(src: Path, dst: Path, overwrite: Boolean): Unit =
    if (!fsImpl.rename(src, dst)) throw new IOException(s"failing: rename $src -> $dst returned false")
}
