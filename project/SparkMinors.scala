import sbt._
import sbt.Keys._
import sbtassembly.AssemblyPlugin.autoImport._

/** One supported Spark minor as project/spark-versions.properties pins it. */
final case class SparkMinor(minor: String, spark: String, scala: String, maven: Option[String], delta: Option[String],
    iceberg: Option[String]) {

  /** The sbt project building this minor's jar: `spark40`, `spark35`... (the default minor's is `jvm`). */
  def projectId: String = "spark" + minor.replace(".", "")

  /** `Seq(4, 0)`: minors order by number, not by text. */
  def number: Seq[Int] = SparkMinors.number(minor)

  /** The Spark release the jar compiles against: Maven's where it serves this minor, else the pinned pyspark. */
  def compiledAgainst: String = maven.getOrElse(spark)

  /** The oldest JDK this Spark runs on, so the bytecode our jar targets: 8 for Spark 3, 17 for Spark 4. */
  def javaRelease: Int = if (number.head < 4) 8 else 17

  /** Delta Lake's artifact for this minor, if it has a release: one per Spark 4 minor, one for Scala 2.12 before. */
  private def deltaArtifact: String =
    if (number.head < 4) s"delta-spark_${SparkMinors.binary(scala)}" else s"delta-spark_${minor}_${SparkMinors.binary(scala)}"

  /** The Maven coordinate of the Delta Lake release the jar is built against (`spark.jars.packages`). */
  def deltaPackage: Option[String] = delta.map(v => s"io.delta:$deltaArtifact:$v")

  /** The Maven coordinate of the Iceberg Spark runtime the jar is built against (`spark.jars.packages`). */
  def icebergPackage: Option[String] =
    iceberg.map(v => s"org.apache.iceberg:iceberg-spark-runtime-${minor}_${SparkMinors.binary(scala)}:$v")

  /** The table formats with a release for this minor, each an integration of its own in the minor's jar. */
  def formats: Seq[TableFormatLibrary] =
    deltaPackage.map(p =>
      TableFormatLibrary("delta", p,
        // Its classes only: Spark is already provided, and Delta's own dependencies (its kernel) are not compiled against.
        Seq(moduleOf(p).intransitive(), "io.delta" % "delta-storage" % delta.get % Provided))).toSeq ++
      icebergPackage.map(p => TableFormatLibrary("iceberg", p, Seq(moduleOf(p).intransitive()))).toSeq

  private def moduleOf(coordinate: String): ModuleID = coordinate.split(':') match {
    case Array(group, artifact, version) => group % artifact % version % Provided
  }
}

/**
 * A table format's library a minor's integration of it compiles against: `name` (`delta`, `iceberg`) names its
 * sbt project, source folders (jvm/src/main/scala-<name>, resources-<name>) and the resource holding `coordinate`.
 */
final case class TableFormatLibrary(name: String, coordinate: String, modules: Seq[ModuleID])

/** The supported Spark minors, parsed once from project/spark-versions.properties (no Python, no venv),
  * and what a minor's jar is built with: its Scala, its shim folders, its Spark (Maven's or its pinned pyspark's).
  */
object SparkMinors {
  val propertiesFile: File = file("project") / "spark-versions.properties"

  private val MinorKey = """(\d+\.\d+)""".r

  /** A build error shown as its message alone (no stack trace). */
  def fail(message: String): Nothing = throw new sbt.internal.util.MessageOnlyException(message)

  private lazy val properties: Map[String, String] = {
    val props = new java.util.Properties()
    IO.load(props, propertiesFile)
    props.stringPropertyNames.toArray(Array.empty[String]).map(k => k -> props.getProperty(k).trim).toMap
  }

  def number(minor: String): Seq[Int] = minor.split('.').toSeq.map(_.toInt)

  private val byNumber: Ordering[Seq[Int]] = Ordering.Implicits.seqDerivedOrdering[Seq, Int]

