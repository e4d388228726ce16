package io.bloomparquet.compat

import java.nio.ByteBuffer

import org.apache.parquet.io.SeekableInputStream

/** A stream holding some of a file's bytes in memory over the file's own stream; Spark 3.5's parquet-java reads no vectored. */
abstract class PartlyHeldStream extends SeekableInputStream {
  protected def underlying: SeekableInputStream
  protected def held(offset: Long, length: Int): Option[ByteBuffer]
}
