package io.bloomparquet.compat

import org.apache.parquet.io.SeekableInputStream

/** Spark 3.5's parquet-java (1.13) has no vectored reads: ranges are read one by one. */
object VectoredReads {

  val supported: Boolean = false

  def read(in: SeekableInputStream, ranges: Seq[ByteRange]): Option[Seq[Array[Byte]]] = None
}
