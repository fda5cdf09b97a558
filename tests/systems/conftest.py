"""What the 40k rules tests share (test_imperial_*, test_dark_heresy*, test_deathwatch*), and
WFB 6e's ``gm_data`` (a GM's data folder, for test_wfb6_data and test_wfb6_options).

One armoury of weapons by name, three profiles, and builders of sheets from them, as fixtures
(the suite imports test files by path, so they cannot import each other; fixtures they can
ask for). A test says only what it changes: ``weapon("Lasgun", loaded=20)``,
``acolyte("Heretic", armour_points={"right_leg": 5})``, ``marine("Castor", chars={"T": 40})``.
A file with its own defaults overrides the fixture of the same name, asking for this one.

The numbers the tests assert come from these profiles: an acolyte has S 35 and T 35 (SB 3,
TB 3), a veteran 40 in WS, BS, S, T and Ag, a marine BS 47, S 45 and T 43 (SB 4, TB 4).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.sheets._dark_heresy import DarkHeresyCharacter, ImperialCharacter
from gmkit.sheets._deathwatch import DeathwatchCharacter
from gmkit.sheets.base import Sheet

PROFILES: dict[str, dict[str, int]] = {
    "acolyte": dict(WS=40, BS=40, S=35, T=35, Ag=30, Int=30, Per=30, WP=30, Fel=30),
    "veteran": dict(WS=40, BS=40, S=40, T=40, Ag=40, Int=30, Per=30, WP=30, Fel=30),
    "marine": dict(WS=44, BS=47, S=45, T=43, Ag=40, Int=38, Per=41, WP=42, Fel=35),
}
ARMOURY: dict[str, dict[str, Any]] = {
    "Lasgun": dict(weapon_class="basic", group="Las", range=100, rof="S/3/-", damage="1d10+3",
                   damage_type="E", clip=60, reload="Full"),
    "Laspistol": dict(weapon_class="pistol", group="Las", range=30, rof="S/2/-",
                      damage="1d10+2", damage_type="E", clip=30, reload="Half",
                      qualities=["Reliable"]),
    "Autogun": dict(weapon_class="basic", group="SP", range=90, rof="S/3/10", damage="1d10+2",
                    damage_type="I", clip=30, reload="Full"),
    "Autopistol": dict(weapon_class="pistol", group="SP", range=30, rof="S/-/6",
                       damage="1d10+2", clip=18, reload="Full"),
    "Stub Pistol": dict(weapon_class="pistol", group="SP", range=30, rof="S/3/-",
                        damage="1d10+3", clip=6, reload="Full", qualities=["Unreliable"]),
    "Shotgun": dict(weapon_class="basic", group="SP", range=30, rof="S/-/-", damage="1d10+4",
                    clip=8, reload="2 Full", qualities=["Scatter"]),
    "Heavy Stubber": dict(weapon_class="heavy", group="SP", range=120, rof="-/-/10",
                          damage="1d10+4", clip=200, reload="2 Full"),
    "Bolter": dict(weapon_class="basic", group="Bolt", range=100, rof="S/2/4", damage="2d10+5",
                   damage_type="X", pen=5, clip=28, reload="Full"),
    "Bolt Pistol": dict(weapon_class="pistol", group="Bolt", range=30, rof="S/3/-",
                        damage="2d10+5", damage_type="X", pen=5, clip=14, reload="Full",
                        qualities=["Tearing"]),
    "Heavy Bolter": dict(weapon_class="heavy", group="Bolt", range=120, rof="S/-/10",
                         damage="2d10", damage_type="X", clip=60, reload="Full"),
    "Flamer": dict(weapon_class="basic", group="Flame", range=20, rof="S/-/-", damage="1d10+4",
                   damage_type="E", pen=2, clip=6, reload="2 Full", qualities=["Flame"]),
    "Grenade Launcher": dict(weapon_class="basic", group="Launcher", range=60, rof="S/-/-",
                             damage="2d10", damage_type="X", clip=6, reload="Full",
                             qualities=["Blast(3)"]),
    "Frag Grenade": dict(weapon_class="thrown", group="Grenade", range=9, rof="S/-/-",
                         damage="2d10", damage_type="X", qualities=["Blast(4)"]),
    "Sword": dict(weapon_class="melee", damage="1d10", damage_type="R", qualities=["Balanced"]),
    "Club": dict(weapon_class="melee", group="Primitive", damage="1d10",
                 qualities=["Primitive"]),
    "Knife": dict(weapon_class="melee", range=5, rof="S/-/-", damage="1d5", damage_type="R"),
    "Maul": dict(weapon_class="melee", damage="2d10", qualities=["Unwieldy"]),
    "Chainsword": dict(weapon_class="melee", group="Chain", damage="1d10+2", damage_type="R",
                       pen=2, qualities=["Tearing"]),
    "Power Sword": dict(weapon_class="melee", group="Power", damage="1d10+5", damage_type="E",
                        pen=6, qualities=["Power Field", "Balanced"]),
}  # fmt: skip
TRAINED = (
    "Basic Weapon Training",
    "Pistol Training",
    "Heavy Weapon Training",
    "Melee Weapon Training",
    "Thrown Weapon Training",
)
SHEETS = {"dark_heresy": DarkHeresyCharacter, "deathwatch": DeathwatchCharacter}

Weapon = str | Mapping[str, Any]


def make_weapon(name: str, **changes: Any) -> dict[str, Any]:
    """The armoury's ``name`` as sheet data, with ``changes``."""
    return {"name": name, **ARMOURY[name], **changes}