  /** Every supported minor, oldest first. */
  lazy val all: Seq[SparkMinor] = properties.keys.toSeq
    .collect { case MinorKey(m) => m }
    .sortBy(number)(byNumber)
    .map { m =>
      val scala = properties.getOrElse(s"scala.$m", fail(s"$propertiesFile: no scala.$m (the Scala Spark $m is built with)"))
      val maven = properties.get(s"maven.$m")
      if (maven.exists(v => !v.startsWith(m + ".")))
        fail(s"$propertiesFile: maven.$m=${maven.get} is not a Spark $m release")
      SparkMinor(m, properties(m), scala, maven, properties.get(s"delta.$m"), properties.get(s"iceberg.$m"))
    }

  /** The development environment's minor (.venv): the `jvm` project, tests and benchmarks run on it. */
  lazy val default: SparkMinor = {
    val d = properties.getOrElse("default", fail(s"$propertiesFile: no default"))
    all.find(_.minor == d).getOrElse(fail(s"$propertiesFile: default=$d is not one of the minors ${all.map(_.minor).mkString(", ")}"))
  }

  lazy val others: Seq[SparkMinor] = all.filterNot(_ == default)

  /** The packaged jar of a minor, relative to the build root: the wheel takes each from here (setup.py). */
  def jarPath(root: File, m: SparkMinor): File =
    if (m == default) root / "jvm" / "target" / "bloomparquet.jar" else root / "jvm" / "target" / s"spark-${m.minor}" / "bloomparquet.jar"

  // A shim folder holds what differs between minors; its name says which minors it serves:
  // jvm/src/main/scala-spark-<minor> or scala-spark-<first>-<last> (inclusive).
  private val ShimFolder = """scala-spark-(\d+\.\d+)(?:-(\d+\.\d+))?""".r

  /** The shim folders whose range holds minor `m`; at least one, or the build names the missing range. */
  def shimFolders(mainSources: File, m: SparkMinor): Seq[File] = {
    val folders = Option(mainSources.listFiles).toSeq.flatten.filter(_.isDirectory)
    val matching = folders.filter { f =>
      f.getName match {
        case ShimFolder(first, last) =>
          byNumber.lteq(number(first), m.number) && byNumber.lteq(m.number, number(Option(last).getOrElse(first)))
        case _ => false
      }
    }
    if (matching.isEmpty)
      fail(s"no shim folder for Spark ${m.minor} in $mainSources: name one scala-spark-<first>-<last> with a range holding ${m.minor}")
    matching.sortBy(_.getName)
  }

  /** The venv bin/setup installs a minor's pinned pyspark into. */
  def venv(root: File, m: SparkMinor): File = if (m == default) root / ".venv" else root / ".venvs" / s"spark-${m.minor}"

  /** A minor's Spark jars: its pinned pyspark's `jars/` folder ($SPARK_JARS_DIR for the default minor, else
    * found in its venv without running Python). Checked to hold that Spark and the Scala the properties name.
    */
  def pysparkJars(root: File, m: SparkMinor): File = {
    val setup = if (m == default) "bin/setup" else "bin/setup --all-sparks"
    val fromEnv = if (m == default) sys.env.get("SPARK_JARS_DIR").map(file) else None
    val dir = fromEnv.getOrElse {
      val found = (venv(root, m) / "lib" * "python3*" / "site-packages" / "pyspark" / "jars").get
      found.headOption.getOrElse(
        fail(s"no pyspark in ${venv(root, m)} (Spark ${m.minor}'s jars come from pyspark==${m.spark}): run $setup"))
    }
    val sparkSql = dir / s"spark-sql_${binary(m.scala)}-${m.spark}.jar"
    if (!sparkSql.exists) fail(s"$sparkSql not found: $dir does not hold pyspark==${m.spark}; run $setup")
    val scalaLibrary = dir / s"scala-library-${m.scala}.jar"
    if (!scalaLibrary.exists) {
      val shipped = (dir * "scala-library-*.jar").get.map(_.getName).mkString(", ")
      fail(s"$propertiesFile says scala.${m.minor}=${m.scala}, but pyspark==${m.spark} ships $shipped")
    }
    dir
  }

