"""What the packaging tests share: an Ivy home of a module's own, for spark-submit's package resolution."""

from __future__ import annotations

from pathlib import Path

import pytest
from maven_release import REPO


@pytest.fixture(scope="module")
def ivy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty Ivy home for the module's spark-submit runs (the release's Maven repository must exist)."""
    if not REPO.is_dir():
        pytest.fail(f"{REPO} missing: bin/test makes it (or: bin/release {REPO.parent})")
    return tmp_path_factory.mktemp("ivy")
