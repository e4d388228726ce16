package io.bloomparquet.options

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}

/** The files rendered from the registry, in the checkout this runs in. */
object OptionFiles {
  lazy val root: Path = Iterator.iterate(Paths.get("").toAbsolutePath)(_.getParent).takeWhile(_ != null)
    .find(d => Files.exists(d.resolve("pyproject.toml"))).getOrElse(sys.error("no pyproject.toml above the working directory"))
  def json: Path = root.resolve("python/bloomparquet/_options.json")
  /** The docs pages holding option tables (`<!-- options:<scope>:begin -->`). */
  def pages: Seq[Path] = {
    val docs = root.resolve("docs").toFile.listFiles().toSeq.filter(_.getName.endsWith(".md")).map(_.toPath).sortBy(_.toString)
    docs.filter(p => read(p).contains("<!-- options:"))
  }

  def read(p: Path): String = new String(Files.readAllBytes(p), UTF_8)

  /** Regenerates both (bin/gen-options). */
  def main(args: Array[String]): Unit = {
    Files.write(json, OptionDocs.json.getBytes(UTF_8))
    pages.foreach(p => Files.write(p, OptionDocs.updateTables(read(p)).getBytes(UTF_8)))
    println(s"wrote $json and the option tables of ${pages.mkString(", ")}")
  }
}
