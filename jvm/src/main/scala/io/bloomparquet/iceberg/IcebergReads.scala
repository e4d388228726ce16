package io.bloomparquet.iceberg

import io.bloomparquet.integration.OptInReads
import io.bloomparquet.options.OptionRegistry.IcebergEnabled

/** The session extension's rule for Apache Iceberg reads (`spark.bloomparquet.iceberg.enabled`): the [[IcebergIntegration]]'s. */
object IcebergReads extends OptInReads(IcebergEnabled, optOut => IcebergIntegration.load(optOut).map(i => i.pruning _))
