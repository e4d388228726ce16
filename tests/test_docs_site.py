"""The documentation site builds (mkdocs.yml, ``mkdocs build --strict``): every page in its
navigation and none left out, every link between pages and to their headings resolving. Links to
other sites are not followed (the build machine reaches package registries only)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_site_builds_with_every_page_and_link(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(tmp_path)],
        capture_output=True, text=True, env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    pages = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
    for page in pages:
        built = tmp_path / ("index.html" if page == "index" else f"{page}/index.html")
        assert built.is_file(), f"docs/{page}.md was not built into the site"
    assert "WARNING" not in done.stderr, done.stderr
