package io.bloomparquet.delta.impl

import io.bloomparquet.delta.DeltaTableFacts
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.connector.catalog.Table
import org.apache.spark.sql.delta.NoMapping
import org.apache.spark.sql.delta.catalog.DeltaTableV2
import org.apache.spark.sql.functions.{col, get_json_object, sum}

/**
 * A Delta table's [[DeltaTableFacts]] from its latest snapshot: the schema with column mapping's
 * metadata (the catalog's schema drops it), and bytes per row from the files' sizes and the row
 * counts in their statistics (one aggregate over the snapshot's file list).
 */
final class DeltaTableFactsOf(spark: SparkSession) extends (Table => DeltaTableFacts) {
  override def apply(table: Table): DeltaTableFacts = table match {
    case t: DeltaTableV2 =>
      val snapshot = t.deltaLog.update()
      val metadata = snapshot.metadata
      val sizes = snapshot.allFiles
        .where(col("stats").isNotNull)
        .select(col("size"), get_json_object(col("stats"), "$.numRecords").cast("long").as("rows"))
        .agg(sum(col("size")), sum(col("rows")))
        .head()
      val rows = if (sizes.isNullAt(1)) 0L else sizes.getLong(1)
      val bytesPerRow = if (rows <= 0) None else Some(sizes.getLong(0).toDouble / rows)
      DeltaTableFacts(metadata.schema, metadata.columnMappingMode != NoMapping, bytesPerRow)
    case other =>
      throw new IllegalArgumentException(s"bloomparquet: ${other.name} is not a Delta table as Delta's catalog gives it")
  }
}
