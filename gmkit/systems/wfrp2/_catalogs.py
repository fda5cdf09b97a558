"""WFRP 2e actions, circumstances and weapon qualities: data files read into typed values.

The catalogs are ``systems/data/wfrp2/actions.yaml``, ``circumstances.yaml`` and
``qualities.yaml`` (each file documents its fields); a GM replaces any of them through
``GMKIT_DATA_PATH`` (:mod:`gmkit.systems._tables`). Each call reads the (cached) table afresh,
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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal, TypeVar, cast

from gmkit.errors import GmkitError, RulesError
from gmkit.messages import Message
from gmkit.sheets._wfrp2 import WFRP2Character
from gmkit.systems._tables import table
from gmkit.systems.wfrp2._carried import SHEET_READINGS
from gmkit.systems.wfrp2._terms import slug

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
    def label(self) -> Message:
        """The action's name: its catalog term (``wfrp2.action.<id>``)."""
        return Message.term(f"wfrp2.action.{self.id}", self.name)

    @property
    def note_text(self) -> Message | None:
        """The action's one-line mechanic (``wfrp2.action_note.<id>``), None without one."""
        return Message.term(f"wfrp2.action_note.{self.id}", self.note) if self.note else None

    @property
    def won_note(self) -> Message | None:
        """What winning its opposed test gives, when that is a note for the GM."""
        if not isinstance(self.on_win, str):
            return None
        return Message.term(f"wfrp2.action_win.{self.id}", self.on_win)

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
    sheet: str | None = None  # set by the target's sheet: a reading of carried.SHEET_READINGS
    source: str = "002"

    @property
    def label(self) -> Message:
        """The circumstance's name: its catalog term (``wfrp2.circumstance.<id>``)."""
        return Message.term(f"wfrp2.circumstance.{self.id}", self.name)


@dataclass(frozen=True, slots=True)
class Quality:
    """What a weapon quality does to an attack (``qualities.yaml``)."""

    name: str
    covered: bool = False
    source: str = "book"
    name_es: str = ""  # its Spanish name (shown by gmkit.systems._catalogs.local_name)
    damage_dice: int = 1
    armour_ignored: int = 0
    target_reaction_modifier: int = 0
    parry_modifier: int = 0
    critical_value: int = 0
    waives_off_hand: bool = False
    charge_only: tuple[str, ...] = ()

    @property
    def label(self) -> Message:
        """The quality's name: its catalog term (``wfrp2.quality.<slug>``)."""
        return quality_label(self.name)


def quality_label(name: str) -> Message:
    """A weapon quality's name (``wfrp2.quality.armour_piercing``), catalogued or not."""
    return Message.term(f"wfrp2.quality.{slug(name)}", name)


def _entries(name: str) -> list[dict[str, Any]]:
    data = table(GAME, name)
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        raise GmkitError(Message("wfrp2.catalog.not_a_list", file=f"{GAME}/{name}.yaml"))
    return data


T = TypeVar("T")

_READ: dict[str, tuple[object, Any]] = {}
"""Catalog name -> (the table it was read from, what it reads as): a catalog is read again
only when its table is (``table.cache_clear()``, a GM's file), not on every rule's call."""


def _read_once(name: str, read: Callable[[], T]) -> T:
    data = table(GAME, name)
    kept = _READ.get(name)
    if kept is not None and kept[0] is data:
        return kept[1]  # type: ignore[no-any-return]
    found = read()
    _READ[name] = (data, found)
    return found


def _fail(name: str, entry: Mapping[str, Any], problem: Message) -> GmkitError:
    label = entry.get("id") or entry.get("name") or "(unnamed)"
    return GmkitError(
        Message(
            "wfrp2.catalog.entry", file=f"{GAME}/{name}.yaml", entry=repr(label), problem=problem
        )
    )


def _known(name: str, entry: Mapping[str, Any], names: Sequence[str]) -> None:
    unknown = sorted(set(entry) - set(names))
    if unknown:
        raise _fail(name, entry, Message("wfrp2.catalog.unknown_field", fields=tuple(unknown)))


def _numbers(name: str, entry: Mapping[str, Any], key: str) -> dict[str, int]:
    value = entry.get(key) or {}
    if not isinstance(value, dict) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value.values()
    ):
        raise _fail(name, entry, Message("wfrp2.catalog.not_numbers", key=key))
    return {str(k): int(v) for k, v in value.items()}


