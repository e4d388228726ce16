package io.bloomparquet.planning

import io.bloomparquet.pruning.{BloomPredicate, ProbePayoff}

/**
 * One scan's running answer to "can probing filters still pay off?", shared by
 * the threads planning its files. Files report the row groups they probed; once
 * [[ProbePayoff.cannotPayOff]] says so, files that have not read their filters
 * yet read none (files already reading finish as they are). Only ever stops:
 * it never resumes within the scan.
 */
final class ProbeGate private (val tracking: Boolean) {
  private var tally = ProbePayoff.Tally()
  @volatile private var stop = false

  /** The rest of this scan reads and probes no filters (but a file whose footer proves they pay off). */
  def stopped: Boolean = stop

  def observe(t: ProbePayoff.Tally): Unit =
    if (tracking && !stop && t.rowGroups > 0) synchronized {
      tally = tally + t
      if (ProbePayoff.cannotPayOff(tally)) stop = true
    }
}

object ProbeGate {
  /** A gate for a scan with `predicate`; `enabled` false (`bloom.earlyStop`): never stops. */
  def apply(predicate: BloomPredicate, enabled: Boolean): ProbeGate =
    new ProbeGate(enabled && ProbePayoff.worthTracking(predicate))

  val Off: ProbeGate = new ProbeGate(false)
}
