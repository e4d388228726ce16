// JMH benchmarks for the `bench` subproject (jvm-bench/); see bench/jmh.sh.
addSbtPlugin("pl.project13.scala" % "sbt-jmh" % "0.4.8")
// Formatting (.scalafmt.conf): bin/test runs scalafmtCheckAll and scalafmtSbtCheck.
addSbtPlugin("org.scalameta" % "sbt-scalafmt" % "2.6.2")
