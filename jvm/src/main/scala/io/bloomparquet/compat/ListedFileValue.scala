package io.bloomparquet.compat

import org.apache.spark.sql.execution.datasources.{PartitionDirectory, PartitionedFile}

/**
 * A value a file index gives one listed file that reaches the tasks reading that file's splits:
 * Spark copies a listed file's metadata map into each of its splits (Delta Lake passes a file's
 * deletion vector so). What an index decides per file at listing then travels with the file, with
 * no state shared between the index and the scan's format, and each task gets only its own files'.
 */
final class ListedFileValue[T](key: String) {

  /** `listed` with `value(path)` given to each file it has one for. */
  def attach(listed: Seq[PartitionDirectory])(value: String => Option[T]): Seq[PartitionDirectory] =
    listed.map { dir =>
      dir.copy(files = dir.files.map(f =>
        value(f.getPath.toString).fold(f)(v => f.copy(metadata = f.metadata + (key -> v)))))
    }

  /** The value the index gave `split`'s file, if any. */
  def of(split: PartitionedFile): Option[T] = split.otherConstantMetadataColumnValues.get(key).map(_.asInstanceOf[T])
}
