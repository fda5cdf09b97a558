"""What the widget tests share (the copies in older modules move here as they are touched;
what tests/ as a whole shares, ``english``, ``demo_file`` and ``demo_copy``, is
tests/conftest.py's):

- ``made``: a list the test puts the trackers it makes in, each closed after the test.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gmkit.widgets._tracker import InitiativeTracker


@pytest.fixture
def made() -> Iterator[list[InitiativeTracker]]:
    trackers: list[InitiativeTracker] = []
    yield trackers
    for tracker in trackers:
        tracker.close()
