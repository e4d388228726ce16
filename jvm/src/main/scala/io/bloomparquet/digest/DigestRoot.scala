package io.bloomparquet.digest

import org.apache.hadoop.fs.Path

/** Where a scan's table keeps its digest: the root its files' paths are relative to. */
object DigestRoot {
  private val PartitionFolder = "[^=/]+=[^/]*".r

  /**
   * The table root of a scan's root paths (a table's folder, or the partition folders a catalog
   * lists for it): their deepest common folder, less the partition folders (`name=value`) it ends
   * in. None for no paths, or paths on different file systems.
   */
  def of(roots: Seq[Path]): Option[Path] = {
    val uris = roots.map(_.toUri)
    if (uris.isEmpty || uris.map(u => (Option(u.getScheme), Option(u.getAuthority))).distinct.size > 1) None
    else {
      val segments = uris.map(_.getPath.split("/").filter(_.nonEmpty).toSeq)
      val common = segments.reduce((a, b) => a.zip(b).takeWhile { case (x, y) => x == y }.map(_._1))
      val table = common.reverse.dropWhile(s => PartitionFolder.pattern.matcher(s).matches()).reverse
      val first = roots.head
      Some(new Path(first.toUri.getScheme, first.toUri.getAuthority, "/" + table.mkString("/")))
    }
  }

  /** `file`'s path relative to the table at `root` (both qualified), if it lies under it. */
  def relative(root: Path, file: Path): Option[String] = {
    val (r, f) = (root.toUri, file.toUri)
    val prefix = r.getPath.stripSuffix("/") + "/"
    if (Option(r.getScheme) != Option(f.getScheme) || Option(r.getAuthority) != Option(f.getAuthority)) None
    else Some(f.getPath).filter(_.startsWith(prefix)).map(_.stripPrefix(prefix))
  }

  /**
   * [[relative]] to `root` for paths as Hadoop's `Path.toString` writes them (planning's file keys):
   * one under the root's own text is its rest, with no parsing (a table's files are planned many
   * thousands at a time); any other form is parsed.
   */
  def relativeTo(root: Path): String => Option[String] = {
    val prefix = root.toString.stripSuffix("/") + "/"
    // A rest that starts with a slash is another spelling (`file:///x` under `file:/`): parsed.
    path =>
      if (path.startsWith(prefix) && !path.startsWith("/", prefix.length)) Some(path.substring(prefix.length))
      else relative(root, new Path(path))
  }
}
