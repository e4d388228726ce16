#!/usr/bin/env bash
# JMH kernel benchmarks (jvm-bench/) through sbt-jmh.
#
#   bench/jmh.sh                 quick profile, every benchmark (~15 min)
#   bench/jmh.sh --full          full profile: 2 forks, longer iterations (~1 h)
#   bench/jmh.sh [--full] REGEX  only benchmarks matching REGEX, e.g. 'ProbeBench.batch'
#
# Writes bench-out/jmh-<profile>.json (JMH JSON) and .log (incl. the
# "kernel choice:" lines), then bench-out/jmh-<profile>.csv, markdown tables
# on stdout and docs/img/probe_ns_vs_size.png via bench/plot_kernels.py.
# The machine is shared: compare implementations within one run (ratios).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

profile=quick
opts=(-f 1 -wi 2 -w 1s -i 4 -r 1s)
if [ "${1:-}" = "--full" ]; then
  profile=full
  opts=(-f 2 -wi 3 -w 2s -i 5 -r 2s)
  shift
fi
regex=${1:-}

mkdir -p bench-out
json="$root/bench-out/jmh-$profile.json"
log="$root/bench-out/jmh-$profile.log"
bin/setup
# JMH's generator runs in a JVM forked with default options and loads every
# benchmark class, some of which link against jdk.incubator.vector: generate
# with the module in the launcher's environment, then run without it (so the
# "without vector module" fork really lacks it).
JDK_JAVA_OPTIONS=--add-modules=jdk.incubator.vector bin/sbt bench/Jmh/compile
bin/sbt "bench/Jmh/run ${opts[*]} -rf json -rff $json $regex" 2>&1 | tee "$log"
grep -h "kernel choice:" "$log" | sort -u || true
.venv/bin/python bench/plot_kernels.py "$json"
