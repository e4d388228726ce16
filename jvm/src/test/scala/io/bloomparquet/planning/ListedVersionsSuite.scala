package io.bloomparquet.planning

import java.nio.file.Files

import scala.jdk.CollectionConverters._

import io.bloomparquet.testing.EtagFileSystem
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{EtagSource, Path}

/**
 * Versions from one listing of each directory, on a file system with etags (the test jar's
 * `etag:`); S3A's request counts are the S3A suite's (tests/s3a).
 */
class ListedVersionsSuite extends munit.FunSuite {
  private val conf = {
    val c = new Configuration()
    EtagFileSystem.settings.asScala.foreach { case (k, v) => c.set(k, v) }
    c
  }

  private def keyOf(p: Path): FileKey = {
    val st = p.getFileSystem(conf).getFileStatus(p)
    FileKey(p.toString, st.getLen, st.getModificationTime)
  }

  test("files of a directory get the listing's etags and statuses; alone, changed or elsewhere, none") {
    val dir = Files.createTempDirectory("bp-listed")
    Seq("a", "b", "c").foreach(n => Files.write(dir.resolve(n), s"file $n".getBytes))
    Files.createDirectory(dir.resolve("sub"))
    Files.write(dir.resolve("sub").resolve("alone"), "alone".getBytes)
    val paths = Seq("a", "b", "c", "sub/alone").map(n => new Path(s"etag://${dir.resolve(n)}"))
    val keys = paths.map(keyOf)
    val changed = keys(2).copy(length = keys(2).length + 1) // listed before it grew
    val local = FileKey(dir.resolve("a").toUri.toString, 6, 0) // a file system without etags
    val filled = ListedVersions.fill(Seq(keys(0), keys(1), changed, keys(3), local), conf)
    val fs = paths.head.getFileSystem(conf)
    Seq(keys(0), keys(1)).zip(paths).foreach { case (k, p) =>
      val etag = fs.getFileStatus(p).asInstanceOf[EtagSource].getEtag
      assertEquals(filled.key(k).version, Some(etag))
      assert(filled.status(filled.key(k)).exists(_.isInstanceOf[EtagSource]))
    }
    assertEquals(filled.key(changed), changed)
    assertEquals(filled.key(keys(3)), keys(3)) // left to its status call
    assertEquals(filled.key(local), local)
    // What [[Versioned]] makes of them: the listed version as given, the others asked for.
    assertEquals(Versioned(filled.key(keys(0)), new Path(keys(0).path), conf, cacheWanted = true).version,
      FileVersion.Version(filled.key(keys(0)).version.get))
    assert(Versioned(keys(3), new Path(keys(3).path), conf, cacheWanted = true).version.isInstanceOf[FileVersion.Version])
  }
}
