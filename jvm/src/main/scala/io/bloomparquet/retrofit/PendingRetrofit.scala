package io.bloomparquet.retrofit

/** A table format's retrofit whose new files are written and checked, not yet committed. */
trait PendingRetrofit {
  /** One per file of the table's version read: `target` holds the new file of each one retrofitted. */
  def results: Seq[RetrofitResult]

  /** The version read; the new files replace the old ones only as of a later one. */
  def readVersion: Long

  /**
   * Commits the new files in place of the old ones through the format's own commit (a rewrite that
   * changes no row) and returns the version committed, the version read when there was nothing to
   * commit. A concurrent commit that removed or rewrote a file read, or that deleted rows of one, fails
   * it with the format's conflict error, having removed the new files.
   */
  def commit(): Long

  /** Removes the new files, committing nothing. */
  def abandon(): Unit

  def resultsForPython: java.util.List[java.util.Map[String, Any]] = RetrofitJob.forPython(results)
}
