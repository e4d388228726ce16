package io.bloomparquet.planning

import java.nio.file.{Files, StandardCopyOption, StandardOpenOption}
import java.nio.file.attribute.FileTime

import org.apache.hadoop.conf.Configuration

/**
 * The local file system's version is inode and change time: a file replaced at its path with
 * the same length and modification time is another version, whether a new file is renamed over
 * it (`rsync -t`) or its own inode is rewritten (`cp --preserve=timestamps`).
 */
class FileVersionSuite extends munit.FunSuite {
  private val conf = new Configuration()

  private def sameLengthAndTime(write: java.nio.file.Path => Unit): (FileVersion.Lookup, FileVersion.Lookup) = {
    val dir = Files.createTempDirectory("bp-version")
    val file = dir.resolve("f.parquet")
    Files.write(file, "version one".getBytes)
    val mtime = Files.getLastModifiedTime(file)
    val before = FileVersion.of(file.toUri.toString, conf)
    Thread.sleep(20) // ctime has the kernel's clock granularity
    write(file)
    Files.setLastModifiedTime(file, mtime)
    assertEquals(Files.size(file), "version one".length.toLong)
    assertEquals(Files.getLastModifiedTime(file), mtime)
    (before, FileVersion.of(file.toUri.toString, conf))
  }

  test("a file renamed over the path is another version") {
    val (before, after) = sameLengthAndTime { file =>
      val tmp = file.resolveSibling(".f.tmp")
      Files.write(tmp, "version two".getBytes)
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE)
    }
    assert(before.isInstanceOf[FileVersion.Version], before)
    assertNotEquals(before, after)
  }

  test("the same inode rewritten is another version") {
    val (before, after) = sameLengthAndTime(file =>
      Files.write(file, "version two".getBytes, StandardOpenOption.TRUNCATE_EXISTING))
    assertNotEquals(before, after)
  }

  test("an unchanged file keeps its version, also through a bare path") {
    val file = Files.createTempFile("bp-version", ".parquet")
    Files.setLastModifiedTime(file, FileTime.fromMillis(0))
    assertEquals(FileVersion.of(file.toUri.toString, conf), FileVersion.of(file.toString, conf))
  }

  test("a file that is not there has no known version") {
    assertEquals(FileVersion.of("file:/no/such/bp-file.parquet", conf), FileVersion.Unknown)
  }
}
