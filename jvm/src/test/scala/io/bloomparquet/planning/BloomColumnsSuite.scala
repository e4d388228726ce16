package io.bloomparquet.planning

import java.nio.file.Files

import io.bloomparquet.testing.SmallParquet
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileStatus, Path}

/** A listing's filtered columns are read once and kept; an answer with an unreadable footer is not. */
class BloomColumnsSuite extends munit.FunSuite {

  private def statusOf(path: java.nio.file.Path): FileStatus = {
    val f = path.toFile
    new FileStatus(f.length, false, 1, 4096, f.lastModified, new Path(path.toUri))
  }

  test("a listing answered whole is kept: the Hadoop configuration is not built again") {
    val file = SmallParquet.write(Files.createTempDirectory("bp-columns"))
    var built = 0
    def conf = { built += 1; new Configuration() }
    val listing = Seq(statusOf(file))
    assertEquals(BloomColumns.in(listing, conf, useCache = true), Set("key"))
    assertEquals(built, 1)
    assertEquals(BloomColumns.in(listing, conf, useCache = true), Set("key"))
    assertEquals(built, 1)
    assertEquals(BloomColumns.in(listing, conf, useCache = false), Set("key"))
    assertEquals(built, 2)
  }

  test("a footer that could not be read leaves the answer unkept: the next query reads it") {
    val dir = Files.createTempDirectory("bp-columns-missing")
    val file = SmallParquet.write(dir)
    val status = statusOf(file)
    val moved = Files.move(file, dir.resolve("elsewhere.parquet"))
    assertEquals(BloomColumns.in(Seq(status), new Configuration(), useCache = true), Set.empty[String])
    Files.move(moved, file)
    assertEquals(BloomColumns.in(Seq(status), new Configuration(), useCache = true), Set("key"))
  }
}
