package io.bloomparquet.compat

import java.nio.ByteBuffer
import java.util.concurrent.CompletableFuture

import scala.jdk.CollectionConverters._

import org.apache.parquet.bytes.ByteBufferAllocator
import org.apache.parquet.io.{ParquetFileRange, SeekableInputStream}

/**
 * A stream holding some of a file's bytes in memory (`held`) over the file's own stream
 * (`underlying`): a vectored read serves the ranges it holds and hands the rest to the file's
 * vectored read.
 */
abstract class PartlyHeldStream extends SeekableInputStream {
  protected def underlying: SeekableInputStream

  /** The bytes of `[offset, offset + length)` where all of them are held. */
  protected def held(offset: Long, length: Int): Option[ByteBuffer]

  override def readVectoredAvailable(allocator: ByteBufferAllocator): Boolean = underlying.readVectoredAvailable(allocator)

  override def readVectored(ranges: java.util.List[ParquetFileRange], allocator: ByteBufferAllocator): Unit = {
    val remote = ranges.asScala.filter { r =>
      held(r.getOffset, r.getLength) match {
        case Some(bytes) => r.setDataReadFuture(CompletableFuture.completedFuture(bytes)); false
        case None => true
      }
    }
    if (remote.nonEmpty) underlying.readVectored(remote.asJava, allocator)
  }
}
