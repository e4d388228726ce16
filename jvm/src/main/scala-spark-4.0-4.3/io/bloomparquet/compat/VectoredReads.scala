package io.bloomparquet.compat

import scala.jdk.CollectionConverters._

import org.apache.parquet.bytes.HeapByteBufferAllocator
import org.apache.parquet.io.{ParquetFileRange, SeekableInputStream}

/**
 * parquet-java's vectored reads (1.14+, Spark 4.0 on): a file's ranges handed to the file system at
 * once, which fetches them together (an object store's client in parallel requests, Hadoop's
 * local file system through one asynchronous channel).
 */
object VectoredReads {

  /** Whether this Spark's parquet-java can read vectored at all. */
  val supported: Boolean = true

  /**
   * The bytes of each of `ranges` (sorted, none overlapping, each under 2 GiB) of `in`, read in one
   * vectored read; None where the stream cannot (the caller reads them one by one). A failed
   * range throws its cause.
   */
  def read(in: SeekableInputStream, ranges: Seq[ByteRange]): Option[Seq[Array[Byte]]] = {
    val allocator = HeapByteBufferAllocator.getInstance()
    if (!in.readVectoredAvailable(allocator)) None
    else {
      val fileRanges = ranges.map(r => new ParquetFileRange(r.start, Math.toIntExact(r.length)))
      in.readVectored(fileRanges.asJava, allocator)
      Some(fileRanges.map { r =>
        val buffer = r.getDataReadFuture.get().duplicate()
        val bytes = new Array[Byte](r.getLength)
        buffer.get(bytes)
        bytes
      })
    }
  }
}
