"""WFRP 2e actions, circumstances and weapon qualities: data files read into typed values.

The catalogs are ``systems/data/wfrp2/actions.yaml``, ``circumstances.yaml`` and
``qualities.yaml`` (each file documents its fields); a GM replaces any of them through
``GMKIT_DATA_PATH`` (:mod:`gmkit.systems.tables`). Each call reads the (cached) table afresh,
so ``table.cache_clear()`` is enough to pick up a new file. A malformed entry raises
:class:`~gmkit.errors.GmkitError` naming the file, the entry and the field.

Choices where seed 002 is silent:

- Action types are full, half and free as 002 gives them, and "varies" for 002's "other
  actions" (cast, reload, use a skill), whose cost depends on the spell, weapon or skill.
- The bonus attack that disengaging without the Disengage action gives each foe (002) is an
  action of its own (``bonus_attack``), typed free because it is taken out of turn.
- A turn (:func:`turn_problems`) is one full action or up to two half actions, plus any free
  actions (002); "varies" actions are the GM's to count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal, cast

from gmkit.errors import GmkitError
from gmkit.systems.tables import table

ActionType = Literal["full", "half", "free", "varies"]
AttackKind = Literal["none", "melee", "ranged", "any"]
ACTION_TYPES: tuple[ActionType, ...] = ("full", "half", "free", "varies")
ATTACK_KINDS: tuple[AttackKind, ...] = ("none", "melee", "ranged", "any")
REACTIONS = ("parry", "dodge")
GAME = "wfrp2"


@dataclass(frozen=True, slots=True)
class Grant:
    """A condition an action or a won test gives its actor, for ``rounds`` (None: until removed)."""

    condition: str
    rounds: int | None = 1


@dataclass(frozen=True, slots=True)
class Action:
    """One action of the WFRP 2e combat round (seed 002)."""

    id: str
    name: str
    type: ActionType
    attack: AttackKind = "none"
    attacks: int | Literal["A"] = 0
    modifiers: Mapping[str, int] = field(default_factory=dict)
    grants: tuple[Grant, ...] = ()
    distance: str | None = None
    min_distance: float | None = None
    opposed: str | None = None
    on_win: Grant | str | None = None  # a condition, or a note for the GM
    note: str = ""

    @property
    def is_attack(self) -> bool:
        """Whether the action attacks (else it goes through ``perform_action``)."""
        return self.attack != "none"

    def allows(self, mode: str) -> bool:
        """Whether this action attacks in ``mode`` ("melee" or "ranged")."""
        return self.attack == "any" or self.attack == mode


@dataclass(frozen=True, slots=True)
class Circumstance:
    """One circumstance of an attack (seed 002), as ``circumstances.yaml`` gives it."""

    id: str
    name: str
    condition: str | None = None
    bearer: Literal["target", "attacker"] = "target"
    modifiers: Mapping[str, int] = field(default_factory=dict)
    value: bool = False
    reaction_modifier: int = 0
    no_reactions: bool = False
    allows: tuple[str, ...] = ()
    blocks: tuple[str, ...] = ()
    auto_hit: bool = False
    extra_damage: str | None = None
    off_hand: bool = False
    actions: tuple[str, ...] = ()
    source: str = "002"


@dataclass(frozen=True, slots=True)
class Quality:
    """What a weapon quality does to an attack (``qualities.yaml``)."""

    name: str
    covered: bool = False
    source: str = "book"
    damage_dice: int = 1
    armour_ignored: int = 0
    target_reaction_modifier: int = 0
    parry_modifier: int = 0
    critical_value: int = 0
    waives_off_hand: bool = False
    charge_only: tuple[str, ...] = ()


def _entries(name: str) -> list[dict[str, Any]]:
    data = table(GAME, name)
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        raise GmkitError(f"{GAME}/{name}.yaml must be a YAML list of mappings")
    return data


def _fail(name: str, entry: Mapping[str, Any], problem: str) -> GmkitError:
    label = entry.get("id") or entry.get("name") or "(unnamed)"
    return GmkitError(f"{GAME}/{name}.yaml entry {label!r}: {problem}")


def _known(name: str, entry: Mapping[str, Any], names: Sequence[str]) -> None:
    unknown = sorted(set(entry) - set(names))
    if unknown:
        raise _fail(name, entry, f"unknown field {', '.join(unknown)}")


def _numbers(name: str, entry: Mapping[str, Any], key: str) -> dict[str, int]:
    value = entry.get(key) or {}
    if not isinstance(value, dict) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value.values()
    ):
        raise _fail(name, entry, f"{key} must map characteristics to whole numbers")
    return {str(k): int(v) for k, v in value.items()}


def _grant(name: str, entry: Mapping[str, Any], raw: Any) -> Grant:
    if not isinstance(raw, dict) or not isinstance(raw.get("condition"), str):
        raise _fail(name, entry, "a grant is {condition: name, rounds: n}")
    rounds = raw.get("rounds", 1)
    return Grant(raw["condition"], None if rounds is None else int(rounds))


def actions() -> dict[str, Action]:
    """The action catalog: id -> :class:`Action`, in the file's order."""
    names = [item.name for item in fields(Action)]
    found: dict[str, Action] = {}
    for entry in _entries("actions"):
        _known("actions", entry, names)
        if entry.get("type") not in ACTION_TYPES:
            raise _fail("actions", entry, f"type must be one of {', '.join(ACTION_TYPES)}")
        attack = entry.get("attack", "none")
        if attack not in ATTACK_KINDS:
            raise _fail("actions", entry, f"attack must be one of {', '.join(ATTACK_KINDS)}")
        attacks = entry.get("attacks", 1 if attack != "none" else 0)
        if attacks != "A" and not (isinstance(attacks, int) and attacks >= 0):
            raise _fail("actions", entry, "attacks must be a number or A")
        on_win = entry.get("on_win")
        won: Grant | str | None = None
        if isinstance(on_win, dict) and "note" in on_win:
            won = str(on_win["note"])
        elif on_win is not None:
            won = _grant("actions", entry, on_win)
        action = Action(
            id=str(entry["id"]),
            name=str(entry.get("name", entry["id"])),
            type=cast(ActionType, entry["type"]),
            attack=cast(AttackKind, attack),
            attacks=attacks,
            modifiers=_numbers("actions", entry, "modifiers"),
            grants=tuple(_grant("actions", entry, g) for g in entry.get("grants") or ()),
            distance=entry.get("distance"),
            min_distance=entry.get("min_distance"),
            opposed=entry.get("opposed"),
            on_win=won,
            note=str(entry.get("note", "")),
        )
        found[action.id] = action
    return found


