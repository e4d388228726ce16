package io.bloomparquet.compat

import org.apache.spark.sql.catalyst.CatalystTypeConverters

/** Values between Spark's external (Java/Scala) form and Catalyst's internal one. */
object CatalystValues {

  /** `value` (as a V1 `sources.Filter` holds it) in Catalyst's internal form; throws on a type Spark cannot convert. */
  def toCatalyst(value: Any): Any = CatalystTypeConverters.convertToCatalyst(value)
}
