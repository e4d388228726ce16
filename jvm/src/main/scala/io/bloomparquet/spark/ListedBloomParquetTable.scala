package io.bloomparquet.spark

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.execution.datasources.{FileFormat, PartitioningAwareFileIndex}
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap

/**
 * A [[BloomParquetTable]] over files Spark has already listed for a V1 relation (a
 * path's index, or a catalog table's partitions with their custom locations) and
 * the relation's schema, so the V2 scan reads exactly what the V1 scan would have.
 * `relationRoots` are the V1 relation's own root paths (its index before partitions were pruned).
 */
final class ListedBloomParquetTable(name: String, spark: SparkSession, options: CaseInsensitiveStringMap,
    index: PartitioningAwareFileIndex, relationSchema: StructType, fallback: Class[_ <: FileFormat],
    val relationRoots: Set[String])
    extends BloomParquetTable(name, spark, options, index.rootPaths.map(_.toString), Some(relationSchema), fallback) {

  override lazy val fileIndex: PartitioningAwareFileIndex = index
}