  /** `2.13` for `2.13.16`. */
  def binary(scalaVersion: String): String = scalaVersion.split('.').take(2).mkString(".")

  /** What every minor's jar is built with. Spark (and parquet-java, Hadoop) are provided by the runtime:
    * compiled against that minor's Spark from Maven (`provided`) or its pinned pyspark's jars, never packaged.
    */
  def settings(m: SparkMinor): Seq[Setting[_]] = Seq(
    name := "bloomparquet",
    // The coming per-minor Maven artifact: bloomparquet-spark-<minor>_<scala binary>.
    moduleName := s"bloomparquet-spark-${m.minor}",
    Compile / unmanagedSourceDirectories ++= shimFolders((LocalRootProject / baseDirectory).value / "jvm" / "src" / "main", m),
    // Each table format's coordinate, for tools that start a session with it (bloomparquet.delta_package()).
    // Written only when its text changes: a rewritten resource would package every jar anew on each build.
    Compile / resourceGenerators += Def.task {
      val dir = (Compile / resourceManaged).value / "io" / "bloomparquet"
      Seq("delta" -> m.deltaPackage, "iceberg" -> m.icebergPackage).flatMap { case (format, coordinate) =>
        val out = dir / s"$format-package.txt"
        coordinate match {
          case Some(p) => if (!out.isFile || IO.read(out) != p + "\n") IO.write(out, p + "\n")
          case None => if (out.exists) IO.delete(out)
        }
        coordinate.map(_ => out)
      }
    }.taskValue,
    // The licence and notice, in every jar (the shading merge keeps this folder of META-INF).
    Compile / resourceGenerators += Def.task {
      val root = (LocalRootProject / baseDirectory).value
      Seq("LICENSE", "NOTICE").map { name =>
        val out = (Compile / resourceManaged).value / "META-INF" / "bloomparquet" / name
        val text = IO.read(root / name)
        if (!out.isFile || IO.read(out) != text) IO.write(out, text)
        out
      }
    }.taskValue
  ) ++ withFormatIntegrations(m) ++ compiledAgainstSpark(m) ++ VectorKernel.settings(m) ++ Shading.settings(m) ++ MavenArtifacts.settings(m)

  /** The Spark a minor's classes compile against, and how: its Scala, its bytecode release, the same checks. */
  private def compiledAgainstSpark(m: SparkMinor): Seq[Setting[_]] = Seq(
    scalaVersion := m.scala,
    // Spark from Maven Central where it serves this minor; otherwise the pinned pyspark's jars.
    libraryDependencies ++= m.maven.map(v => "org.apache.spark" %% "spark-sql" % v % Provided).toSeq,
    Compile / unmanagedJars ++= {
      if (m.maven.isDefined) Nil else (pysparkJars((LocalRootProject / baseDirectory).value, m) ** "*.jar").classpath
    },
    compileOrder := CompileOrder.JavaThenScala,
    javacOptions ++= Seq("--release", m.javaRelease.toString, "-Xlint:all,-options"),
    scalacOptions ++= Seq("-release", m.javaRelease.toString, "-deprecation", "-feature", "-unchecked",
      "-Xlint:_,-missing-interpolator")
  )

  /** The table formats' integrations, where the minor has a release of the format, go into its jar: the loader that
    * holds the jar loads them, and the format's classes must be visible from there (integration.FormatIntegration).
    */
  private def withFormatIntegrations(m: SparkMinor): Seq[Setting[_]] = m.formats.map { f =>
    val project = LocalProject(formatProjectId(m, f))
    assembly / fullClasspath ++= (project / Compile / exportedProducts).value
  }

  /** The sbt project of a minor's integration of a table format: `delta40`, `iceberg41`... */
  def formatProjectId(m: SparkMinor, f: TableFormatLibrary): String = f.name + m.minor.replace(".", "")

