"""What the d100 games' sheets share: ranges, hit locations, armour, weapon text, the 40k family.

Dark Heresy, Deathwatch and WFRP 2e all test a characteristic on d100 and read a
*characteristic bonus* as its tens digit (35 -> 3). Armour points are kept per hit location
(head, right_arm, left_arm, body, right_leg, left_leg: the six locations of seeds 001, 002 and
004). Dark Heresy and Deathwatch (the "Imperial" family below) share their profile, weapon and
armour shapes; each game module adds its own quality list and rules.

Choices where the rule texts are silent (every range is a typo guard, not a rule):

- Characteristics run 0..100: 0 is the floor of characteristic damage (004); above 100 a d100
  test cannot fail anyway. Unnatural multipliers run 1..10 (x2, x3 ... in the bestiaries).
- Armour points run 0..50 per location (power armour is 8-10, terminator plate about 14).
  ``{"all": 4, "body": 6}`` is accepted as a shorthand: "all", then "arms"/"legs", then single
  locations, each overriding the broader one; the stored form always names all six.
- Weapon qualities are written as in the books ("Tearing", "Blast(3)"); case, spaces and
  hyphens are forgiven ("twin linked", "blast 3") and stored canonically ("Twin-Linked",
  "Blast(3)"). A quality that takes a number must have one (1..99); contradictory pairs
  (Reliable and Unreliable, Accurate and Inaccurate, ...) are refused.
- Rate of fire is one string "S/3/-" (single / semi-auto / full-auto; "-" for none), reload one
  of "-", "Free", "Half", "Full" or "N Full" (books' "2Full" is read as "2 Full").

The Imperial weapon and character (wounds, damage, fatigue, fate, movement, training) live in
``gmkit.sheets._imperial`` as ``ImperialWeapon`` and ``ImperialCharacter``; Dark Heresy and
Deathwatch build on them. Validators every game's sheet uses (whole numbers, ranges, unique
names) are in ``gmkit.sheets._fields``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Field, model_validator

from gmkit.dice import parse
from gmkit.errors import DiceSyntaxError
from gmkit.messages import Message, as_message
from gmkit.sheets._fields import Refusal, Whole, ranged, unique, whole
from gmkit.sheets.base import Model, Name

Location = Literal["head", "right_arm", "left_arm", "body", "right_leg", "left_leg"]
LOCATIONS: tuple[Location, ...] = ("head", "right_arm", "left_arm", "body", "right_leg", "left_leg")
_GROUPS = {"all": LOCATIONS, "arms": ("right_arm", "left_arm"), "legs": ("right_leg", "left_leg")}
_DASHES = str.maketrans({"–": "-", "—": "-", "−": "-"})


# The names the d100 modules first gave to ``fields.whole`` and ``fields.ranged``.
no_bool = whole
between = ranged

Characteristic = Annotated[Whole, ranged(0, 100)]
Multiplier = Annotated[Whole, ranged(1, 10)]
ArmourValue = Annotated[Whole, ranged(0, 50)]
Count = Annotated[Whole, ranged(0, 1000)]
Group = Annotated[str, Field(max_length=40)]


def bonus_of(value: int) -> int:
    """A characteristic bonus: the tens digit (35 -> 3, 100 -> 10)."""
    return value // 10


Tags = Annotated[list[Name], unique()]
"""Talents, traits, skills: non-blank names, each at most once (case-insensitive)."""


class ArmourPoints(Model):
    """Armour points at each hit location."""

    head: ArmourValue = 0
    right_arm: ArmourValue = 0
    left_arm: ArmourValue = 0
    body: ArmourValue = 0
    right_leg: ArmourValue = 0
    left_leg: ArmourValue = 0

    @model_validator(mode="before")
    @classmethod
    def _expand_groups(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not set(data) & set(_GROUPS):
            return data
        expanded: dict[str, Any] = {}
        for group in ("all", "arms", "legs"):
            if group in data:
                expanded.update(dict.fromkeys(_GROUPS[group], data[group]))
        expanded.update({key: value for key, value in data.items() if key not in _GROUPS})
        return expanded

    def at(self, location: Location) -> int:
        """Armour points at ``location``."""
        return int(getattr(self, location))

    @property
    def covered(self) -> tuple[Location, ...]:
        """The locations with any armour, in table order."""
        return tuple(location for location in LOCATIONS if self.at(location) > 0)

    @classmethod
    def worn(cls, pieces: Iterable[ArmourPoints], *, stack: bool) -> ArmourPoints:
        """Pieces worn together: their points added up (``stack``) or the best at each place."""
        listed = list(pieces)
        values: dict[str, int] = {}
        for location in LOCATIONS:
            points = [piece.at(location) for piece in listed]
            values[location] = min(sum(points), 50) if stack else max(points, default=0)
        return cls(**values)


def _covers(value: ArmourPoints) -> ArmourPoints:
    if not value.covered:
        raise Refusal(Message("sheets.armour_covers_nothing"))
    return value


CoveringPoints = Annotated[ArmourPoints, AfterValidator(_covers)]
"""A piece of armour's points: at one location at least."""


