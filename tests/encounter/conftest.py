"""What the encounter tests share (as fixtures, the suite imports tests by path):

- ``sheet(game, name, Ag=44)``: a demo roster's sheet by name, edited (``Ag`` sets Agility).
- ``refused(fight, command, match)``: the command raises RulesError matching ``match`` and the
  fight is exactly as it was (same state object, same log).
- ``demo_sheets``: the demo rosters' sheets per game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.errors import RulesError
from gmkit.sheets.base import Sheet

SheetFactory = Callable[..., Sheet]
Refused = Callable[..., Exception]


@pytest.fixture(scope="session")
def demo_sheets() -> dict[str, tuple[Sheet, ...]]:
    return {roster.game: tuple(roster.sheets) for roster in demo_campaign().rosters}


@pytest.fixture(scope="session")
def sheet(demo_sheets: dict[str, tuple[Sheet, ...]]) -> SheetFactory:
    def make(game: str, name: str, **changes: Any) -> Sheet:
        found = next(s for s in demo_sheets[game] if s.name == name)
        if "Ag" in changes:
            profile = found.characteristics  # type: ignore[attr-defined]
            changes["characteristics"] = profile.model_copy(update={"Ag": changes.pop("Ag")})
        return found.edit(**changes) if changes else found

    return make


def check_refused(
    fight: Encounter, command: Callable[[], object], match: str, *, error: type = RulesError
) -> Exception:
    state, events, effective = fight.state, fight.events, fight.effective_events
    with pytest.raises(error, match=match) as caught:
        command()
    assert fight.state is state
    assert fight.state == state
    assert fight.events == events
    assert fight.effective_events == effective
    return caught.value


@pytest.fixture(scope="session")
def refused() -> Refused:
    return check_refused
