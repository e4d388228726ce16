package io.bloomparquet.planning

import io.bloomparquet.pruning.RowGroupVerdict

/**
 * What planning made of the files it judged, by file: the one model every read path cuts from.
 * A file's [[FileOutcome]] holds its row groups' verdicts, what judging it read and the version
 * its file system offered; the rest follows from it and the file's listing: whether any of the
 * file is read ([[kept]]), the version a task checks before reading what planning cut
 * ([[judged]]), and the row groups such a task reads ([[keptRowGroups]]). `inTask`: files planning
 * kept unread, for the tasks that read them to judge (the table's bloom digest kept them, and
 * `bloom.digestSurvivors=task`); they have no outcome here. `digest`: what the table's bloom digest
 * did, which decided some files with no read of their own.
 */
final case class PrunedFiles(outcomes: Map[FileKey, FileOutcome], inTask: Set[FileKey], digest: DigestUse) {

  def apply(key: FileKey): FileOutcome = outcomes(key)

  /** `key`'s outcome, where planning judged it. */
  def get(key: FileKey): Option[FileOutcome] = outcomes.get(key)

  /** Every outcome: what the judging read, for the counts. */
  def values: Iterable[FileOutcome] = outcomes.values

  /** Whether `key` is read at all: a row group of it kept, or the file unreadable (then read whole). */
  def kept(key: FileKey): Boolean = inTask(key) || {
    val o = outcomes(key)
    o.failure.isDefined || o.verdicts.contains(RowGroupVerdict.Keep)
  }

  /** The version of `key` planning judged: its listed length and modification time, and what its file system offered. */
  def judged(key: FileKey): JudgedVersion = JudgedVersion(key.length, key.modificationTime, outcomes(key).version)

  /** `key`'s kept row groups, where planning read it and pruned some but not all of them. */
  def keptRowGroups(key: FileKey): Option[KeptRowGroups] = outcomes.get(key).flatMap { o =>
    val keep = o.verdicts.indices.map(o.keep)
    if (o.failure.isDefined || keep.forall(identity) || !keep.contains(true)) None
    else Some(KeptRowGroups(o.spans, keep, judged(key)))
  }
}
