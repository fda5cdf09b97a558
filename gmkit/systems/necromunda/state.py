"""A Necromunda fighter's state during a fight, and the checks the rules make of it.

The sheet (:class:`~gmkit.sheets.necromunda.NecromundaFighter`) keeps what outlasts a fight;
what changes turn by turn (wounds left, pinned, down, hidden, engaged, how the fighter moved)
belongs to the encounter. The rules read it from a :class:`FighterState` value, which a
request may carry in its ``options`` (``"target_state"``, ``"attacker_state"``, as a
``FighterState`` or a plain mapping of its fields). Without one, it is built from what the
encounter passes (:func:`state_from_encounter`, :func:`with_encounter_states`): the
combatant's conditions (``options["target_conditions"]``...) by the names the rules' own
effects give them (:data:`CONDITION_FIELDS`: pinned, down, out of action, hidden, engaged), and
its wounds left from its counters, W less ``counters["damage"]`` (the wounds the ``damage``
effects took). Flesh wounds are on the sheet (the ``injury`` effect raises them).

Choices where the texts are silent:

- ``wounds_left`` None means the sheet's W (unhurt); ``flesh_wounds`` None means the sheet's
  ``flesh_wounds``: a state that gives a number gives the total for the battle, never an extra.
- ``moved`` records how the fighter moved in its side's current turn (``"move"``, ``"run"``,
  ``"charge"``, ``"failed_charge"``, ``"crawl"``, ``"compulsory"``), None when it has not moved.
- :class:`Settings` holds the choices a GM may change (``settings.yaml``): the spotting
  multiplier (seed README: 1), what an ammo roll of "auto" does, and whether armour saves are
  rolled (the seed has none: off).
- A :class:`Check` is one rule's verdict with its reason; a failed check refuses the action
  unless the GM overrides it (each refusing function names its override option).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from gmkit.errors import RulesError
from gmkit.sheets.necromunda import NecromundaFighter
from gmkit.systems.base import AttackRequest
from gmkit.systems.tables import table

AmmoAuto = Literal["fail", "pass"]
MoveKind = Literal["move", "run", "charge", "failed_charge", "crawl", "compulsory"]
MOVE_KINDS: tuple[MoveKind, ...] = ("move", "run", "charge", "failed_charge", "crawl", "compulsory")


CONDITION_FIELDS: dict[str, str] = {
    "pinned": "pinned",
    "down": "down",
    "out of action": "out_of_action",
    "hidden": "hidden",
    "engaged": "engaged",
}
"""Encounter condition name -> :class:`FighterState` field (the names of the rules' effects:
``pinned``, the ``injury`` results, hiding's ``hidden``; ``engaged`` is the GM's)."""


@dataclass(frozen=True, slots=True)
class FighterState:
    """What a fight changes about a fighter; never stored on the sheet.

    >>> FighterState(wounds_left=0, flesh_wounds=1).wounds(NecromundaFighter.build(name="Jo"))
    0
    """

    wounds_left: int | None = None  # None: the sheet's W
    flesh_wounds: int | None = None  # None: the sheet's flesh_wounds (the battle's total)
    pinned: bool = False  # face up: hit by a shot
    down: bool = False  # face down: may only crawl
    out_of_action: bool = False  # removed from the table
    hidden: bool = False  # behind a hidden counter
    engaged: bool = False  # in base contact: locked in close combat
    moved: MoveKind | None = None  # how it moved this turn

    def __post_init__(self) -> None:
        for name in ("wounds_left", "flesh_wounds"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or value < 0):
                raise RulesError(f"fighter state {name}: must be 0 or more (got {value!r})")
        if self.moved is not None and self.moved not in MOVE_KINDS:
            raise RulesError(
                f"fighter state moved: {self.moved!r} is not one of {', '.join(MOVE_KINDS)}"
            )

    @classmethod
    def read(cls, value: FighterState | Mapping[str, Any] | None) -> FighterState:
        """A state from a ``FighterState``, a mapping of its fields, or None (a fresh fighter)."""
        if value is None:
            return cls()
        if isinstance(value, FighterState):
            return value
        known = {field.name for field in fields(cls)}
        unknown = sorted(set(value) - known)
        if unknown:
            raise RulesError(
                f"fighter state: unknown field(s) {', '.join(unknown)}; known: {', '.join(known)}"
            )
        return cls(**dict(value))

    def wounds(self, fighter: NecromundaFighter) -> int:
        """Wounds left: the state's, else the sheet's W."""
        return fighter.W if self.wounds_left is None else self.wounds_left

    def flesh(self, fighter: NecromundaFighter) -> int:
        """Flesh wounds suffered this battle: the state's, else the sheet's."""
        return fighter.flesh_wounds if self.flesh_wounds is None else self.flesh_wounds

    def with_changes(self, **changes: Any) -> FighterState:
        """A copy with ``changes`` (the state is a value: nothing is modified)."""
        return replace(self, **changes)


def state_from_encounter(
    fighter: NecromundaFighter,
    conditions: Iterable[str] | None = None,
    counters: Mapping[str, int] | None = None,
) -> FighterState:
    """A fighter's state from the encounter's conditions and counters (see the module
    docstring); conditions of other names change nothing.

    >>> jo = NecromundaFighter.build(name="Jo", W=2)
    >>> state_from_encounter(jo, ["pinned", "stunned"], {"damage": 1})
    FighterState(wounds_left=1, flesh_wounds=None, pinned=True, down=False, \
out_of_action=False, hidden=False, engaged=False, moved=None)
    """
    held = set(conditions or ())
    flags = {field: True for name, field in CONDITION_FIELDS.items() if name in held}
    lost = int(dict(counters or {}).get("damage", 0))
    wounds = max(0, fighter.W - lost) if lost else None
    return FighterState(wounds_left=wounds, **flags)


def with_encounter_states(request: AttackRequest) -> AttackRequest:
    """``request`` with ``attacker_state`` and ``target_state`` built from the encounter's
    options where the request does not give them."""
    options = dict(request.options)
    for role, sheet in (("attacker", request.attacker), ("target", request.target)):
        if f"{role}_state" in options or not isinstance(sheet, NecromundaFighter):
            continue
        if f"{role}_conditions" not in options and f"{role}_counters" not in options:
            continue
        options[f"{role}_state"] = state_from_encounter(
            sheet, options.get(f"{role}_conditions"), options.get(f"{role}_counters")
        )
    if options == dict(request.options):
        return request
    return replace(request, options=options)


def effective_ws(fighter: NecromundaFighter, state: FighterState) -> int:
    """WS less one per flesh wound, never below 0."""
    return max(0, fighter.WS - state.flesh(fighter))


def effective_bs(fighter: NecromundaFighter, state: FighterState) -> int:
    """BS less one per flesh wound, never below 0."""
    return max(0, fighter.BS - state.flesh(fighter))


def bled_out(fighter: NecromundaFighter, flesh_wounds: int) -> bool:
    """Flesh wounds have brought both WS and BS to 0: out of action through loss of blood."""
    return flesh_wounds > 0 and flesh_wounds >= max(fighter.WS, fighter.BS)


@dataclass(frozen=True, slots=True)
class Check:
    """One rule's verdict: ``passed`` or not, and why."""

    rule: str
    passed: bool
    reason: str

    def __str__(self) -> str:
        return f"{self.rule}: {'yes' if self.passed else 'no'} ({self.reason})"