# --- weapon text: damage, rate of fire, reload, qualities ---------------------------------


def check_damage(text: str, allowed: frozenset[str], *, dice: bool) -> str:
    """Canonical damage text; ``dice`` says whether it must roll dice (True) or must not."""
    try:
        expression = parse(text)
    except DiceSyntaxError as error:
        raise Refusal(as_message(error.message)) from None
    unknown = sorted(expression.names - allowed)
    if unknown:
        known = tuple(sorted(allowed))
        raise Refusal(Message("sheets.not_a_bonus", names=tuple(unknown), known=known))
    if dice and expression.is_constant:
        raise Refusal(Message("sheets.damage_needs_dice"))
    if not dice and not expression.is_constant:
        raise Refusal(Message("sheets.damage_weapon_part"))
    return str(expression)


_ROF = re.compile(r"^(S|-)/(\d+|-)/(\d+|-)$", re.IGNORECASE)
_RELOAD = re.compile(r"^(?:(-)|(free)|(half)|(?:(\d+)\s*)?(full))$", re.IGNORECASE)


def _rate(part: str) -> int:
    return 0 if part == "-" else int(part)


def parse_rof(text: str) -> tuple[bool, int, int]:
    """``"S/3/-"`` -> (single shot, semi-auto hits, full-auto hits); 0 means no such mode."""
    match = _ROF.match(re.sub(r"\s+", "", text.translate(_DASHES)))
    if match is None:
        raise Refusal(Message("sheets.rof_shape"))
    single, semi, full = match[1].upper() == "S", _rate(match[2]), _rate(match[3])
    if not (0 <= semi <= 100 and 0 <= full <= 100) or "0" in (match[2], match[3]):
        raise Refusal(Message("sheets.rof_rates"))
    return single, semi, full


def _rof(text: str) -> str:
    single, semi, full = parse_rof(text)
    return f"{'S' if single else '-'}/{semi or '-'}/{full or '-'}"


def _reload(text: str) -> str:
    match = _RELOAD.match(text.strip().translate(_DASHES))
    if match is None:
        raise Refusal(Message("sheets.reload_shape"))
    if match[1] or match[2] or match[3]:
        return "-" if match[1] else match[0].strip().capitalize()
    count = int(match[4] or 1)
    if not 1 <= count <= 20:
        raise Refusal(Message("sheets.reload_count"))
    return "Full" if count == 1 else f"{count} Full"


RateOfFire = Annotated[str, AfterValidator(_rof)]
Reload = Annotated[str, AfterValidator(_reload)]


def reload_half_actions(reload: str) -> int | None:
    """Half actions a reload takes (Free 0, Half 1, Full 2, 3 Full 6); None when it can't."""
    if reload == "-":
        return None
    if reload in ("Free", "Half"):
        return 0 if reload == "Free" else 1
    return 2 * int(reload.split()[0]) if " " in reload else 2


def _key(name: str) -> str:
    return re.sub(r"[^a-z]", "", name.casefold())


_PARENS = re.compile(r"^(.*?)\s*\((.*)\)$")


def talent_specialities(talents: Iterable[str], *names: str) -> frozenset[str] | None:
    """What talent ``names`` cover, lower case; an empty set if held plain; None if not held.

    "Two-Weapon Wielder (Melee/Ballistic)" -> {"melee", "ballistic"}. Names compare by letters
    only ("Two Weapon Wielder" matches); a talent held twice adds up its specialities.
    """
    keys = {_key(name) for name in names}
    found: set[str] | None = None
    for talent in talents:
        match = _PARENS.match(talent.strip())
        base, inside = (match[1], match[2]) if match else (talent, "")
        if _key(base) in keys:
            found = (found or set()) | {
                part.strip().casefold() for part in re.split(r"[/,]", inside) if part.strip()
            }
    return None if found is None else frozenset(found)


def quality_table(plain: str, numbered: str = "") -> dict[str, bool]:
    """Quality name -> takes a number, from comma-separated ``plain`` and ``numbered`` names."""
    table = {name.strip(): False for name in plain.split(",") if name.strip()}
    table.update({name.strip(): True for name in numbered.split(",") if name.strip()})
    return table


_QUALITY = re.compile(r"^([A-Za-z][A-Za-z' -]*?)\s*(?:\(\s*(\d+)\s*\)|\s(\d+))?$")