def build(
    game: str,
    name: str,
    weapons: Iterable[Weapon] = (),
    *,
    profile: str,
    wounds: int,
    chars: Mapping[str, int] | None = None,
    **fields: Any,
) -> ImperialCharacter:
    """A sheet of ``game``: the ``profile`` with ``chars`` changed; weapons by armoury name
    (or as data)."""
    listed = [make_weapon(w) if isinstance(w, str) else dict(w) for w in weapons]
    characteristics = {**PROFILES[profile], **(chars or {})}
    data = {"name": name, "characteristics": characteristics, "wounds": wounds, **fields}
    return SHEETS[game].build({**data, "weapons": listed})


@pytest.fixture(scope="session")
def weapon() -> Callable[..., dict[str, Any]]:
    """``weapon("Autogun", loaded=2)``: an armoury weapon as sheet data."""
    return make_weapon


@pytest.fixture(scope="session")
def acolyte() -> Callable[..., DarkHeresyCharacter]:
    """``acolyte(name, weapons=[...], chars={...}, **fields)``: a Dark Heresy character of
    the acolyte profile, 12 wounds unless told."""

    def make(name: str = "Acolyte", weapons: Iterable[Weapon] = (), **fields: Any) -> Any:
        fields = {"profile": "acolyte", "wounds": 12, **fields}
        return build("dark_heresy", name, weapons, **fields)

    return make


@pytest.fixture(scope="session")
def marine() -> Callable[..., DeathwatchCharacter]:
    """``marine(name, weapons=[...], chars={...}, **fields)``: a Deathwatch character of the
    marine profile, 20 wounds unless told."""

    def make(name: str = "Castor", weapons: Iterable[Weapon] = (), **fields: Any) -> Any:
        fields = {"profile": "marine", "wounds": 20, **fields}
        return build("deathwatch", name, weapons, **fields)

    return make


@pytest.fixture(scope="session")
def veteran() -> Callable[..., ImperialCharacter]:
    """``veteran(game, *weapons, name=..., talents=..., **fields)``: a character of either game
    with 40 in the fighting characteristics, trained in every weapon class unless told."""

    def make(game: str = "dark_heresy", *weapons: Weapon, name: str = "Tull", **fields: Any) -> Any:
        fields = {"profile": "veteran", "wounds": 12, "talents": list(TRAINED), **fields}
        return build(game, name, weapons, **fields)

    return make


@pytest.fixture(scope="session")
def trained() -> tuple[str, ...]:
    """The talents that train a veteran in every weapon class."""
    return TRAINED


@pytest.fixture(scope="session")
def demo_sheet() -> Callable[[str, str], Sheet]:
    """``demo_sheet(game, name)``: a demo roster's sheet by its name."""
    sheets = {
        roster.game: {sheet.name: sheet for sheet in roster.sheets}
        for roster in demo_campaign().rosters
    }
    return lambda game, name: sheets[game][name]


@pytest.fixture(scope="session")
def fight_of(demo_sheet: Callable[[str, str], Sheet]) -> Callable[..., Encounter]:
    """``fight_of(game, *names)``: a started fight of those demo sheets, acting in that order."""

    def start(game: str, *names: str) -> Encounter:
        fight = Encounter(game)
        for score, name in enumerate(names):
            ident = fight.add(demo_sheet(game, name))
            fight.set_initiative(ident, 20 - score)
        fight.start()
        return fight

    return start


@pytest.fixture
def gm_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A GM's data folder for WFB 6e (GMKIT_DATA_PATH): the folder its tables are written to,
    read instead of the packaged ones while the test lasts (the tables' cache cleared)."""
    from gmkit.systems._tables import table

    folder = tmp_path / "wfb6"
    folder.mkdir()
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    table.cache_clear()
    yield folder
    table.cache_clear()
