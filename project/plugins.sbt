// JMH benchmarks for the `bench` subproject (jvm-bench/); see bench/jmh.sh.
addSbtPlugin("pl.project13.scala" % "sbt-jmh" % "0.4.8")
