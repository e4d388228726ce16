package io.bloomparquet.python

import java.nio.{ByteBuffer, ByteOrder}
import java.util.Locale

import scala.jdk.CollectionConverters._
import scala.util.Using

import io.bloomparquet.compat.SparkCompat
import io.bloomparquet.kernel.{SbbfKernel, SbbfKernels}
import io.bloomparquet.sbbf.{BloomFilterRead, BloomFilterReader, ParquetHash, SplitBlockBloomFilter}
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter
import org.apache.parquet.hadoop.ParquetFileReader
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.spark.sql.Dataset
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanHelper
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec
import org.apache.spark.sql.execution.{FileSourceScanExec, SparkPlan}

/**
 * Entry points for Python (py4j): the demo and the cross-verification tests.
 * Arrays cross as `byte[]` (py4j copies those natively): hashes and words as
 * little-endian 64-bit values, check answers as one byte per hash.
 */
object PythonBridge {

  def kernelName: String = SbbfKernels.get().name
  def kernelReason: String = SbbfKernels.reason()

  /** "scalar", "vector", "auto" (this JVM's choice), or "parquet-java". */
  private def kernel(name: String): SbbfKernel = name.toLowerCase(Locale.ROOT) match {
    case "scalar" => SbbfKernels.scalar()
    case "vector" => SbbfKernels.vector()
    case "auto" => SbbfKernels.get()
    case other => throw new IllegalArgumentException(s"kernel '$other': expected scalar, vector, auto or parquet-java")
  }

  private def longs(bytes: Array[Byte]): Array[Long] = {
    val out = new Array[Long](bytes.length / 8)
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(out)
    out
  }

  private def longBytes(values: Array[Long]): Array[Byte] = {
    val buf = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN)
    buf.asLongBuffer().put(values)
    buf.array()
  }

  /** Bitset of a `numBytes` filter after inserting `hashes` with `kernelName`. */
  def buildFilter(kernelName: String, numBytes: Int, hashes: Array[Byte]): Array[Byte] =
    if (kernelName.equalsIgnoreCase("parquet-java")) {
      val f = new BlockSplitBloomFilter(numBytes, numBytes)
      longs(hashes).foreach(f.insertHash)
      val out = new java.io.ByteArrayOutputStream(numBytes)
      f.writeTo(out)
      out.toByteArray
    } else {
      val f = SplitBlockBloomFilter(numBytes, kernel(kernelName))
      f.insertHashes(longs(hashes))
      f.toBytes
    }

  /** One byte (0/1) per hash: may `bitset` contain it, asked through `kernelName`. */
  def checkHashes(kernelName: String, bitset: Array[Byte], hashes: Array[Byte]): Array[Byte] = {
    val hs = longs(hashes)
    val answers =
      if (kernelName.equalsIgnoreCase("parquet-java")) {
        val f = new BlockSplitBloomFilter(bitset)
        hs.map(f.findHash)
      } else SplitBlockBloomFilter.fromBytes(bitset, 0, bitset.length, kernel(kernelName)).checkHashes(hs)
    answers.map(b => if (b) 1.toByte else 0.toByte)
  }

  /**
   * Hashes of PLAIN-encoded values: fixed-width values back to back, BYTE_ARRAY
   * with its 4-byte little-endian length prefixes, FIXED_LEN_BYTE_ARRAY as
   * `typeLength`-byte slices. Returns little-endian uint64 hashes.
   */
  def hashPlain(physicalType: String, plain: Array[Byte], typeLength: Int): Array[Byte] = {
    val buf = ByteBuffer.wrap(plain).order(ByteOrder.LITTLE_ENDIAN)
    val hashes = physicalType.toUpperCase(Locale.ROOT) match {
      case "INT32" => Array.fill(plain.length / 4)(ParquetHash.int32(buf.getInt()))
      case "INT64" => Array.fill(plain.length / 8)(ParquetHash.int64(buf.getLong()))
      case "FLOAT" => Array.fill(plain.length / 4)(ParquetHash.float(buf.getFloat()))
      case "DOUBLE" => Array.fill(plain.length / 8)(ParquetHash.double(buf.getDouble()))
      case "FIXED_LEN_BYTE_ARRAY" =>
        Array.tabulate(plain.length / typeLength)(i => ParquetHash.bytes(plain, i * typeLength, typeLength))
      case "BYTE_ARRAY" =>
        val out = Array.newBuilder[Long]
        while (buf.hasRemaining) {
          val len = buf.getInt()
          out += ParquetHash.bytes(plain, buf.position(), len)
          buf.position(buf.position() + len)
        }
        out.result()
      case other => throw new IllegalArgumentException(s"physical type $other has no bloom filter hash")
    }
    longBytes(hashes)
  }

  /** Every readable bloom filter bitset of a file, keyed "rowGroup/dotted.column.path"; broken ones as "!reason". */
  def readFilters(path: String): java.util.Map[String, Array[Byte]] = {
    val file = HadoopInputFile.fromPath(new Path(path), new Configuration())
    val out = new java.util.LinkedHashMap[String, Array[Byte]]()
    Using.resources(ParquetFileReader.open(file), file.newStream()) { (reader, in) =>
      reader.getFooter.getBlocks.asScala.zipWithIndex.foreach { case (block, rg) =>
        block.getColumns.asScala.foreach { chunk =>
          val key = s"$rg/${chunk.getPath.toDotString}"
          BloomFilterReader.read(in, file.getLength, chunk) match {
            case BloomFilterRead.Loaded(filter, _) => out.put(key, filter.toBytes)
            case BloomFilterRead.Broken(reason, _, _) => out.put(key, ("!" + reason).getBytes("UTF-8"))
            case BloomFilterRead.Absent =>
          }
        }
      }
    }
    out
  }

  private object Plans extends AdaptiveSparkPlanHelper

  /**
   * Metrics of the file scans in `df`'s executed plan (run the query first),
   * summed over scans: our bloom metrics, Spark's own scan metrics, and
   * "tasks", the number of input partitions the scans planned.
   */
  def scanMetrics(df: Dataset[_]): java.util.Map[String, java.lang.Long] = {
    val out = new java.util.TreeMap[String, java.lang.Long]()
    def add(name: String, v: Long): Unit = out.merge(name, v, (a, b) => a + b)
    val scans: Seq[SparkPlan] = Plans.collect(SparkCompat.queryExecution(df).executedPlan) {
      case s: BatchScanExec => s
      case s: FileSourceScanExec => s
    }
    scans.foreach { scan =>
      scan.metrics.foreach { case (name, metric) => add(name, metric.value) }
      add("tasks", scan match {
        case b: BatchScanExec => b.inputRDD.getNumPartitions.toLong
        case f: FileSourceScanExec => f.inputRDD.getNumPartitions.toLong
        case _ => 0L
      })
    }
    add("scans", scans.size.toLong)
    out
  }
}