def circumstances() -> dict[str, Circumstance]:
    """The circumstance catalog: id -> :class:`Circumstance`, in the file's order."""
    names = [item.name for item in fields(Circumstance)]
    found: dict[str, Circumstance] = {}
    for entry in _entries("circumstances"):
        _known("circumstances", entry, names)
        for key in ("allows", "blocks"):
            if not set(entry.get(key) or ()) <= set(REACTIONS):
                raise _fail("circumstances", entry, f"{key} names parry or dodge only")
        if entry.get("bearer", "target") not in ("target", "attacker"):
            raise _fail("circumstances", entry, "bearer is target or attacker")
        item = Circumstance(
            **{
                **entry,
                "id": str(entry["id"]),
                "name": str(entry.get("name", entry["id"])),
                "modifiers": _numbers("circumstances", entry, "modifiers"),
                "allows": tuple(entry.get("allows") or ()),
                "blocks": tuple(entry.get("blocks") or ()),
                "actions": tuple(entry.get("actions") or ()),
                "source": str(entry.get("source", "002")),
            }
        )
        found[item.id] = item
    return found


def qualities() -> dict[str, Quality]:
    """The weapon quality catalog: name -> :class:`Quality`."""
    names = [item.name for item in fields(Quality)]
    found: dict[str, Quality] = {}
    for entry in _entries("qualities"):
        _known("qualities", entry, names)
        item = Quality(**{**entry, "charge_only": tuple(entry.get("charge_only") or ())})
        if item.damage_dice < 1:
            raise _fail("qualities", entry, "damage_dice must be 1 or more")
        found[item.name] = item
    return found


def action(action_id: str) -> Action:
    """The action ``action_id``; an unknown id is refused, naming the known ones."""
    known = actions()
    if action_id not in known:
        raise GmkitError(f"unknown WFRP 2e action {action_id!r}; known: {', '.join(known)}")
    return known[action_id]


def turn_problems(action_ids: Sequence[str]) -> tuple[str, ...]:
    """What is wrong with taking ``action_ids`` in one turn (empty: nothing).

    002: a full action takes the whole turn; a turn holds at most two half actions; free
    actions combine with anything. "varies" actions are left to the GM.
    """
    taken = [action(action_id) for action_id in action_ids]
    full = [a.name for a in taken if a.type == "full"]
    half = [a.name for a in taken if a.type == "half"]
    problems: list[str] = []
    if len(full) > 1:
        problems.append(f"only one full action a turn ({', '.join(full)})")
    if full and half:
        problems.append(f"a full action ({full[0]}) leaves no time for half actions")
    if len(half) > 2:
        problems.append(f"at most two half actions a turn ({len(half)} taken)")
    return tuple(problems)
