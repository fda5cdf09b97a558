"""A Necromunda fighter's state during a fight, and the checks the rules make of it.

The sheet (:class:`~gmkit.sheets._necromunda.NecromundaFighter`) keeps what outlasts a fight;
what changes turn by turn (wounds left, pinned, down, hidden, engaged, how the fighter moved)
belongs to the encounter. The rules read it from a :class:`FighterState` value, which a
request may carry in its options (``request.options.target_state``, ``.attacker_state``:
:class:`~gmkit.systems.necromunda._options.NecromundaOptions`). Without one, it is built from
what the encounter knows (:func:`state_from_encounter`, :func:`with_encounter_states`): the
standing's conditions (``request.target_standing.conditions``...) by the names the rules' own
effects give them (:data:`CONDITION_FIELDS`: pinned, down, out of action, hidden, engaged;
:data:`MOVED_CONDITIONS`: run, charging, failed_charge, crawl, compulsory for ``moved``), and
its wounds left from its counters, W less ``counters["damage"]`` (the wounds the ``damage``
effects took). Flesh wounds are on the sheet (the ``injury`` effect raises them).

Choices where the texts are silent:

- ``wounds_left`` None means the sheet's W (unhurt); ``flesh_wounds`` None means the sheet's
  ``flesh_wounds``: a state that gives a number gives the total for the battle, never an extra.
- ``moved`` records how the fighter moved in its side's current turn (``"move"``, ``"run"``,
  ``"charge"``, ``"failed_charge"``, ``"crawl"``, ``"compulsory"``), None when it has not moved.
- :class:`Settings` holds the choices a GM may change (``settings.yaml``): the spotting
  multiplier (seed README: 1), what an ammo roll of "auto" does, whether armour saves are
  rolled (the seed has none: off) and whether a pinned fighter near a friend may try the
  escape roll (the seed README's optional rule: on).
- A :class:`Check` is one rule's verdict with its reason (a message); a failed check refuses
  the action unless the GM overrides it (each refusing function names its override option).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from gmkit.errors import RulesError
from gmkit.messages import Message
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.systems._tables import table
from gmkit.systems.base import AttackRequest, Standing

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

MOVED_CONDITIONS: dict[str, MoveKind] = {
    "charging": "charge",
    "failed_charge": "failed_charge",
    "run": "run",
    "compulsory": "compulsory",
    "crawl": "crawl",
}
"""Encounter condition name -> :attr:`FighterState.moved`: the conditions the movement rules'
effects give a fighter for the turn it moved so (``movement.plan_move``, ``movement.charge``);
the first held, in this order, is how it moved."""


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
                raise RulesError(
                    Message("necromunda.state.not_negative", field=name, got=repr(value))
                )
        if self.moved is not None and self.moved not in MOVE_KINDS:
            raise RulesError(
                Message("necromunda.state.moved_unknown", got=repr(self.moved), kinds=MOVE_KINDS)
            )

    @classmethod
    def read(cls, value: FighterState | Mapping[str, Any] | None) -> FighterState:
        """A state from a ``FighterState``, a mapping of its fields, or None (a fresh fighter)."""
        if value is None:
            return cls()
        if isinstance(value, FighterState):
            return value
        known = tuple(field.name for field in fields(cls))
        unknown = tuple(sorted(set(value) - set(known)))
        if unknown:
            raise RulesError(
                Message("necromunda.state.unknown_fields", unknown=unknown, known=known)
            )
        return cls(**dict(value))

    def wounds(self, fighter: NecromundaFighter) -> int:
        """Wounds left: the state's, else the sheet's W."""
        return fighter.W if self.wounds_left is None else self.wounds_left

    def flesh(self, fighter: NecromundaFighter) -> int:
        """Flesh wounds suffered this battle: the state's, else the sheet's."""
        return fighter.flesh_wounds if self.flesh_wounds is None else self.flesh_wounds

    def names(self) -> tuple[str, ...]:
        """The encounter's condition names this state holds (the inverse of
        :func:`state_from_encounter`): what the condition book reads."""
        held = [name for name, field in CONDITION_FIELDS.items() if getattr(self, field)]
        held += [name for name, kind in MOVED_CONDITIONS.items() if kind == self.moved]
        return tuple(held)

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
    flags: dict[str, Any] = {
        field: True for name, field in CONDITION_FIELDS.items() if name in held
    }
    moved = next((kind for name, kind in MOVED_CONDITIONS.items() if name in held), None)
    lost = int(dict(counters or {}).get("damage", 0))
    wounds = max(0, fighter.W - lost) if lost else None
    return FighterState(wounds_left=wounds, moved=moved, **flags)


def with_encounter_states(request: AttackRequest) -> AttackRequest:
    """``request`` with ``attacker_state`` and ``target_state`` built from the encounter's
    standings (``request.attacker_standing``, ``request.target_standing``: conditions and
    counters) where the request's options do not give them; the request itself when there is
    nothing to add."""
    options = request.options
    changes: dict[str, FighterState] = {}
    roles: tuple[tuple[str, FighterState | None, object, Standing], ...] = (
        ("attacker_state", options.attacker_state, request.attacker, request.attacker_standing),
        ("target_state", options.target_state, request.target, request.target_standing),
    )
    for name, given, sheet, standing in roles:
        if given is not None or not isinstance(sheet, NecromundaFighter):
            continue
        if not standing.conditions and not standing.counters:
            continue
        changes[name] = state_from_encounter(sheet, standing.conditions, standing.counters)
    return request.with_options(**changes) if changes else request


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
    """One rule's verdict: ``passed`` or not, and why.

    ``rule`` names the rule ("on the table", "target choice": code compares it); its words for
    the GM are :attr:`name` (``necromunda.rule.<rule>``), and ``reason`` is a message.
    """

    rule: str
    passed: bool
    reason: Message

    @property
    def name(self) -> Message:
        """The rule's name, as the GM reads it."""
        return Message(f"necromunda.rule.{self.rule.replace(' ', '_')}")

    @property
    def refusal(self) -> Message:
        """ "rule: reason", as a refusal lists it."""
        return Message("necromunda.check.refusal", rule=self.name, reason=self.reason)

    @property
    def message(self) -> Message:
        """ "rule: yes (reason)" or "rule: no (reason)"."""
        verdict = "necromunda.check.yes" if self.passed else "necromunda.check.no"
        return Message(verdict, rule=self.name, reason=self.reason)

    def __str__(self) -> str:
        return str(self.message)


