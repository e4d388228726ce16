package io.bloomparquet.spark

import scala.util.Try

import io.bloomparquet.compat.ParquetConf
import io.bloomparquet.digest.DigestRefresh
import org.apache.hadoop.fs.Path
import org.apache.hadoop.mapreduce.{Job, JobContext, OutputCommitter, TaskAttemptContext}
import org.apache.parquet.hadoop.ParquetOutputCommitter
import org.apache.spark.sql.SparkSession

/**
 * Spark's Parquet output committer that, once a write's job has committed, rebuilds the bloom digest
 * of the directory written into where it has one ([[DigestRefresh.afterWrite]]): appends and inserts
 * through `bloomparquet` are then decided by the digest at once instead of file by file.
 *
 * Spark's default commit protocol instantiates the class its Parquet write names in the job; a write
 * whose session names another committer (`spark.sql.parquet.output.committer.class`, a cloud
 * committer's protocol) keeps it, and its digest is rebuilt by the next refresh instead. A write with
 * dynamic partition overwrite commits into a staging folder that has no digest, so nothing is rebuilt.
 */
class DigestRefreshingCommitter(outputPath: Path, context: TaskAttemptContext)
    extends ParquetOutputCommitter(outputPath, context) {

  override def commitJob(jobContext: JobContext): Unit = {
    super.commitJob(jobContext)
    // The write's own thread on the driver, inside the command: its session is the active one.
    Try(SparkSession.active).foreach(DigestRefresh.afterWrite(_, outputPath.toString))
  }
}

object DigestRefreshingCommitter {

  /** Names this committer in `job` where Spark's Parquet write named Parquet's own (its default). */
  def install(job: Job): Unit = {
    val conf = job.getConfiguration
    val named = conf.getClass(ParquetConf.OutputCommitterClassKey, null, classOf[OutputCommitter])
    if (named == classOf[ParquetOutputCommitter])
      conf.setClass(ParquetConf.OutputCommitterClassKey, classOf[DigestRefreshingCommitter], classOf[OutputCommitter])
  }
}
