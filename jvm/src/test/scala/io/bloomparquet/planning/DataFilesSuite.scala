package io.bloomparquet.planning

import java.nio.file.{Files, Path => JPath}

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileSystem, FilterFileSystem, Path, RawLocalFileSystem}

/**
 * The data files retrofit and the digest build list: the same files whether the file system is
 * walked directory by directory (local) or listed recursively at once (any other), none hidden.
 */
class DataFilesSuite extends munit.FunSuite {

  private val visible = Seq("a.parquet", "k=1/b.parquet", "k=2/sub/e.parquet")
  private val hidden = Seq("_SUCCESS", ".a.parquet.crc", "k=1/_temporary/0/c.parquet", "_delta_log/00.json",
    ".hidden/d.parquet", "_bloomparquet/digest", "k=2/_x/f.parquet")

  private def tree(): JPath = {
    val root = Files.createTempDirectory("bp-listing")
    (visible ++ hidden).foreach { rel =>
      val f = root.resolve(rel)
      Files.createDirectories(f.getParent)
      Files.write(f, Array[Byte](1))
    }
    root
  }

  private def relative(root: JPath, listed: Seq[org.apache.hadoop.fs.FileStatus]): Seq[String] =
    listed.map(s => root.toUri.relativize(new java.io.File(s.getPath.toUri.getPath).toURI).getPath)

  // Not a LocalFileSystem: listed with one recursive listing, as an object store is.
  private def nonLocal(): FileSystem = {
    val fs = new FilterFileSystem(new RawLocalFileSystem)
    fs.initialize(java.net.URI.create("file:///"), new Configuration())
    fs
  }

  test("local and recursive listings give the same visible files, sorted") {
    val root = tree()
    val local = DataFiles.statuses(root.toString, new Configuration())
    assertEquals(relative(root, local), visible)
    assertEquals(relative(root, DataFiles.statuses(nonLocal(), new Path(root.toUri))), visible)
  }

  test("a glob's matches, a file given by name") {
    val root = tree()
    assertEquals(relative(root, DataFiles.statuses(s"$root/k=*", new Configuration())), visible.drop(1))
    assertEquals(relative(root, DataFiles.statuses(s"$root/a.parquet", new Configuration())), visible.take(1))
  }
}
