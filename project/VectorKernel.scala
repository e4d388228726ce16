import sbt._
import sbt.Keys._
import sbtassembly.AssemblyPlugin.autoImport._

/**
 * The Vector API kernel (`kernel/VectorSbbfKernel.java`, the one source that needs JDK 17 and
 * `jdk.incubator.vector`). A JDK 17 jar (Spark 4) compiles it with the rest. A Java 8 jar (Spark 3.5)
 * compiles everything else for Java 8 and this class for 17 into the multi-release section
 * `META-INF/versions/17/` (manifest `Multi-Release: true`): JDK 17+ loads it from there, JDK 8 and 11
 * never see it, and `SbbfKernels` (loading it by name) falls back to the scalar kernel.
 */
object VectorKernel {
  val source = "VectorSbbfKernel.java"
  private val vectorModule = Seq("--add-modules", "jdk.incubator.vector")

  def settings(m: SparkMinor): Seq[Setting[_]] =
    if (m.javaRelease >= 17)
      Seq(javacOptions ++= vectorModule, Compile / doc / javacOptions := vectorModule)
    else
      Seq(
        Compile / unmanagedSources / excludeFilter := HiddenFileFilter || source,
        Compile / resourceGenerators += Def.task {
          val classes = (Compile / classDirectory).value
          val cp = (Compile / dependencyClasspath).value.map(_.data) :+ classes
          val sources = (Compile / unmanagedSourceDirectories).value.flatMap(d => (d ** source).get)
          val out = (Compile / resourceManaged).value / "META-INF" / "versions" / "17"
          (Compile / compile).value // the kernel interface it implements
          IO.delete(out)
          IO.createDirectory(out)
          val javac = javax.tools.ToolProvider.getSystemJavaCompiler
          val args = Seq("--release", "17") ++ vectorModule ++ Seq("-nowarn", "-Xlint:-options",
            "-cp", cp.mkString(java.io.File.pathSeparator), "-d", out.getPath) ++ sources.map(_.getPath)
          val rc = javac.run(null, null, null, args: _*)
          if (rc != 0) SparkMinors.fail(s"javac of $source for the multi-release section failed ($rc)")
          (out ** "*.class").get
        }.taskValue,
        Compile / packageBin / packageOptions += Package.ManifestAttributes("Multi-Release" -> "true"),
        assembly / packageOptions += Package.ManifestAttributes("Multi-Release" -> "true")
      )
}