def failed(checks: tuple[Check, ...]) -> tuple[Check, ...]:
    """The checks that did not pass."""
    return tuple(check for check in checks if not check.passed)


def fighter_of(sheet: object, role: Literal["attacker", "target"]) -> NecromundaFighter:
    """``sheet`` as a Necromunda fighter, or a RulesError naming the request field."""
    if not isinstance(sheet, NecromundaFighter):
        kind = type(sheet).__name__
        raise RulesError(Message(f"necromunda.not_a_fighter.{role}", kind=kind))
    return sheet


@dataclass(frozen=True, slots=True)
class Settings:
    """The choices a GM may change; ``Settings.packaged()`` reads ``settings.yaml``."""

    spotting_multiplier: int = 1
    ammo_auto: AmmoAuto = "fail"
    armour_saves: bool = False
    pin_escape: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.spotting_multiplier, bool) or self.spotting_multiplier < 1:
            got = repr(self.spotting_multiplier)
            raise RulesError(Message("necromunda.settings.spotting_multiplier", got=got))
        if self.ammo_auto not in ("fail", "pass"):
            raise RulesError(Message("necromunda.settings.ammo_auto", got=repr(self.ammo_auto)))

    @classmethod
    def packaged(cls) -> Settings:
        """The settings of ``systems/data/necromunda/settings.yaml`` (or the GM's copy)."""
        data = table("necromunda", "settings") or {}
        known = {field.name for field in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})
