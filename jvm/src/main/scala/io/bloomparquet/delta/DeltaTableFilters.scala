package io.bloomparquet.delta

import java.util.Locale

import scala.jdk.CollectionConverters._

import io.bloomparquet.compat.CatalystPlans.{PropertiesSet, PropertiesSetting, PropertiesUnset}
import io.bloomparquet.compat.{ParquetFilterShims, SparkCompat}
import io.bloomparquet.options.{OptionRegistry, OptionSpec, OptionValidator, Scope}
import io.bloomparquet.schema.ColumnName
import io.bloomparquet.write.{BloomWriteOptions, ParquetJavaFilters}
import io.bloomparquet.write.ParquetJavaFilters.FilterColumn
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.connector.catalog.Table
import org.apache.spark.sql.types.StructType

/**
 * What the table-property rule needs to know of an existing Delta table, from its snapshot
 * ([[DeltaIntegration.tableFacts]]): the schema with column mapping's metadata, whether files name
 * columns by their physical names, and bytes per row from the files' sizes and statistics.
 */
final case class DeltaTableFacts(schema: StructType, mapped: Boolean, bytesPerRow: Option[Double])

/**
 * Bloom filters for every writer of a Delta Lake table: the table properties `bloom.columns`,
 * `bloom.fpp`, `bloom.fpp.<column>` and `bloom.ndv.<column>` (the keys our writer takes as
 * options) become, as they are set, parquet-java's Hadoop settings for the columns' physical
 * names ([[ParquetJavaFilters]]), stored beside them. Delta hands a table's properties to
 * parquet-java's writer as Hadoop settings in every write (`df.write`, INSERT, MERGE, UPDATE,
 * DELETE rewrites, OPTIMIZE), so every file written from then on carries the filters.
 *
 * On `ALTER TABLE ... SET TBLPROPERTIES` the columns are resolved against the table's schema (physical
 * names under column mapping, kept across renames); on `CREATE` / `REPLACE TABLE` against the
 * schema given, which only a table without column mapping can do (its physical names are chosen
 * as it is created). Columns no longer named are turned off; `UNSET TBLPROPERTIES ('bloom.columns')`
 * removes every setting. Bad values fail the command, naming the property.
 */
