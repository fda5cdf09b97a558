"""The bestiary loader (:mod:`gmkit.systems._bestiary`): stacking, refusals, its cache; and
``npc``/``npcs``: names, changes, count bounds.

The files stack as the catalogs do: the packaged ``bestiary.yaml``, then the extra files given,
then ``<folder>/<game>/bestiary.yaml`` of each ``GMKIT_DATA_PATH`` folder; a later entry of the
same name replaces the earlier one and ``{name: ..., remove: true}`` takes it out. The packaged
entries themselves are checked in ``test_bestiary_data.py``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from gmkit.errors import SheetError
from gmkit.sheets._io import load_sheets
from gmkit.systems._bestiary import Creature, bestiary, creature, npc, npcs
from gmkit.systems._catalogs import DATA_PATH_VARIABLE, catalog

PROFILE = (
    "characteristics: {WS: 99, BS: 25, S: 30, T: 30, Ag: 30, Int: 22, Per: 25, WP: 25, Fel: 20}"
)
PACKAGED_DH = (
    "Cultist",
    "Cult demagogue",
    "Hive ganger",
    "Heretek",
    "Enforcer",
    "Hab militia trooper",
    "Mutant brute",
    "Guardsman",
    "Assassin",
    "Adept",
    "Scum",
    "Arbitrator",
    "Cleric",
    "Imperial psyker",
    "Tech-priest",
)


def entry(name: str, *, source: str | None = "my notes", ws: int = 99, extra: str = "") -> str:
    lines = [f"- name: {name}"]
    if source is not None:
        lines.append(f"  source: {source}")
    lines.append("  " + PROFILE.replace("WS: 99", f"WS: {ws}"))
    lines.append("  wounds: 8")
    if extra:
        lines.append(f"  {extra}")
    return "\n".join(lines) + "\n"


@pytest.fixture(autouse=True)
def no_data_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """No GM folder of the machine running the tests leaks into them."""
    monkeypatch.delenv(DATA_PATH_VARIABLE, raising=False)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_the_packaged_bestiary_in_its_order() -> None:
    found = bestiary("dark_heresy")
    assert tuple(found) == PACKAGED_DH
    cultist = found["Cultist"]
    assert isinstance(cultist, Creature)
    assert cultist.name == cultist.sheet.name == "Cultist"
    assert cultist.source.startswith("gmkit demo roster: example profile (Cultist Ban")
    assert cultist.sheet.game == "dark_heresy"
    assert cultist.sheet.side == ""
    assert [w.name for w in cultist.sheet.weapons] == ["Stub Automatic", "Knife"]  # type: ignore[attr-defined]
    assert cultist.sheet.weapons[0] == catalog("dark_heresy", "weapons")["Stub Automatic"]  # type: ignore[attr-defined]


def test_an_extra_file_replaces_an_entry_of_the_same_name_and_adds_new_ones(tmp_path: Path) -> None:
    extra = write(tmp_path / "mine.yaml", entry("Cultist", ws=41) + entry("Sump rat", ws=12))
    found = bestiary("dark_heresy", extra)
    assert tuple(found) == (*PACKAGED_DH, "Sump rat")  # the replaced one keeps its place
    assert found["Cultist"].source == "my notes"
    assert found["Cultist"].sheet.characteristics.WS == 41  # type: ignore[attr-defined]
    assert found["Sump rat"].sheet.characteristics.WS == 12  # type: ignore[attr-defined]
    assert bestiary("dark_heresy")["Cultist"].sheet.characteristics.WS == 28  # type: ignore[attr-defined]


def test_a_later_extra_file_wins(tmp_path: Path) -> None:
    first = write(tmp_path / "a.yaml", entry("Cultist", ws=41))
    second = write(tmp_path / "b.yaml", entry("Cultist", ws=42, source="second"))
    found = bestiary("dark_heresy", first, second)
    assert (found["Cultist"].source, found["Cultist"].sheet.characteristics.WS) == ("second", 42)  # type: ignore[attr-defined]


def test_remove_true_takes_an_entry_out(tmp_path: Path) -> None:
    extra = write(tmp_path / "mine.yaml", "- {name: Heretek, remove: true}\n")
    found = bestiary("dark_heresy", extra)
    assert tuple(found) == tuple(name for name in PACKAGED_DH if name != "Heretek")


def test_remove_matches_the_name_whatever_its_case(tmp_path: Path) -> None:
    extra = write(tmp_path / "mine.yaml", "- {name: heretek, remove: true}\n")
    assert "Heretek" not in bestiary("dark_heresy", extra)


def test_a_replacement_matches_the_name_whatever_its_case(tmp_path: Path) -> None:
    extra = write(tmp_path / "mine.yaml", entry("cultist", ws=41))
    found = bestiary("dark_heresy", extra)
    assert [name for name in found if name.casefold() == "cultist"] == ["cultist"]


def test_gmkit_data_path_stacks_after_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one = tmp_path / "one"
    two = tmp_path / "two"
    write(one / "dark_heresy" / "bestiary.yaml", entry("Sump rat", ws=12) + entry("Cultist", ws=41))
    write(two / "dark_heresy" / "bestiary.yaml", entry("Sump rat", ws=13, source="two"))
    write(two / "wfrp2" / "bestiary.yaml", entry("Not here", ws=50))  # another game's folder
    monkeypatch.setenv(
        DATA_PATH_VARIABLE, os.pathsep.join([str(one), str(tmp_path / "none"), str(two)])
    )
    found = bestiary("dark_heresy")
    assert tuple(found) == (*PACKAGED_DH, "Sump rat")
    assert found["Sump rat"].source == "two"
    assert found["Sump rat"].sheet.characteristics.WS == 13  # type: ignore[attr-defined]
    assert found["Cultist"].sheet.characteristics.WS == 41  # type: ignore[attr-defined]
    # and npc(), creature() and a roster's npc: read it too
    assert npc("dark_heresy", "sump RAT", name="Rattus").characteristics.WS == 13  # type: ignore[attr-defined]
    (sheet,) = load_sheets([{"game": "dark_heresy", "npc": "Sump rat", "name": "Rattus"}])
    assert sheet == npc("dark_heresy", "Sump rat", name="Rattus")


def test_gmkit_data_path_comes_after_extra_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "gm" / "dark_heresy" / "bestiary.yaml", entry("Cultist", ws=50, source="env"))
    extra = write(tmp_path / "extra.yaml", entry("Cultist", ws=41, source="extra"))
    monkeypatch.setenv(DATA_PATH_VARIABLE, str(tmp_path / "gm"))
    assert bestiary("dark_heresy", extra)["Cultist"].source == "env"


def test_an_entry_without_a_source_is_refused_naming_the_file(tmp_path: Path) -> None:
    extra = write(tmp_path / "mine.yaml", entry("Sump rat", ws=12) + entry("Rat king", source=None))
    with pytest.raises(SheetError) as refused:
        bestiary("dark_heresy", extra)
    assert refused.value.character == f"{extra}: mine.yaml entry 2 (Rat king)"
    assert [field for field, _ in refused.value.problems] == ["source"]
    assert "must say where its numbers come from" in str(refused.value)


def test_a_blank_source_is_refused_too(tmp_path: Path) -> None:
    extra = write(tmp_path / "mine.yaml", entry("Rat king", source="'  '"))
    with pytest.raises(SheetError) as refused:
        bestiary("dark_heresy", extra)
    assert [field for field, _ in refused.value.problems] == ["source"]


def test_an_invalid_entry_is_refused_naming_the_file_and_field(tmp_path: Path) -> None:
    extra = write(tmp_path / "mine.yaml", entry("Rat king", ws=999))
    with pytest.raises(SheetError) as refused:
        bestiary("dark_heresy", extra)
    assert [field for field, _ in refused.value.problems] == ["characteristics.WS"]
    assert str(extra) in str(refused.value.character)


def test_an_invalid_entry_names_the_field(tmp_path: Path) -> None:
    extra = write(tmp_path / "mine.yaml", entry("Rat king", ws=999))
    with pytest.raises(SheetError) as refused:
        bestiary("dark_heresy", extra)
    assert [field for field, _ in refused.value.problems] == ["characteristics.WS"]
    assert "must be from 0 to 100 (got 999)" in str(refused.value)


def test_an_unknown_weapon_in_an_entry_is_refused_by_its_field(tmp_path: Path) -> None:
    extra = write(tmp_path / "mine.yaml", entry("Rat king", extra="weapons: [Knife, Bolter]"))
    with pytest.raises(SheetError) as refused:
        bestiary("dark_heresy", extra)
    assert [field for field, _ in refused.value.problems] == ["weapons[1]"]
    assert "'Bolter' in the catalog" in str(refused.value)


@pytest.mark.parametrize(
    ("text", "problem"),
    [("name: x\n", "(file)"), ("- 3\n", "(file)"), ("- [unclosed\n", "(file)")],
)
def test_a_file_that_is_not_a_list_of_entries_is_refused_naming_it(
    tmp_path: Path, text: str, problem: str
) -> None:
    extra = write(tmp_path / "bad.yaml", text)
    with pytest.raises(SheetError) as refused:
        bestiary("dark_heresy", extra)
    assert refused.value.character == str(extra)
    assert [field for field, _ in refused.value.problems] == [problem]


def test_an_empty_or_missing_extra_file_adds_nothing(tmp_path: Path) -> None:
    empty = write(tmp_path / "empty.yaml", "# nothing yet\n")
    assert tuple(bestiary("dark_heresy", empty, tmp_path / "missing.yaml")) == PACKAGED_DH


def test_the_cache_reads_a_file_again_after_it_changes(tmp_path: Path) -> None:
    extra = write(tmp_path / "mine.yaml", entry("Sump rat", ws=12))
    first = bestiary("dark_heresy", extra)
    assert first["Sump rat"].sheet.characteristics.WS == 12  # type: ignore[attr-defined]
    again = bestiary("dark_heresy", extra)
    assert again["Sump rat"] is first["Sump rat"]  # read once: the same creature
    stamp = extra.stat().st_mtime_ns
    write(extra, entry("Sump rat", ws=14))
    os.utime(extra, ns=(stamp + 5_000_000_000, stamp + 5_000_000_000))  # a new mtime, surely
    changed = bestiary("dark_heresy", extra)
    assert changed["Sump rat"].sheet.characteristics.WS == 14  # type: ignore[attr-defined]
    assert npc_ws(extra) == 14


def npc_ws(extra: Path) -> int:
    return int(bestiary("dark_heresy", extra)["Sump rat"].sheet.characteristics.WS)  # type: ignore[attr-defined]


def test_the_cache_follows_a_gmkit_data_path_file_that_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "gm" / "dark_heresy" / "bestiary.yaml", entry("Sump rat", ws=12))
    monkeypatch.setenv(DATA_PATH_VARIABLE, str(tmp_path / "gm"))
    assert npc("dark_heresy", "Sump rat").characteristics.WS == 12  # type: ignore[attr-defined]
    stamp = path.stat().st_mtime_ns
    write(path, entry("Sump rat", ws=15))
    os.utime(path, ns=(stamp + 7_000_000_000, stamp + 7_000_000_000))
    assert npc("dark_heresy", "Sump rat").characteristics.WS == 15  # type: ignore[attr-defined]
    path.unlink()
    with pytest.raises(SheetError):
        npc("dark_heresy", "Sump rat")


# --- creature, npc, npcs -------------------------------------------------------------------


def test_creature_is_found_whatever_the_case_and_spaces() -> None:
    assert creature("dark_heresy", "  hive GANGER ").name == "Hive ganger"


def test_an_unknown_creature_lists_the_bestiary() -> None:
    with pytest.raises(SheetError) as refused:
        npc("dark_heresy", "Dragon")
    assert refused.value.character == "Dragon"
    assert [field for field, _ in refused.value.problems] == ["npc"]
    assert str(refused.value) == (
        "character 'Dragon': field 'npc': no NPC 'Dragon' in the bestiary; known: "
        + ", ".join(sorted(PACKAGED_DH))
    )


def test_npc_without_changes_is_the_bestiary_sheet() -> None:
    assert npc("dark_heresy", "cultist") == bestiary("dark_heresy")["Cultist"].sheet


def test_npc_with_changes() -> None:
    vorn = npc(
        "dark_heresy",
        "Heretek",
        name="Magos Vorn",
        side="Red Hand",
        characteristics={"BS": 45},
        weapons=["Laspistol", "knife"],
    )
    heretek = bestiary("dark_heresy")["Heretek"].sheet
    assert (vorn.name, vorn.side) == ("Magos Vorn", "Red Hand")
    assert vorn.characteristics.BS == 45  # type: ignore[attr-defined]
    assert vorn.characteristics.model_dump(exclude={"BS"}) == heretek.characteristics.model_dump(  # type: ignore[attr-defined]
        exclude={"BS"}
    )
    assert [w.name for w in vorn.weapons] == ["Laspistol", "Knife"]  # type: ignore[attr-defined]
    assert vorn.wounds == heretek.wounds  # type: ignore[attr-defined]


def test_npc_refuses_a_bad_change_naming_the_field() -> None:
    with pytest.raises(SheetError) as refused:
        npc("dark_heresy", "Cultist", wounds=0)
    assert [field for field, _ in refused.value.problems] == ["wounds"]


def test_npcs_are_numbered_copies_with_the_changes() -> None:
    gangers = npcs("dark_heresy", "Cultist", 5, named="Ganger", side="Red Hand")
    assert [g.name for g in gangers] == [f"Ganger {n}" for n in range(1, 6)]
    base = npc("dark_heresy", "Cultist", side="Red Hand")
    assert all(g.edit(name="Cultist") == base for g in gangers)
    assert {g.side for g in gangers} == {"Red Hand"}


def test_npcs_are_named_after_the_creature_by_default() -> None:
    assert [s.name for s in npcs("wfrp2", "goblin", 3)] == ["Goblin 1", "Goblin 2", "Goblin 3"]
    assert [s.name for s in npcs("necromunda", "Scavvy", 1)] == ["Scavvy 1"]


def test_npcs_with_a_blank_name_use_the_creatures() -> None:
    assert [s.name for s in npcs("dark_heresy", "Heretek", 2, named="  ")] == [
        "Heretek 1",
        "Heretek 2",
    ]


@pytest.mark.parametrize("count", [1, 500])
def test_npcs_count_bounds_allowed(count: int) -> None:
    assert len(npcs("dark_heresy", "Cultist", count)) == count


@pytest.mark.parametrize(
    ("count", "shown"),
    [(0, "0"), (501, "501"), (-1, "-1"), (True, "True"), ("3", "3"), (2.0, "2.0")],
)
def test_npcs_count_bounds_refused(count: Any, shown: str) -> None:
    with pytest.raises(SheetError) as refused:
        npcs("dark_heresy", "Cultist", count)
    assert refused.value.character == "Cultist"
    assert [field for field, _ in refused.value.problems] == ["count"]
    assert str(refused.value).endswith(
        f"the number of copies must be a whole number from 1 to 500 (got {shown})"
    )


@pytest.mark.parametrize("game", ["necromunda", "dark_heresy", "deathwatch", "wfrp2", "wfb6"])
def test_every_game_has_a_bestiary_whose_sheets_are_of_that_game(game: str) -> None:
    found = bestiary(game)
    assert len(found) >= 4
    assert {c.sheet.game for c in found.values()} == {game}
    assert all(c.source.strip() == c.source and c.source for c in found.values())