def failed(checks: tuple[Check, ...]) -> tuple[Check, ...]:
    """The checks that did not pass."""
    return tuple(check for check in checks if not check.passed)


def fighter_of(sheet: object, role: str) -> NecromundaFighter:
    """``sheet`` as a Necromunda fighter, or a RulesError naming the request field."""
    if not isinstance(sheet, NecromundaFighter):
        raise RulesError(f"{role}: a Necromunda fighter is needed (got {type(sheet).__name__})")
    return sheet


@dataclass(frozen=True, slots=True)
class Settings:
    """The choices a GM may change; ``Settings.packaged()`` reads ``settings.yaml``."""

    spotting_multiplier: int = 1
    ammo_auto: AmmoAuto = "fail"
    armour_saves: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.spotting_multiplier, bool) or self.spotting_multiplier < 1:
            raise RulesError(
                f"spotting_multiplier: must be 1 or more ({self.spotting_multiplier!r})"
            )
        if self.ammo_auto not in ("fail", "pass"):
            raise RulesError(f"ammo_auto: must be 'fail' or 'pass' (got {self.ammo_auto!r})")

    @classmethod
    def packaged(cls) -> Settings:
        """The settings of ``systems/data/necromunda/settings.yaml`` (or the GM's copy)."""
        data = table("necromunda", "settings") or {}
        known = {field.name for field in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})