def _grant(name: str, entry: Mapping[str, Any], raw: Any) -> Grant:
    if not isinstance(raw, dict) or not isinstance(raw.get("condition"), str):
        raise _fail(name, entry, Message("wfrp2.catalog.grant"))
    rounds = raw.get("rounds", 1)
    return Grant(raw["condition"], None if rounds is None else int(rounds))


def actions() -> dict[str, Action]:
    """The action catalog: id -> :class:`Action`, in the file's order."""
    return _read_once("actions", _actions)


def _actions() -> dict[str, Action]:
    names = [item.name for item in fields(Action)]
    found: dict[str, Action] = {}
    for entry in _entries("actions"):
        _known("actions", entry, names)
        if entry.get("type") not in ACTION_TYPES:
            raise _fail("actions", entry, Message("wfrp2.catalog.type", types=ACTION_TYPES))
        attack = entry.get("attack", "none")
        if attack not in ATTACK_KINDS:
            raise _fail("actions", entry, Message("wfrp2.catalog.attack", kinds=ATTACK_KINDS))
        attacks = entry.get("attacks", 1 if attack != "none" else 0)
        if attacks != "A" and not (isinstance(attacks, int) and attacks >= 0):
            raise _fail("actions", entry, Message("wfrp2.catalog.attacks"))
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
    return _read_once("circumstances", _circumstances)


def _circumstances() -> dict[str, Circumstance]:
    names = [item.name for item in fields(Circumstance)]
    found: dict[str, Circumstance] = {}
    for entry in _entries("circumstances"):
        _known("circumstances", entry, names)
        for key in ("allows", "blocks"):
            if not set(entry.get(key) or ()) <= set(REACTIONS):
                raise _fail("circumstances", entry, Message("wfrp2.catalog.reactions", key=key))
        if entry.get("bearer", "target") not in ("target", "attacker"):
            raise _fail("circumstances", entry, Message("wfrp2.catalog.bearer"))
        if entry.get("sheet") is not None and entry["sheet"] not in SHEET_READINGS:
            problem = Message("wfrp2.catalog.sheet_reading", known=tuple(SHEET_READINGS))
            raise _fail("circumstances", entry, problem)
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
    return _read_once("qualities", _qualities)


def _qualities() -> dict[str, Quality]:
    names = [item.name for item in fields(Quality)]
    found: dict[str, Quality] = {}
    for entry in _entries("qualities"):
        _known("qualities", entry, names)
        item = Quality(**{**entry, "charge_only": tuple(entry.get("charge_only") or ())})
        if item.damage_dice < 1:
            raise _fail("qualities", entry, Message("wfrp2.catalog.damage_dice"))
        found[item.name] = item
    return found


def action(action_id: str) -> Action:
    """The action ``action_id``; an unknown id is refused, naming the known ones."""
    known = actions()
    if action_id not in known:
        raise RulesError(
            Message("wfrp2.refusal.unknown_action", action=repr(action_id), known=tuple(known))
        )
    return known[action_id]


def turn_problems(action_ids: Sequence[str]) -> tuple[Message, ...]:
    """What is wrong with taking ``action_ids`` in one turn (empty: nothing).

    002: a full action takes the whole turn; a turn holds at most two half actions; free
    actions combine with anything. "varies" actions are left to the GM.
    """
    taken = [action(action_id) for action_id in action_ids]
    full = [a.label for a in taken if a.type == "full"]
    half = [a.label for a in taken if a.type == "half"]
    problems: list[Message] = []
    if len(full) > 1:
        problems.append(Message("wfrp2.turn.one_full", actions=tuple(full)))
    if full and half:
        problems.append(Message("wfrp2.turn.full_and_half", action=full[0]))
    if len(half) > 2:
        problems.append(Message("wfrp2.turn.two_half", count=len(half)))
    return tuple(problems)


def sheet_circumstances(target: object) -> dict[str, bool]:
    """The circumstances ``target``'s sheet sets (``circumstances.yaml`` ``sheet``): id -> True."""
    if not isinstance(target, WFRP2Character):
        return {}
    return {
        item.id: True
        for item in circumstances().values()
        if item.sheet is not None and SHEET_READINGS[item.sheet](target)
    }
