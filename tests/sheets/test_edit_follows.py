"""``edit()`` on every sheet model: bounded fields follow their limits, nested profiles merge.

Every field bounded by ``at_most`` in the five games is listed here (the test of the list fails
when one is added or dropped), and each is put through the same rules of
:func:`gmkit.sheets._fields.follow_limits`:

- a full value (at its limit) follows the limit up (``full_follows``) and down;
- a partial value stays, unless the new limit is below it (then it comes down to the limit);
- naming the dependent field in the same edit wins over following;
- a refused edit raises SheetError naming the field, and the original sheet is unchanged.

Then the nested merge (``edit(characteristics={"BS": 45})``) and ``Sheet.edit_weapon``.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from pydantic import BaseModel

from gmkit.demo import demo_campaign
from gmkit.errors import SheetError
from gmkit.sheets import sheet_type
from gmkit.sheets._deathwatch import DeathwatchCharacter, Horde
from gmkit.sheets._fields import limits_of
from gmkit.sheets.base import Model, Sheet
from gmkit.systems._catalogs import catalog

GAMES = ("necromunda", "dark_heresy", "deathwatch", "wfrp2", "wfb6")


def demo(game: str, name: str) -> Sheet:
    """A demo roster's sheet by name."""
    for roster in demo_campaign().rosters:
        for sheet in roster.sheets:
            if roster.game == game and sheet.name == name:
                return sheet
    raise AssertionError(f"no demo character {name!r} in {game}")


