package io.bloomparquet.planning

/**
 * What a table's bloom digest did for one planning: the entries (row groups' filters) of the
 * probed columns it held for the scan's files and those it ruled out (none probed: 0, as where
 * the values were too many to probe), the requests and bytes reading it took (the pointer read
 * too, where the table has no digest), the scan's files a digest did not cover (absent from it,
 * or of another version: judged on their own), and whether a digest was found but refused
 * (damaged, unknown version: then every file is judged on its own).
 */
final case class DigestUse(entries: Long, entriesPruned: Long, requests: Long, bytesRead: Long, filesNotCovered: Long,
    refused: Long)

object DigestUse {
  /** No digest looked for: off, in a task, or nothing to prune. */
  val NotLookedFor: DigestUse = DigestUse(entries = 0, entriesPruned = 0, requests = 0, bytesRead = 0, filesNotCovered = 0,
    refused = 0)
}
