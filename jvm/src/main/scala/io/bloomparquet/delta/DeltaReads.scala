package io.bloomparquet.delta

import io.bloomparquet.integration.OptInReads
import io.bloomparquet.options.OptionRegistry.DeltaEnabled

/** The session extension's rule for Delta Lake reads (`spark.bloomparquet.delta.enabled`): the [[DeltaIntegration]]'s. */
object DeltaReads extends OptInReads(DeltaEnabled, optOut => DeltaIntegration.load(optOut).map(i => i.pruning _))