def models_in(annotation: Any) -> Iterator[type[BaseModel]]:
    """The pydantic models an annotation holds (through lists, unions, Annotated)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
        return
    for arg in typing.get_args(annotation):
        yield from models_in(arg)


def reachable(model: type[BaseModel]) -> Iterator[type[BaseModel]]:
    """``model`` and every model nested in its fields, once each."""
    seen: list[type[BaseModel]] = []
    todo = [model]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.append(current)
        for info in current.model_fields.values():
            todo.extend(models_in(info.annotation))
    yield from seen


def bounded_fields(game: str) -> set[tuple[str, str, str, bool]]:
    cls = sheet_type(game)
    found = set()
    for model in (*reachable(cls), cls.weapon_model, cls.armour_model):  # type: ignore[attr-defined]
        for field, limit, full in limits_of(model):
            found.add((model.__name__, field, limit, full))
    return found


EXPECTED_BOUNDS = {
    "necromunda": set(),
    "wfb6": set(),
    "dark_heresy": {
        ("Weapon", "loaded", "clip", True),
        ("DarkHeresyCharacter", "damage", "wounds", False),
        ("DarkHeresyCharacter", "fate_current", "fate_total", True),
    },
    "deathwatch": {
        ("Weapon", "loaded", "clip", True),
        ("DeathwatchCharacter", "damage", "wounds", False),
        ("DeathwatchCharacter", "fate_current", "fate_total", True),
        ("Horde", "magnitude", "magnitude_max", True),
    },
    "wfrp2": {
        ("WFRP2Character", "wounds_current", "secondary.W", True),
        ("WFRP2Character", "fortune", "secondary.FP", True),
    },
}


@pytest.mark.parametrize("game", GAMES)
def test_every_bounded_field_is_one_this_file_tests(game: str) -> None:
    assert bounded_fields(game) == EXPECTED_BOUNDS[game]


# --- one case per bounded field ---------------------------------------------------------


@dataclass(frozen=True)
class Bound:
    """A bounded field: how to make a model, the limit's path, the dependent field, and
    values: the limit ``full`` (dependent at it), raised to ``up``, lowered to ``down``;
    ``partial`` <= ``down`` stays, ``high`` (between ``down`` and ``full``) comes down."""

    id: str
    make: Callable[[], Model]
    limit: str
    field: str
    full_follows: bool
    full: int
    up: int
    down: int
    partial: int
    high: int

    def limit_change(self, value: int) -> dict[str, Any]:
        head, _, tail = self.limit.partition(".")
        return {head: {tail: value}} if tail else {head: value}

    def base(self, value: int | None = None) -> Model:
        """The model with its limit at ``full`` and the dependent field at ``value`` (full)."""
        made = self.make()
        return made.edit(**self.limit_change(self.full), **{self.field: value or self.full})

    def limit_of(self, model: Model) -> Any:
        value: Any = model
        for part in self.limit.split("."):
            value = getattr(value, part)
        return value


def _dh_weapon() -> Model:
    return catalog("dark_heresy", "weapons")["Lasgun"]  # type: ignore[return-value]


def _dw_weapon() -> Model:
    return catalog("deathwatch", "weapons")["Astartes Bolter (Godwyn)"]  # type: ignore[return-value]


def _horde() -> Model:
    found = demo("deathwatch", "Ork Boyz mob")
    assert isinstance(found, DeathwatchCharacter)
    assert found.horde is not None
    return found.horde


def _sheet(game: str, name: str) -> Callable[[], Model]:
    return lambda: demo(game, name)


TULL, ILSE = _sheet("dark_heresy", "Sergeant Varro Tull"), _sheet("dark_heresy", "Ilse Marr")
CASTOR, GUNTHER = _sheet("deathwatch", "Brother Castor"), _sheet("wfrp2", "Gunther Brandauer")
# id, model, limit, dependent, full_follows, (full, up, down, partial, high)
BOUNDS = tuple(
    Bound(id_, make, limit, field, follows, *values)
    for id_, make, limit, field, follows, values in (
        ("dh-loaded", _dh_weapon, "clip", "loaded", True, (60, 80, 20, 10, 40)),
        ("dw-loaded", _dw_weapon, "clip", "loaded", True, (28, 40, 10, 4, 20)),
        ("dh-damage", TULL, "wounds", "damage", False, (13, 20, 5, 3, 10)),
        ("dw-damage", CASTOR, "wounds", "damage", False, (20, 25, 6, 2, 12)),
        ("dh-fate", ILSE, "fate_total", "fate_current", True, (4, 6, 2, 1, 3)),
        ("dw-fate", CASTOR, "fate_total", "fate_current", True, (4, 6, 2, 1, 3)),
        ("dw-horde", _horde, "magnitude_max", "magnitude", True, (30, 40, 10, 5, 20)),
        ("wfrp2-wounds", GUNTHER, "secondary.W", "wounds_current", True, (13, 15, 6, 4, 10)),
        ("wfrp2-fortune", GUNTHER, "secondary.FP", "fortune", True, (4, 6, 2, 1, 3)),
    )
)
CASES = pytest.mark.parametrize("case", BOUNDS, ids=[case.id for case in BOUNDS])


def test_the_cases_cover_every_bounded_field() -> None:
    covered = {(case.field, case.limit, case.full_follows) for case in BOUNDS}
    listed = {
        (f, limit, full) for bounds in EXPECTED_BOUNDS.values() for _, f, limit, full in bounds
    }
    assert covered == listed


@CASES
def test_the_case_values_are_sane(case: Bound) -> None:
    base = case.base()
    assert case.limit_of(base) == case.full
    assert getattr(base, case.field) == case.full
    assert case.partial <= case.down < case.high < case.full < case.up


@CASES
def test_a_full_value_follows_its_limit_up_unless_full_follows_is_off(case: Bound) -> None:
    edited = case.base().edit(**case.limit_change(case.up))
    assert case.limit_of(edited) == case.up
    assert getattr(edited, case.field) == (case.up if case.full_follows else case.full)


@CASES
def test_a_full_value_follows_its_limit_down(case: Bound) -> None:
    edited = case.base().edit(**case.limit_change(case.down))
    assert case.limit_of(edited) == case.down
    assert getattr(edited, case.field) == case.down


@CASES
def test_a_partial_value_stays_when_the_limit_moves_and_still_allows_it(case: Bound) -> None:
    base = case.base(case.partial)
    assert getattr(base.edit(**case.limit_change(case.up)), case.field) == case.partial
    assert getattr(base.edit(**case.limit_change(case.down)), case.field) == case.partial


@CASES
def test_a_partial_value_above_the_new_limit_comes_down_to_it(case: Bound) -> None:
    base = case.base(case.high)
    assert getattr(base, case.field) == case.high
    assert getattr(base.edit(**case.limit_change(case.down)), case.field) == case.down


@CASES
def test_naming_the_dependent_field_wins(case: Bound) -> None:
    base = case.base()
    edited = base.edit(**case.limit_change(case.up), **{case.field: case.partial})
    assert getattr(edited, case.field) == case.partial
    edited = base.edit(**case.limit_change(case.down), **{case.field: case.partial})
    assert getattr(edited, case.field) == case.partial


@CASES
def test_a_dependent_value_above_its_limit_is_refused_naming_it(case: Bound) -> None:
    base = case.base(case.partial)
    before = base.model_dump()
    with pytest.raises(SheetError) as refused:
        base.edit(**case.limit_change(case.down), **{case.field: case.down + 1})
    assert [field for field, _ in refused.value.problems] == [case.field]
    assert f"({case.down})" in str(refused.value)  # the limit's value is said
    assert base.model_dump() == before
    assert getattr(base, case.field) == case.partial


@CASES
def test_a_bad_limit_is_refused_on_the_limit_alone_and_nothing_changes(case: Bound) -> None:
    base = case.base()
    before = base.model_dump()
    with pytest.raises(SheetError) as refused:
        base.edit(**case.limit_change(-1))
    assert [field for field, _ in refused.value.problems] == [case.limit]
    assert "(got -1)" in str(refused.value)
    assert base.model_dump() == before


def test_a_refusal_names_the_character() -> None:
    tull: Any = demo("dark_heresy", "Sergeant Varro Tull")
    with pytest.raises(SheetError) as refused:
        tull.edit(damage=14)
    assert refused.value.character == "Sergeant Varro Tull"
    assert [field for field, _ in refused.value.problems] == ["damage"]
    assert "(13)" in str(refused.value)
    assert tull.damage == 0


def test_damage_at_full_wounds_does_not_follow_raised_wounds_but_comes_down() -> None:
    """The one bound without ``full_follows``: raising wounds does not wound the character."""
    tull: Any = demo("dark_heresy", "Sergeant Varro Tull").edit(damage=13)
    assert tull.edit(wounds=16).damage == 13
    assert tull.edit(wounds=16).wounds_remaining == 3
    assert tull.edit(wounds=9).damage == 9
    assert tull.edit(wounds=9).wounds_remaining == 0


def test_a_lowered_clip_empties_a_full_clip_to_it_and_keeps_the_rest() -> None:
    lasgun = catalog("dark_heresy", "weapons")["Lasgun"]
    assert isinstance(lasgun, Model)
    edited = lasgun.edit(clip=20)
    assert (edited.clip, edited.loaded) == (20, 20)  # type: ignore[attr-defined]
    assert edited.model_dump(exclude={"clip", "loaded"}) == lasgun.model_dump(
        exclude={"clip", "loaded"}
    )
    assert (lasgun.clip, lasgun.loaded) == (60, 60)  # type: ignore[attr-defined]


# --- the horde inside its sheet, and limits given as text (known bugs) --------------------


def test_a_full_horde_follows_a_lowered_magnitude_max_edited_on_its_sheet() -> None:
    mob = demo("deathwatch", "Ork Boyz mob")
    edited = mob.edit(horde={"magnitude_max": 10})
    assert edited.horde is not None  # type: ignore[attr-defined]
    assert (edited.horde.magnitude, edited.horde.magnitude_max) == (10, 10)  # type: ignore[attr-defined]


def test_a_full_horde_follows_a_raised_magnitude_max_edited_on_its_sheet() -> None:
    mob = demo("deathwatch", "Ork Boyz mob")
    edited = mob.edit(horde={"magnitude_max": 40})
    assert edited.horde.magnitude == 40  # type: ignore[attr-defined]


def test_the_horde_model_itself_follows() -> None:
    horde = _horde()
    assert isinstance(horde, Horde)
    assert horde.edit(magnitude_max=10).magnitude == 10
    assert horde.edit(magnitude=12).edit(magnitude_max=40).magnitude == 12


def test_a_limit_given_as_text_is_followed_too() -> None:
    lasgun = catalog("dark_heresy", "weapons")["Lasgun"]
    assert isinstance(lasgun, Model)
    assert lasgun.edit(clip="20").loaded == 20  # type: ignore[attr-defined]


def test_a_true_false_limit_is_refused_on_the_limit_alone() -> None:
    lasgun = catalog("dark_heresy", "weapons")["Lasgun"]
    assert isinstance(lasgun, Model)
    with pytest.raises(SheetError) as refused:
        lasgun.edit(clip=True)
    assert [field for field, _ in refused.value.problems] == ["clip"]


# --- nested profiles merge; lists are replaced and may name catalog entries -------------


@pytest.mark.parametrize(
    ("game", "name", "field", "key", "value"),
    [
        ("dark_heresy", "Sergeant Varro Tull", "characteristics", "BS", 45),
        ("deathwatch", "Brother Castor", "characteristics", "BS", 50),
        ("deathwatch", "Brother Castor", "unnatural", "Ag", 2),
        ("wfrp2", "Gunther Brandauer", "characteristics", "BS", 45),
        ("wfrp2", "Gunther Brandauer", "secondary", "A", 2),
    ],
)
def test_a_nested_edit_changes_only_what_it_names(
    game: str, name: str, field: str, key: str, value: int
) -> None:
    sheet = demo(game, name)
    edited = sheet.edit(**{field: {key: value}})
    profile = getattr(sheet, field).model_dump()
    assert getattr(edited, field).model_dump() == {**profile, key: value}
    assert edited.model_dump(exclude={field}) == sheet.model_dump(exclude={field})
    assert getattr(getattr(sheet, field), key) == profile[key] != value


def test_a_nested_edit_accepts_a_model_whole() -> None:
    tull = demo("dark_heresy", "Sergeant Varro Tull")
    other = demo("dark_heresy", "Ilse Marr").characteristics  # type: ignore[attr-defined]
    assert tull.edit(characteristics=other).characteristics == other  # type: ignore[attr-defined]


def test_a_bad_nested_value_names_its_path_and_leaves_the_sheet() -> None:
    tull = demo("dark_heresy", "Sergeant Varro Tull")
    with pytest.raises(SheetError) as refused:
        tull.edit(characteristics={"BS": 200})
    assert [field for field, _ in refused.value.problems] == ["characteristics.BS"]
    assert "must be from 0 to 100 (got 200)" in str(refused.value)
    assert tull.characteristics.BS == 42  # type: ignore[attr-defined]


def test_an_edited_weapon_list_may_name_catalog_entries_in_any_case() -> None:
    tull = demo("dark_heresy", "Sergeant Varro Tull")
    edited = tull.edit(weapons=["laspistol", "KNIFE"])
    pistol = catalog("dark_heresy", "weapons")["Laspistol"]
    assert [w.name for w in edited.weapons] == ["Laspistol", "Knife"]  # type: ignore[attr-defined]
    assert edited.weapons[0] == pistol  # type: ignore[attr-defined]


# --- edit_weapon --------------------------------------------------------------------------


def test_edit_weapon_finds_the_weapon_whatever_its_case_and_keeps_the_others() -> None:
    tull = demo("dark_heresy", "Sergeant Varro Tull")
    edited = tull.edit_weapon("LASGUN", clip=20)
    lasgun, knife = edited.weapons  # type: ignore[attr-defined]
    assert (lasgun.name, lasgun.clip, lasgun.loaded) == ("Lasgun", 20, 20)
    assert knife == tull.weapons[1]  # type: ignore[attr-defined]
    assert tull.weapons[0].clip == 60  # type: ignore[attr-defined]


def test_edit_weapon_renames_and_changes_damage() -> None:
    heretek = demo("dark_heresy", "Ilse Marr")
    edited = heretek.edit_weapon("laspistol", name="Old Faithful", damage="1d10+3")
    assert [w.name for w in edited.weapons] == ["Old Faithful", "Sword"]  # type: ignore[attr-defined]
    assert edited.weapons[0].damage == "1d10+3"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("game", "name"),
    [
        ("necromunda", "Brother Kael"),
        ("dark_heresy", "Jessa Kell"),
        ("deathwatch", "Brother Ilarion"),
        ("wfrp2", "Elsa Wendt"),
        ("wfb6", "Captain Ottilie Hals"),
    ],
)
def test_edit_weapon_in_every_game(game: str, name: str) -> None:
    sheet: Any = demo(game, name)
    weapons = list(sheet.weapons)
    last = weapons[-1]
    edited: Any = sheet.edit_weapon(last.name.upper(), name="Renamed")
    names = [w.name for w in weapons[:-1]]
    assert [w.name for w in edited.weapons] == [*names, "Renamed"]
    assert edited.weapons[-1].model_dump(exclude={"name"}) == last.model_dump(exclude={"name"})
    assert edited.model_dump(exclude={"weapons"}) == sheet.model_dump(exclude={"weapons"})


def test_edit_weapon_of_an_unknown_weapon_lists_the_sheets_weapons() -> None:
    tull = demo("dark_heresy", "Sergeant Varro Tull")
    with pytest.raises(SheetError) as refused:
        tull.edit_weapon("Bolter", clip=3)
    assert refused.value.character == "Sergeant Varro Tull"
    assert [field for field, _ in refused.value.problems] == ["weapons"]
    assert str(refused.value) == (
        "character 'Sergeant Varro Tull': field 'weapons': no weapon 'Bolter'; "
        "the sheet has: Lasgun, Knife"
    )


def test_edit_weapon_errors_name_the_weapons_place_and_field() -> None:
    jessa = demo("dark_heresy", "Jessa Kell")  # Autopistol, Shotgun
    before = jessa.model_dump()
    with pytest.raises(SheetError) as refused:
        jessa.edit_weapon("shotgun", loaded=99, pen=-1)
    fields = sorted(field for field, _ in refused.value.problems)
    assert fields == ["weapons[1].loaded", "weapons[1].pen"]
    assert refused.value.character == "Jessa Kell"
    assert jessa.model_dump() == before


def test_edit_weapon_on_a_sheet_without_weapons_lists_none() -> None:
    swordsman = demo("wfb6", "Swordsman")
    assert list(swordsman.weapons) == []  # type: ignore[attr-defined]
    with pytest.raises(SheetError) as refused:
        swordsman.edit_weapon("Halberd", name="x")
    assert [field for field, _ in refused.value.problems] == ["weapons"]
    assert "no weapon 'Halberd'" in str(refused.value)


# --- catalog entries through gmkit.prep -----------------------------------------------------


def test_prep_weapon_is_the_catalog_entry_edited_its_clip_followed() -> None:
    from gmkit import prep

    pistol: Any = prep.weapon("dark_heresy", "LASPISTOL", clip=20)
    entry: Any = catalog("dark_heresy", "weapons")["Laspistol"]
    assert (entry.clip, entry.loaded) == (30, 30)
    assert (pistol.clip, pistol.loaded) == (20, 20)
    assert pistol.model_dump(exclude={"clip", "loaded"}) == entry.model_dump(
        exclude={"clip", "loaded"}
    )
    assert prep.weapon("dark_heresy", "laspistol") is entry  # unchanged: the entry itself


def test_prep_weapon_of_an_unknown_name_names_the_nearest() -> None:
    from gmkit import prep

    with pytest.raises(SheetError) as refused:
        prep.weapon("dark_heresy", "Lazpistol", clip=20)
    assert [field for field, _ in refused.value.problems] == ["name"]
    assert "'Lazpistol' in the catalog (did you mean Laspistol?)" in str(refused.value)


def test_an_armour_edit_merges_its_points() -> None:
    from gmkit import prep

    vest: Any = prep.armour("dark_heresy", "flak vest", points={"body": 5})
    assert vest.name == "Flak Vest"
    assert vest.points.model_dump() == {
        "head": 0,
        "right_arm": 0,
        "left_arm": 0,
        "body": 5,
        "right_leg": 0,
        "left_leg": 0,
    }


def test_a_horde_edited_on_its_sheet_with_both_numbers_named() -> None:
    """Both numbers named: the edit takes them as given; a magnitude past the max is refused."""
    mob: Any = demo("deathwatch", "Ork Boyz mob")
    edited: Any = mob.edit(horde={"magnitude_max": 10, "magnitude": 10})
    assert (edited.horde.magnitude, edited.horde.magnitude_max) == (10, 10)
    assert edited.horde.armour == mob.horde.armour
    with pytest.raises(SheetError) as refused:
        mob.edit(horde={"magnitude": 31})
    assert [field for field, _ in refused.value.problems] == ["horde.magnitude"]
    assert mob.horde.magnitude == 30