  /** The project building a minor's core classes: `jvm` for the default minor, else its own. */
  def coreProject(m: SparkMinor): LocalProject = LocalProject(if (m == default) "jvm" else m.projectId)

  /** The minor whose API docs a minor publishes: the newest of the same Scala binary version. The public API is
    * the same sources for every minor; what differs between minors (shims) is internal.
    */
  def docsMinor(m: SparkMinor): SparkMinor = all.filter(o => binary(o.scala) == binary(m.scala)).last

  /** A minor's integration of a table format (package `io.bloomparquet.<format>.impl`): the only classes compiled
    * against that format's library, so the core cannot name its classes. They are packaged in the minor's jar.
    */
  def formatProject(m: SparkMinor, f: TableFormatLibrary): Project =
    Project(formatProjectId(m, f), file("jvm") / "target" / s"build-${f.name}-${m.minor}")
      .dependsOn(coreProject(m))
      .settings(compiledAgainstSpark(m))
      .settings(
        name := s"bloomparquet-${f.name}-${m.minor}",
        publish / skip := true,
        libraryDependencies ++= f.modules,
        Compile / unmanagedSourceDirectories := Seq((LocalRootProject / baseDirectory).value / "jvm" / "src" / "main" / s"scala-${f.name}"),
        Compile / unmanagedResourceDirectories :=
          Seq((LocalRootProject / baseDirectory).value / "jvm" / "src" / "main" / s"resources-${f.name}")
      )

  /** A non-default minor: the `jvm` project's main sources built for it (`bin/sbt spark40/package`) into
    * jvm/target/spark-<minor>/bloomparquet.jar. Its tests are the cross-version pytest suite.
    */
  def otherProject(m: SparkMinor): Project =
    Project(m.projectId, file("jvm") / "target" / s"build-spark-${m.minor}")
      .settings(settings(m))
      .settings(
        Compile / unmanagedSourceDirectories ++= Seq(
          (LocalRootProject / baseDirectory).value / "jvm" / "src" / "main" / "scala",
          (LocalRootProject / baseDirectory).value / "jvm" / "src" / "main" / "java"
        ),
        Compile / unmanagedResourceDirectories += (LocalRootProject / baseDirectory).value / "jvm" / "src" / "main" / "resources",
        Compile / packageBin / artifactPath := jarPath((LocalRootProject / baseDirectory).value, m)
      )

  /** `commands`, then `task` in each other minor's project (the only one holding its shim folders) and in one
    * integration of each table format (all of a format's build the same sources).
    */
  def withEveryOtherMinor(commands: Seq[String], task: String): String = {
    val perMinor = others.map(m => s"${m.projectId}/$task") ++
      formatProjects.groupBy(_._2.name).values.map(_.last).map { case (m, f) => s"${formatProjectId(m, f)}/$task" }
    (commands ++ perMinor).mkString("; ", "; ", "")
  }

  /** Every minor's table format integrations, oldest minor first. */
  def formatProjects: Seq[(SparkMinor, TableFormatLibrary)] = all.flatMap(m => m.formats.map(m -> _))

  /** `packageAllSparks`: every minor's jar (what the wheel holds), built in parallel. */
  def packageAllCommand: String = ("jvm/package" +: others.map(m => s"${m.projectId}/package")).mkString("all ", " ", "")

  /** `publishAllSparks`: every minor's Maven artifacts (bin/maven-repo). */
  def publishAllCommand: String = ("jvm/publish" +: others.map(m => s"${m.projectId}/publish")).mkString("; ", "; ", "")
}

/** Adds one sbt project per non-default minor of project/spark-versions.properties: a new minor there
  * is a new project, with nothing to add to build.sbt.
  */
object SparkMinorProjects extends AutoPlugin {
  override def extraProjects: Seq[Project] =
    SparkMinors.others.map(SparkMinors.otherProject) ++
      SparkMinors.formatProjects.map { case (m, f) => SparkMinors.formatProject(m, f) }
}
