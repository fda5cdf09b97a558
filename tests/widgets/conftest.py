"""What the widget tests share (the copies in older modules move here as they are touched;
``english``, shared with tests/ as a whole, is tests/conftest.py's):

- ``demo_file``: the demo campaign file, written once for the session (copy it to change it);
- ``demo_copy``: a copy of it of the test's own.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gmkit.campaign import demo_campaign_file


@pytest.fixture(scope="session")
def demo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo_campaign_file(tmp_path_factory.mktemp("demo"))


@pytest.fixture
def demo_copy(demo_file: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "campaign.gmk"
    shutil.copyfile(demo_file, copy)
    return copy