def check_qualities(
    values: Iterable[str], known: Mapping[str, bool], exclusive: Iterable[tuple[str, str]] = ()
) -> list[str]:
    """Canonical qualities; ``known`` maps each name to whether it takes a number."""
    index = {_key(name): name for name in known}
    found: dict[str, str] = {}
    for text in values:
        match = _QUALITY.match(text.strip())
        name = index.get(_key(match[1])) if match else None
        if match is None or name is None:
            listed = tuple(sorted(known))
            raise Refusal(Message("sheets.unknown_quality", quality=repr(text), known=listed))
        number = match[2] or match[3]
        if known[name] and number is None:
            raise Refusal(Message("sheets.quality_needs_number", quality=name))
        if not known[name] and number is not None:
            raise Refusal(Message("sheets.quality_takes_no_number", quality=name))
        if number is not None and not 1 <= int(number) <= 99:
            raise Refusal(Message("sheets.quality_number_range", quality=name))
        if name in found:
            raise Refusal(Message("sheets.quality_twice", quality=name))
        found[name] = f"{name}({int(number)})" if number is not None else name
    for first, second in exclusive:
        if first in found and second in found:
            raise Refusal(Message("sheets.qualities_exclusive", first=first, second=second))
    return list(found.values())


def quality_value(qualities: Iterable[str], name: str) -> int | bool:
    """A canonical quality list's ``name``: its number, True if it has none, False if absent."""
    for quality in qualities:
        base, _, rest = quality.partition("(")
        if base == name:
            return int(rest[:-1]) if rest else True
    return False


# --- the Imperial family: Dark Heresy and Deathwatch --------------------------------------

IMPERIAL_KEYS = ("WS", "BS", "S", "T", "Ag", "Int", "Per", "WP", "Fel")
IMPERIAL_BONUS_NAMES = frozenset(f"{key}B" for key in IMPERIAL_KEYS)
IMPERIAL_QUALITIES = quality_table(
    "Accurate, Balanced, Defensive, Flame, Flexible, Inaccurate, Overheats, Power Field, "
    "Primitive, Recharge, Reliable, Scatter, Shocking, Smoke, Snare, Storm, Tearing, Toxic, "
    "Twin-Linked, Unbalanced, Unreliable, Unstable, Unwieldy",
    numbered="Blast, Felling",
)
"""Dark Heresy's weapon qualities; True where the quality takes a number (Blast(3))."""
IMPERIAL_EXCLUSIVE = (
    ("Reliable", "Unreliable"),
    ("Accurate", "Inaccurate"),
    ("Balanced", "Unbalanced"),
    ("Balanced", "Unwieldy"),
)
WeaponClass = Literal["melee", "pistol", "basic", "heavy", "thrown"]
DamageType = Literal["Energy", "Explosive", "Impact", "Rending"]
ArmourKind = Literal[
    "primitive", "flak", "mesh", "carapace", "power", "synthskin", "xenos", "other"
]
_DAMAGE_TYPES = {"e": "Energy", "x": "Explosive", "i": "Impact", "r": "Rending"}


def lower_text(value: Any) -> Any:
    """Before-validator: text stripped and lower-cased (\"Melee\" -> \"melee\")."""
    return value.strip().lower() if isinstance(value, str) else value


def damage_type_name(value: Any) -> Any:
    """Before-validator: \"X\" -> \"Explosive\", \"rending\" -> \"Rending\"."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    return _DAMAGE_TYPES.get(text.lower(), text) if len(text) == 1 else text.capitalize()


class ImperialCharacteristics(Model):
    """WS BS S T Ag Int Per WP Fel, each 0..100."""

    WS: Characteristic
    BS: Characteristic
    S: Characteristic
    T: Characteristic
    Ag: Characteristic
    Int: Characteristic
    Per: Characteristic
    WP: Characteristic
    Fel: Characteristic


class Unnatural(Model):
    """Unnatural characteristic multipliers: the bonus is multiplied (Unnatural Strength x2)."""

    WS: Multiplier = 1
    BS: Multiplier = 1
    S: Multiplier = 1
    T: Multiplier = 1
    Ag: Multiplier = 1
    Int: Multiplier = 1
    Per: Multiplier = 1
    WP: Multiplier = 1
    Fel: Multiplier = 1


class ImperialArmour(Model):
    """A piece of Dark Heresy / Deathwatch armour and the points it gives where it covers."""

    name: Name
    kind: Annotated[ArmourKind, BeforeValidator(lower_text)] = "other"
    points: CoveringPoints

    @property
    def primitive(self) -> bool:
        return self.kind == "primitive"
