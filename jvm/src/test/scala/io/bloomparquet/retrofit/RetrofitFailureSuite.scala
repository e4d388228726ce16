package io.bloomparquet.retrofit

import java.io.IOException
import java.nio.file.Files

import scala.jdk.CollectionConverters._

import io.bloomparquet.planning.DataFiles
import io.bloomparquet.testing.{FailingFileSystem, SmallParquet}
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path

/** A retrofit that dies writing its temporary file or at the rename leaves the original and no temporary. */
class RetrofitFailureSuite extends munit.FunSuite {

  private def listing(dir: java.nio.file.Path) = Files.list(dir).iterator.asScala.map(_.getFileName.toString).toSeq.sorted

  /** Retrofits a small file through `failing:` with `settings(footerStart)`; the error and whether all is as it was. */
  private def attempt(settings: Long => java.util.Map[String, String]): Throwable = {
    val dir = Files.createTempDirectory("bp-retrofit-fail")
    val file = SmallParquet.write(dir)
    val (bytes, names) = (Files.readAllBytes(file), listing(dir))
    val conf = new Configuration()
    settings(SmallParquet.footerStart(bytes)).asScala.foreach { case (k, v) => conf.set(k, v) }
    val listed = s"failing:$file"
    assertEquals(DataFiles.paths(s"failing://$dir", conf), Seq(listed))
    val error =
      intercept[IOException](RetrofitFile.run(new Path(listed), conf, Seq("name"), 0.01, overwrite = false, caseSensitive = false))
    assert(Files.readAllBytes(file).sameElements(bytes), "the original changed")
    assertEquals(listing(dir), names) // no temporary file left
    error
  }

  test("a write that fails once the data bytes are copied") {
    val error = attempt(footerStart => FailingFileSystem.settings(footerStart, false))
    assert(error.getMessage.matches("failing: write to .* past [0-9]+ bytes refused"), error.getMessage)
  }

  test("a rename that fails once the new file is written and checked") {
    val error = attempt(_ => FailingFileSystem.settings(-1, true))
    assert(error.getMessage.startsWith("cannot replace failing:"), error.getMessage)
    assert(error.getCause.getMessage.startsWith("failing: rename"), error.getCause.getMessage)
  }
}
