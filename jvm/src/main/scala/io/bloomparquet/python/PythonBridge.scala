package io.bloomparquet.python

import java.nio.{ByteBuffer, ByteOrder}

import scala.jdk.CollectionConverters._
import scala.util.Using

import io.bloomparquet.compat.{ExecutedScans, SparkCompat}
import io.bloomparquet.kernel.SbbfKernels
import io.bloomparquet.planning.DataFiles
import io.bloomparquet.sbbf.{BloomFilterReader, FilterFound, SplitBlockBloomFilter}
import io.bloomparquet.spark.metrics.PrunedFileIndex
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.hadoop.ParquetFileReader
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.spark.sql.{Dataset, SparkSession}

/**
 * Entry points for the package's Python code (py4j): the CLI's kernel report,
 * the demo's JVM-versus-Python agreement check, `scan_metrics`. Arrays cross as
 * `byte[]` (py4j copies those natively): hashes as little-endian 64-bit values,
 * check answers as one byte per hash.
 */
object PythonBridge {

  def kernelName: String = SbbfKernels.get().name
  def kernelReason: String = SbbfKernels.reason()

  private[bloomparquet] def longs(bytes: Array[Byte]): Array[Long] = {
    val out = new Array[Long](bytes.length / 8)
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(out)
    out
  }

  /** One byte (0/1) per hash: may `bitset` contain it, asked through this JVM's kernel. */
  def checkHashes(bitset: Array[Byte], hashes: Array[Byte]): Array[Byte] =
    SplitBlockBloomFilter.fromBytes(bitset).checkHashes(longs(hashes)).map(b => if (b) 1.toByte else 0.toByte)

  /** Every readable bloom filter bitset of a file, keyed "rowGroup/dotted.column.path"; broken ones as "!reason". */
  def readFilters(path: String): java.util.Map[String, Array[Byte]] = {
    val file = HadoopInputFile.fromPath(new Path(path), new Configuration())
    val out = new java.util.LinkedHashMap[String, Array[Byte]]()
    Using.resources(ParquetFileReader.open(file), file.newStream()) { (reader, in) =>
      reader.getFooter.getBlocks.asScala.zipWithIndex.foreach { case (block, rg) =>
        block.getColumns.asScala.foreach { chunk =>
          val key = s"$rg/${chunk.getPath.toDotString}"
          BloomFilterReader.read(in, file.getLength, chunk) match {
            case FilterFound.Loaded(filter, _) => out.put(key, filter.toBytes)
            case FilterFound.Broken(reason, _, _) => out.put(key, ("!" + reason).getBytes("UTF-8"))
            case FilterFound.Absent =>
          }
        }
      }
    }
    out
  }

  // The CLI tools on Hadoop paths (`--spark`, or a path with a scheme): list, size, ranged read,
  // with the active session's Hadoop configuration.
  private def hadoopConf: Configuration = SparkCompat.newHadoopConf(SparkSession.active)

  /** The data files under a file, directory or glob, as the retrofit and the SQL functions list them. */
  def listDataFiles(path: String): java.util.List[String] = DataFiles.paths(path, hadoopConf).asJava

  def fileLength(path: String): Long = {
    val p = new Path(path)
    p.getFileSystem(hadoopConf).getFileStatus(p).getLen
  }

  /** `length` bytes at `offset` (fewer only at the end of the file). */
  def readRange(path: String, offset: Long, length: Int): Array[Byte] = {
    val p = new Path(path)
    Using.resource(p.getFileSystem(hadoopConf).open(p)) { in =>
      val buf = new Array[Byte](length)
      var n = 0
      var r = 0
      while (n < length && { r = in.read(offset + n, buf, n, length - n); r > 0 }) n += r
      if (n == length) buf else java.util.Arrays.copyOf(buf, n)
    }
  }

  /**
   * Metrics of the file scans in `df`'s executed plan and its subqueries (run
   * the query first), summed over scans, each scan once: our bloom metrics, Spark's own scan metrics, and
   * "tasks", the number of input partitions the scans planned. Pruning done in
   * a stage adaptive execution then dropped from the plan (a join side that read
   * nothing) counts in the bloom metrics; Spark's own stay the final plan's, as
   * for any reader compared with ours.
   */
  def scanMetrics(df: Dataset[_]): java.util.Map[String, java.lang.Long] = {
    val out = new java.util.TreeMap[String, java.lang.Long]()
    def add(name: String, v: Long): Unit = out.merge(name, v, (a, b) => a + b)
    // A V1 index bloomparquet pruned (Delta reads) holds the counters a V2 scan reports as metrics.
    def all(scan: ExecutedScans.ScanFigures): Seq[(String, Long)] = scan.metrics.toSeq ++ scan.fileIndex.toSeq.flatMap {
      case p: PrunedFileIndex => p.pruningCounts.byName.toSeq
      case _ => Nil
    }
    val scans = ExecutedScans.of(df)
    scans.foreach { scan =>
      all(scan).foreach { case (name, value) => add(name, value) }
      add("tasks", scan.partitions)
    }
    add("scans", scans.size.toLong)
    ExecutedScans.droppedByAdaptive(df).flatMap(all).foreach { case (name, value) =>
      if (name.startsWith("bloom")) add(name, value)
    }
    out
  }
}
