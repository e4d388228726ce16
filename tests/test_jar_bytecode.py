"""The built jars' bytecode: a Spark 3.x jar runs on JDK 8 (every class Java 8, major 52, but the
Vector API kernel, which sits in the multi-release section ``META-INF/versions/17`` for JDK 17+); a
Spark 4 jar's own classes are Java 17 (61). And the kernel a JVM picks from the Java 8 jar: the
vector kernel only where ``jdk.incubator.vector`` is loaded (read from the multi-release section),
the scalar kernel otherwise or when forced. This machine has no JDK 8 or 11: the class versions
are what a JDK 8 checks before it loads a class."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zipfile
from pathlib import Path

import pytest

from bloomparquet import _jar

JAVA8, JAVA17 = 52, 61
VECTOR_KERNEL = "io/bloomparquet/kernel/VectorSbbfKernel.class"
MULTI_RELEASE_17 = "META-INF/versions/17/"
PROBE = Path(__file__).parent / "jvm_probe" / "KernelChoice.java"


def _built_jars() -> dict[str, Path]:
    jars = {minor: jar for minor, jar in _jar._checkout_jars().items() if jar.is_file()}
    missing = sorted(set(_jar._checkout_jars()) - set(jars))
    if missing and os.environ.get("CI"):
        pytest.fail(
            f"jars not built for Spark {', '.join(missing)}: bin/test builds every minor's (bin/setup --all-sparks)"
        )
    return jars


def _java8_jars() -> list[Path]:
    return [jar for minor, jar in _built_jars().items() if int(minor.split(".")[0]) < 4]


def _class_versions(jar: Path) -> dict[str, int]:
    with zipfile.ZipFile(jar) as z:
        return {n: struct.unpack(">H", z.read(n)[6:8])[0] for n in z.namelist() if n.endswith(".class")}


@pytest.mark.parametrize("minor", sorted(_jar._checkout_jars()))
def test_class_versions(minor: str) -> None:
    jar = _built_jars().get(minor)
    if jar is None:
        pytest.skip(f"no jar built for Spark {minor} (bin/setup --all-sparks)")
    versions = _class_versions(jar)
    ours = {n: v for n, v in versions.items() if n.startswith("io/bloomparquet/") and "/shaded/" not in n}
    assert ours
    if int(minor.split(".")[0]) < 4:
        base = {n: v for n, v in versions.items() if not n.startswith("META-INF/")}
        assert {n: v for n, v in base.items() if v != JAVA8} == {}
        assert VECTOR_KERNEL not in base
        assert {n: v for n, v in versions.items() if n.startswith(MULTI_RELEASE_17)} == {
            MULTI_RELEASE_17 + VECTOR_KERNEL: JAVA17
        }
        with zipfile.ZipFile(jar) as z:
            assert "Multi-Release: true" in z.read("META-INF/MANIFEST.MF").decode()
    else:
        assert set(ours.values()) == {JAVA17}
        assert max(versions.values()) <= JAVA17


def _kernel_choice(jar: Path, *jvm_args: str) -> tuple[str, str]:
    java = shutil.which("java", path=str(Path(os.environ["JAVA_HOME"]) / "bin")) if "JAVA_HOME" in os.environ else None
    out = subprocess.run(
        [java or "java", "-cp", str(jar), *jvm_args, str(PROBE)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.splitlines()
    return out[0], out[1]


@pytest.fixture(scope="module")
def java8_jar() -> Path:
    jars = _java8_jars()
    if not jars:
        pytest.skip("no Spark 3.x jar built (bin/setup --all-sparks)")
    return jars[0]


def test_java8_jar_without_the_vector_module_uses_the_scalar_kernel(java8_jar: Path) -> None:
    name, reason = _kernel_choice(java8_jar)
    assert name == "scalar"
    assert "jdk.incubator.vector not loaded" in reason


def test_java8_jar_forced_scalar(java8_jar: Path) -> None:
    assert _kernel_choice(java8_jar, "--add-modules=jdk.incubator.vector", "-Dbloomparquet.kernel=scalar") == (
        "scalar",
        "-Dbloomparquet.kernel=scalar",
    )


def test_java8_jar_loads_the_vector_kernel_from_its_multi_release_section(java8_jar: Path) -> None:
    name, reason = _kernel_choice(java8_jar, "--add-modules=jdk.incubator.vector")
    # Where the CPU has no 256-bit lanes the kernel refuses itself, but only after its class loaded.
    assert name == "vector" or not any(e in reason for e in ("ClassNotFound", "NoClassDefFound", "not loaded")), reason