final case class DeltaTableFilters(spark: SparkSession) extends Rule[LogicalPlan] {
  import DeltaTableFilters._

  override def apply(plan: LogicalPlan): LogicalPlan = plan match {
    case PropertiesSet(PropertiesSetting(table, provider, schema, props, withProperties))
        if props.keys.exists(isOption) && provider.exists(_.equalsIgnoreCase("delta")) =>
      val current = table.map(currentProperties(_)).getOrElse(Map.empty[String, String])
      val options = (current.filter(kv => isOption(kv._1)) ++ props.filter(kv => isOption(kv._1)))
      val facts = table match {
        case Some(t) => factsOf(t)
        case None if mappingMode(props).orElse(spark.conf.getOption(DefaultMappingMode)).exists(!_.equalsIgnoreCase("none")) =>
          fail("set bloom.columns with ALTER TABLE ... SET TBLPROPERTIES once the table exists: under column " +
            "mapping its columns' physical names are chosen as it is created")
        case None => DeltaTableFacts(schema.getOrElse(new StructType()), mapped = false, None)
      }
      val settings = derive(options, facts, current, props)
      withProperties(props.filterNot(kv => ParquetJavaFilters.isSetting(kv._1)) ++ settings)
    case PropertiesUnset(table, keys, withKeys)
        if keys.exists(isOption) && isDelta(table) =>
      if (!keys.exists(_.equalsIgnoreCase(OptionRegistry.Columns.key)))
        fail(s"to change ${keys.filter(isOption).mkString(", ")}, set the new value with SET TBLPROPERTIES " +
          s"(unsetting it alone would leave the filters' settings as they are); unset ${OptionRegistry.Columns.key} " +
          "to stop writing filters")
      val current = currentProperties(table)
      withKeys((keys ++ current.keys.filter(k => isOption(k) || ParquetJavaFilters.isSetting(k))).distinct)
    case _ => plan
  }

  /** parquet-java's settings for `options` (validated), turning off the columns `current` settings wrote. */
  private def derive(options: Map[String, String], facts: DeltaTableFacts, current: Map[String, String],
      setNow: Map[String, String]): Map[String, String] = {
    val valid = OptionValidator.validate(options, Seq(Scope.DeltaTable))
    val names = valid.find(OptionRegistry.Columns).getOrElse(fail(s"${OptionRegistry.Columns.key} names no column"))
    val fpp = valid.get(OptionRegistry.Fpp)
    def perColumn[T](spec: OptionSpec[T], name: String): Option[T] =
      valid.perColumn(spec).collectFirst { case (_, column, v) if column.equalsIgnoreCase(name) => v }
    val caseSensitive = SparkCompat.caseSensitive(spark)
    val physical = new PhysicalColumns(facts.schema, facts.mapped, byId = false, caseSensitive)
    val columns = names.map { name =>
      val parts = ColumnName.parts(name)
      val (path, dataType) = physical.leaf(parts).getOrElse(fail(s"${OptionRegistry.Columns.key}: unknown column " +
          s"'$name'; the table's columns are ${facts.schema.fieldNames.mkString(", ")}"))
      // As Spark's writer, which Delta's is, stores it (INT96 timestamps have no filter).
      BloomWriteOptions.checkType(name, dataType, SparkCompat.parquetOutputTimestampType(spark))
      FilterColumn(path, perColumn(OptionRegistry.ColumnFpp, name).getOrElse(fpp), perColumn(OptionRegistry.ColumnNdv, name))
    }
    val blockSize = (current ++ setNow).get(ParquetBlockSize).orElse(Option(SparkCompat.newHadoopConf(spark).get(ParquetBlockSize)))
      .map(_.toLong).getOrElse(DefaultBlockSize)
    val wrote = current.keys.flatMap(ParquetJavaFilters.enabledColumn).toSeq
    ParquetJavaFilters(columns, wrote, rowsPerRowGroup(facts, blockSize), ParquetFilterShims.adaptiveFilters)
  }

  /**
   * The most rows a row group may hold, which sizes the largest adaptive candidate: a row group's bytes
   * at the files' bytes per row (a bound OPTIMIZE's large files also keep), or [[RowsWithoutStatistics]]
   * where the table has none yet. Too small, and a row group with more distinct values fills its filter
   * beyond the FPP asked for (never a wrong row; setting the properties again estimates afresh); too
   * large, and each value goes into more candidates while files are written.
   */
  private def rowsPerRowGroup(facts: DeltaTableFacts, blockSize: Long): Long =
    facts.bytesPerRow.filter(_ > 0).map(b => math.max(1L, math.ceil(blockSize / b).toLong)).getOrElse {
      // Without adaptive filters (parquet-java 1.13) every file's filter has this size: a smaller guess.
      if (ParquetFilterShims.adaptiveFilters) RowsWithoutStatistics else FixedRowsWithoutStatistics
    }

  private def factsOf(table: Table): DeltaTableFacts =
    DeltaIntegration.load(s"remove the ${OptionRegistry.Columns.key} table property")
      .fold(why => fail(why), _.tableFacts(spark, table))
}

object DeltaTableFilters {
  private val ParquetBlockSize = "parquet.block.size"
  private val DefaultBlockSize = 128L << 20
  /** Rows of a row group where the table has no statistics yet: 128 MiB of 32-byte rows. */
  private val RowsWithoutStatistics = 4L << 20
  private val FixedRowsWithoutStatistics = 1L << 20

  /** A `bloom.*` key: an option of ours (an unknown one fails, naming the closest). */
  private def isOption(key: String): Boolean = key.toLowerCase(Locale.ROOT).startsWith("bloom.")

  private def isDelta(table: Table): Boolean =
    Option(table.properties.get("provider")).exists(_.equalsIgnoreCase("delta"))

  private def currentProperties(table: Table): Map[String, String] = table.properties.asScala.toMap

  private val DefaultMappingMode = "spark.databricks.delta.properties.defaults.columnMapping.mode"

  private def mappingMode(props: Map[String, String]): Option[String] =
    props.collectFirst { case (k, v) if k.equalsIgnoreCase("delta.columnMapping.mode") => v }

  private def fail(why: String): Nothing = OptionSpec.fail(s"bloom filters on a Delta table: $why")
}
