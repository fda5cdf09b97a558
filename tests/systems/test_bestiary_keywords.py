"""A player's character (or any sheet) filled by keyword over a bestiary entry (issue 21):
``Sheet.build(npc="Tactical Marine", characteristics={"WS": 45}, unnatural={"T": 3})`` is the
entry with WS 45 and Unnatural Toughness x3, the rest as the entry has it: the same sheet
``npc(game, name, **changes)`` makes, from Python, a dict, a roster file or a DataFrame; a value
bounded by one given follows it, as ``edit`` does."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from gmkit import prep
from gmkit.errors import SheetError
from gmkit.sheets import load_sheet
from gmkit.sheets._dark_heresy import DarkHeresyCharacter
from gmkit.sheets._deathwatch import DeathwatchCharacter
from gmkit.sheets._wfrp2 import WFRP2Character
from gmkit.systems._bestiary import bestiary, npc
from gmkit.systems._catalogs import DATA_PATH_VARIABLE


@pytest.fixture(autouse=True)
def _packaged_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DATA_PATH_VARIABLE, raising=False)


def test_a_battle_brother_in_one_line_by_keyword() -> None:
    aquila = DeathwatchCharacter.build(
        npc="Tactical Marine",
        name="Brother Aquila",
        side="Kill-team Aquila",
        characteristics={"WS": 45},
        unnatural={"T": 3},
    )
    assert (aquila.name, aquila.side) == ("Brother Aquila", "Kill-team Aquila")
    assert aquila.characteristics.model_dump() == {
        "WS": 45,  # given
        "BS": 47,  # the rest: the Tactical Marine's (Brother Castor's numbers)
        "S": 45,
        "T": 43,
        "Ag": 40,
        "Int": 38,
        "Per": 41,
        "WP": 42,
        "Fel": 35,
    }
    assert (aquila.unnatural.S, aquila.unnatural.T) == (2, 3)  # S kept, T given
    assert (aquila.bonus("S"), aquila.bonus("T")) == (8, 12)  # 4 x 2, 4 x 3
    assert (aquila.wounds, aquila.fate_total, aquila.fate_current) == (20, 3, 3)
    assert [w.name for w in aquila.weapons] == ["Astartes Bolter (Godwyn)", "Astartes Combat Knife"]


def test_by_keyword_is_the_npc_with_those_changes_from_every_reader(tmp_path: Path) -> None:
    changes = {"name": "Brother Aquila", "characteristics": {"WS": 45}, "unnatural": {"T": 3}}
    expected = npc("deathwatch", "Tactical Marine", **changes)
    assert DeathwatchCharacter.build(npc="Tactical Marine", **changes) == expected
    assert load_sheet({"game": "deathwatch", "npc": "Marine táctico", **changes}) == expected
    assert prep.roster([{"npc": "Tactical Marine", **changes}], game="deathwatch") == [expected]
    roster = tmp_path / "kill-team.yaml"
    roster.write_text(
        "- {npc: Tactical Marine, name: Brother Aquila, characteristics: {WS: 45},"
        " unnatural: {T: 3}}\n",
        encoding="utf-8",
    )
    assert prep.roster(roster, game="deathwatch") == [expected]
    frame = pd.DataFrame(
        [{"npc": "Tactical Marine", "name": "Brother Aquila", "characteristics.WS": 45}]
    )
    (from_frame,) = prep.roster(frame, game="deathwatch")
    assert from_frame == npc("deathwatch", "Tactical Marine", name="Brother Aquila").edit(
        characteristics={"WS": 45}
    )


def test_a_value_bounded_by_one_given_follows_it() -> None:
    horde = DeathwatchCharacter.build(npc="Ork boyz horde", horde={"magnitude_max": 10})
    assert horde.horde is not None
    assert (horde.horde.magnitude_max, horde.horde.magnitude) == (10, 10)  # full at its new max
    brother = DeathwatchCharacter.build(npc="Tactical Marine", fate_total=1)
    assert (brother.fate_total, brother.fate_current) == (1, 1)  # all his fate, as a new sheet
    acolyte = DarkHeresyCharacter.build(npc="Guardsman", name="Tull", fate_total=3)
    assert (acolyte.fate_total, acolyte.fate_current) == (3, 3)
    soldier = WFRP2Character.build(npc="Soldier", name="Gunther", secondary={"W": 15})
    assert (soldier.secondary.W, soldier.wounds_current, soldier.secondary.FP) == (15, 15, 2)


def test_a_refusal_names_the_character_made_and_the_field() -> None:
    with pytest.raises(SheetError) as refused:
        DeathwatchCharacter.build(npc="Tactical Marine", name="Aquila", characteristics={"WS": 250})
    assert refused.value.character == "Aquila"
    assert [field for field, _ in refused.value.problems] == ["characteristics.WS"]
    with pytest.raises(SheetError) as unknown:
        DeathwatchCharacter.build(npc="Librarian", name="Aquila")
    assert unknown.value.character == "Aquila"
    assert [field for field, _ in unknown.value.problems] == ["npc"]
    assert "Tactical Marine" in str(unknown.value)  # the bestiary listed


@pytest.mark.parametrize("game", ["necromunda", "dark_heresy", "deathwatch", "wfrp2", "wfb6"])
def test_every_entry_built_by_keyword_is_the_entry(game: str) -> None:
    for name, creature in bestiary(game).items():
        assert load_sheet({"game": game, "npc": name}) == creature.sheet
        renamed = load_sheet({"game": game, "npc": name, "name": "Mine", "side": "Players"})
        assert renamed == creature.sheet.edit(name="Mine", side="Players")
