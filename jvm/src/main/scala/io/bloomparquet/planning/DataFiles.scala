package io.bloomparquet.planning

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileStatus, FileSystem, LocalFileSystem, Path, RawLocalFileSystem}

/** The data files of a Parquet directory as retrofit and the bloom digest list them. */
object DataFiles {

  /** The paths of [[statuses]]. */
  def paths(path: String, conf: Configuration): Seq[String] = statuses(path, conf).map(_.getPath.toString)

  /**
   * The data files at `path` (a file, a directory listed recursively, or a glob), as the listing
   * gave them, sorted by path: hidden files and anything under a hidden directory (`_temporary`,
   * `_delta_log`, `_bloomparquet`, dot files) left out, as Spark's listing leaves them out.
   */
  def statuses(path: String, conf: Configuration): Seq[FileStatus] = {
    val p = new Path(path)
    statuses(p.getFileSystem(conf), p)
  }

  /** [[statuses]] of `p` on `fs`. */
  def statuses(fs: FileSystem, p: Path): Seq[FileStatus] = {
    val roots = Option(fs.globStatus(p)).map(_.toSeq).getOrElse(Nil)
    if (roots.isEmpty) throw new java.io.FileNotFoundException(s"no file matches $p")
    roots.flatMap(st => if (st.isFile) Seq(st) else visibleFiles(fs, st.getPath))
      .filter(s => !hidden(s.getPath.getName)).groupBy(_.getPath.toString).map(_._2.head).toSeq.sortBy(_.getPath.toString)
  }

  private def hidden(name: String): Boolean = name.startsWith("_") || name.startsWith(".")

  /** The files under `dir`, none under a hidden directory. */
  private def visibleFiles(fs: FileSystem, dir: Path): Seq[FileStatus] = fs match {
    // Directory by directory: Hadoop's recursive listing makes located statuses, and a local file's
    // asks its permissions, which Hadoop without its native library learns by running `ls` per file
    // (100,000 files: minutes).
    case _: LocalFileSystem | _: RawLocalFileSystem =>
      fs.listStatus(dir).toSeq.flatMap { s =>
        if (hidden(s.getPath.getName)) Nil else if (s.isDirectory) visibleFiles(fs, s.getPath) else Seq(s)
      }
    // Elsewhere one recursive listing (an object store lists a whole prefix in pages, not per directory).
    case _ =>
      val it = fs.listFiles(dir, true)
      val out = Seq.newBuilder[FileStatus]
      while (it.hasNext) {
        val f = it.next()
        val rel = f.getPath.toUri.getPath.stripPrefix(dir.toUri.getPath)
        if (rel.split("/").forall(n => n.isEmpty || !hidden(n))) out += f
      }
      out.result()
  }
}
