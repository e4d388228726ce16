package io.bloomparquet.digest

import scala.util.control.NonFatal

import io.bloomparquet.compat.SparkCompat
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.spark.sql.SparkSession

/**
 * Keeps a table's bloom digest current once some of its files were written or rewritten (our
 * writer's Python helper, retrofit, `bloomparquet_digest(path)`): where the directory `root` has a
 * digest, a new one for the same columns and bound, taking the entries of every file unchanged
 * since from it and reading only the others (at 100,000 files, a few seconds). Without it those
 * files would be judged one by one at every lookup until the next build. A table without a digest,
 * or whose digest cannot be read, is left as it is: readers ignore a digest they cannot trust, and
 * a build names its own columns.
 */
object DigestRefresh {

  /** The digest rebuilt, where `root` is a directory with one that could be read. */
  def ifPresent(spark: SparkSession, root: String): Option[DigestBuilt] = {
    val conf = SparkCompat.newHadoopConf(spark)
    for {
      dir <- directory(root, conf)
      current <- TableDigest.openAsItIsNow(dir.getFileSystem(conf), dir, TableDigest.TailGuessBytes) match {
        case o: TableDigest.Opened => Some(o.digest)
        case _ => None
      }
      columns <- current.footer.properties.get(DigestJob.ColumnsProperty)
    } yield DigestJob.build(spark, dir.toString, columns.split(",").toSeq, current.index.fpp, full = false)
  }

  /**
   * [[ifPresent]] once files of `root` were written or rewritten: a rebuild that fails (a file
   * unreadable, the folder not writable) leaves the current digest, which stays correct (the new
   * files are judged on their own), so it is logged, not thrown at a write that succeeded.
   */
  def afterWrite(spark: SparkSession, root: String): Unit =
    try ifPresent(spark, root)
    catch {
      case NonFatal(e) =>
        log.warn(s"bloomparquet: the bloom digest of $root was not rebuilt after the write ($e); " +
          "its new files are judged on their own until it is (bloomparquet.refresh_digest)")
    }

  private val log = org.slf4j.LoggerFactory.getLogger(getClass)

  /** For Python: what [[ifPresent]] built, as a map; null where it built nothing. */
  def ifPresentForPython(spark: SparkSession, root: String): java.util.Map[String, Any] =
    ifPresent(spark, root).map(_.forPython).orNull

  private def directory(root: String, conf: Configuration): Option[Path] =
    try {
      val p = new Path(root)
      val fs = p.getFileSystem(conf)
      Some(fs.makeQualified(p)).filter(fs.getFileStatus(_).isDirectory)
    } catch { case NonFatal(_) => None }
}
