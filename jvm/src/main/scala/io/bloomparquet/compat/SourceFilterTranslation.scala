// In Spark's sql package: translating a Catalyst filter to a source filter is protected[sql].
package org.apache.spark.sql.bloomparquet

import org.apache.spark.sql.catalyst.expressions.Expression
import org.apache.spark.sql.execution.datasources.DataSourceStrategy
import org.apache.spark.sql.sources.Filter

/** A Catalyst data filter as the source filter a file scan builder hands its format (nested columns too). */
object SourceFilterTranslation {
  def of(e: Expression): Option[Filter] = DataSourceStrategy.translateFilter(e, supportNestedPredicatePushdown = true)
}
