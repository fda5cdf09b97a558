"""The combat actions of Dark Heresy and Deathwatch as a catalog: data with behaviour.

``actions.yaml`` of each game lists every action of seed 004 with its type and subtypes, what
it does to an attack made with it (``attack``), to the actor's next attack (``next_attack``:
Aim, Feint, Brace, a half Move before a Knock-Down) and its other effects as machine-readable
keys (``no_reactions_until_next_turn``, ``{opponents_ws_penalty: -20}``...); the file's header
documents the fields. ``modifiers.attack_setup`` reads them.

This module also holds what every catalog of the family shares: the ``extends`` mechanism (a
game's file built on another's: Dark Heresy's on Deathwatch's), modifier specs with their
``when``/``unless`` flags, and ``refuse`` for :class:`~gmkit.errors.RulesError`.

Names are data terms: an action's ``label`` is ``Message.term("<game>.action.<id>", name)``
(the file's English name, its Spanish in the catalogs), an option's
``<game>.action.<action>.<option>``, a modifier's source ``<game>.modifier.<slug of its
source>`` (or the name of what gives it), an effect's text ``<game>.effect.<key>``.

Choices where the texts are silent:

- Dark Heresy uses Deathwatch's actions: 001's action table was lost (only its heading is
  left) and 004's actions are the same rules reprinted; 001's differences (bracing and
  unbracing take a Half Action, braced arcs) are listed in Dark Heresy's file, and its house
  rules are options (``house_rules.yaml``).
- Jams: 96+ for a single shot, 94+ for semi-auto, full-auto and suppressing fire (004 and the
  seed README). Reliable weapons jam only on 100, Unreliable ones on 91+ whatever the mode
  (the books; the seeds are silent), and Flame weapons, which roll no attack, never jam.
- Feint, Manoeuvre, Knock-Down and the grapple options are opposed tests: the target answers
  with its own test, not with a Dodge or a Parry.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from gmkit.errors import GmkitError, RulesError
from gmkit.messages import Message
from gmkit.systems._imperial.terms import action_type, field_label, slug
from gmkit.systems._tables import table
from gmkit.systems.base import Modifier

GAMES = ("deathwatch", "dark_heresy")
_SPEC_KEYS = frozenset({"value", "test", "when", "unless", "source"})


class Refusal(RulesError):
    """A request the 40k rules refuse: ``field`` names the request's field (``"weapon"``,
    ``"options['prepared']['aim']"``), ``problem`` says what is wrong (a message)."""

    def __init__(self, field_name: str, problem: Message) -> None:
        self.field = field_name
        self.problem = problem
        which = "imperial.refused_quoted" if "'" in field_name else "imperial.refused"
        super().__init__(Message(which, field=field_label(field_name), problem=problem))


def refuse(field_name: str, problem: Message) -> Refusal:
    """A RulesError naming the request's field and the problem (``.field``, ``.problem``)."""
    return Refusal(field_name, problem)


def check_game(game: str) -> str:
    if game not in GAMES:
        raise refuse("game", Message("imperial.not_a_40k_game", game=repr(game), known=GAMES))
    return game


@cache
def game_data(game: str, name: str) -> dict[str, Any]:
    """Table ``name`` of ``game`` with its ``extends`` chain merged (never mutate the result).

    An extending file replaces top-level values, merges top-level mappings key by key, drops
    the ids in ``remove: {list: [ids]}`` and merges ``changes: {list: [entries]}`` by id (an
    entry's fields replace the base entry's; a new id is appended).
    """
    data = table(game, name)
    if not isinstance(data, dict):
        raise GmkitError(Message("imperial.data.not_a_mapping", file=f"{game}/{name}.yaml"))
    if "extends" not in data:
        return data
    merged = copy.deepcopy(game_data(str(data["extends"]), name))
    for key, value in data.items():
        if key in ("extends", "changes", "remove"):
            continue
        base = merged.get(key)
        merged[key] = (
            {**base, **value} if isinstance(base, dict) and isinstance(value, dict) else value
        )
    for key, ids in (data.get("remove") or {}).items():
        merged[key] = [entry for entry in merged.get(key, []) if entry.get("id") not in set(ids)]
    for key, entries in (data.get("changes") or {}).items():
        listed = list(merged.get(key, []))
        for entry in entries:
            where = next((i for i, old in enumerate(listed) if old.get("id") == entry["id"]), None)
            if where is None:
                listed.append(entry)
            else:
                listed[where] = {**listed[where], **entry}
        merged[key] = listed
    return merged


def clear_caches() -> None:
    """Forget every table and catalog read (after changing GMKIT_DATA_PATH in a kernel)."""
    table.cache_clear()
    game_data.cache_clear()
    actions.cache_clear()
    turn_actions.cache_clear()


def name_of(entry: Mapping[str, Any]) -> str:
    """The English name of a catalog entry (its id when it has none); its Spanish is in the
    catalogs (an old file's ``name: {en, es}`` reads its ``en``)."""
    raw = entry.get("name", entry.get("id", ""))
    if isinstance(raw, Mapping):
        return str(raw.get("en", entry.get("id")))
    return str(raw)


def source_term(game: str, source: str) -> Message:
    """A modifier's source named in a data file ("Aim (half)"): ``<game>.modifier.<slug>``."""
    return Message.term(f"{game}.modifier.{slug(source)}", source)


def _listed(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    return tuple(str(item) for item in (value if isinstance(value, list) else [value]))


@dataclass(frozen=True, slots=True)
class ModifierSpec:
    """A modifier as data: its value, the tests it touches and the flags it needs or shuns."""

    value: int
    source: Message
    tests: frozenset[str] = frozenset({"attack"})
    when: frozenset[str] = frozenset()
    unless: frozenset[str] = frozenset()

    def applies(self, test: str, flags: AbstractSet[str], *, attack: bool = True) -> bool:
        """Whether it touches ``test`` (an attack's test when ``attack``) under ``flags``."""
        hit = "all" in self.tests or test in self.tests or (attack and "attack" in self.tests)
        return hit and self.when <= flags and not self.unless & flags

    def modifier(self, value: int | None = None) -> Modifier:
        return Modifier(self.source, self.value if value is None else value)


def specs(raw: Any, source: Message, where: str, game: str) -> tuple[ModifierSpec, ...]:
    """Modifier specs from a YAML list; ``source`` is the default source (the name of what
    gives them); a spec's own ``source`` is a term of ``game``'s (``source_term``)."""
    found: list[ModifierSpec] = []
    for item in raw or []:
        if not isinstance(item, Mapping) or "value" not in item or set(item) - _SPEC_KEYS:
            raise GmkitError(Message("imperial.data.bad_modifier", where=where))
        named = item.get("source")
        found.append(
            ModifierSpec(
                int(item["value"]),
                source if named is None else source_term(game, str(named)),
                frozenset(_listed(item.get("test", "attack"))),
                frozenset(_listed(item.get("when"))),
                frozenset(_listed(item.get("unless"))),
            )
        )
    return tuple(found)


Effects = tuple[tuple[str, Any], ...]


def effects_of(raw: Any) -> Effects:
    """``[key, {key: value}]`` -> ((key, True), (key, value))."""
    found: list[tuple[str, Any]] = []
    for item in raw or []:
        pairs = item.items() if isinstance(item, Mapping) else [(str(item), True)]
        found.extend((str(key), value) for key, value in pairs)
    return tuple(found)


@dataclass(frozen=True, slots=True)
class AttackSpec:
    """How an action attacks (actions.yaml ``attack``)."""

    test: str = "weapon"
    mode: str = "weapon"
    modes: tuple[str, ...] = ()
    requires: frozenset[str] = frozenset()
    modifiers: tuple[ModifierSpec, ...] = ()
    jam: str | None = None
    opposed: str | None = None
    can_dodge: bool = True
    can_parry: bool = True
    called_location: str | None = None
    armour_doubled: bool = False
    min_distance: float | None = None
    max_distance: str | None = None
    grapple: bool = False
    talent_attacks: Mapping[str, int] = field(default_factory=dict)


def _attack(raw: Any, source: Message, where: str, game: str) -> AttackSpec | None:
    if raw is None:
        return None
    return AttackSpec(
        test=str(raw.get("test", "weapon")),
        mode=str(raw.get("mode", "weapon")),
        modes=_listed(raw.get("modes")),
        requires=frozenset(_listed(raw.get("requires"))),
        modifiers=specs(raw.get("modifiers"), source, where, game),
        jam=raw.get("jam"),
        opposed=raw.get("opposed"),
        can_dodge=bool(raw.get("can_dodge", True)),
        can_parry=bool(raw.get("can_parry", True)),
        called_location=raw.get("called_location"),
        armour_doubled=bool(raw.get("armour_doubled", False)),
        min_distance=raw.get("min_distance"),
        max_distance=raw.get("max_distance"),
        grapple=bool(raw.get("grapple", False)),
        talent_attacks={str(k): int(v) for k, v in (raw.get("talent_attacks") or {}).items()},
    )


@dataclass(frozen=True, slots=True)
class Preparation:
    """What an action does to the actor's next attack (actions.yaml ``next_attack``)."""

    modifiers: tuple[ModifierSpec, ...] = ()
    can_dodge: bool = True
    can_parry: bool = True
    braced: bool = False
    only_actions: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class ActionOption:
    """A choice within an action: the grapple options of the controller and the grappled."""

    id: str
    name: str
    role: str
    type: str
    attack: AttackSpec | None
    effects: Effects
    label: Message  # the option's name, a term of the game's catalog


@dataclass(frozen=True)
class Action:
    """One combat action: its type(s), subtypes, attack, preparation and effects."""

    id: str
    name: str
    game: str
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    test: str | None = None
    attack: AttackSpec | None = None
    next_attack: Mapping[str, Preparation] = field(default_factory=dict)
    options: Mapping[str, ActionOption] = field(default_factory=dict)
    effects: Effects = ()
    requires_condition: str | None = None
    weapon: bool = False  # taken on one of the actor's weapons (Reload, Clear Jam)
    target: bool = False  # taken on another combatant (Move into melee)
    gm_modifier: bool = False  # the GM may make its test easier or harder (Put Out Fire)
    test_modifier: int = 0  # the modifier of a non-attack action's test (Put Out Fire)
    removes: str | None = None  # the condition a passed test ends (Put Out Fire: on_fire)

    @property
    def label(self) -> Message:
        """The action's name: a term of the game's catalog (its English the file's name)."""
        return Message.term(f"{self.game}.action.{self.id}", self.name)

    @property
    def types_named(self) -> tuple[Message, ...]:
        return tuple(action_type(kind) for kind in self.types)

    @property
    def is_attack(self) -> bool:
        return "attack" in self.subtypes

    def effect(self, key: str) -> Any:
        """The value of effect ``key`` (True for a bare key), None if the action lacks it."""
        return next((value for name, value in self.effects if name == key), None)

    def preparation(self, kind: Any) -> Preparation | None:
        """What the action does to the next attack when taken as ``kind`` (half, full, True)."""
        return self.next_attack.get(str(kind)) or self.next_attack.get("any")


def _action(raw: Mapping[str, Any], game: str) -> Action:
    action_id = str(raw["id"])
    name = name_of(raw)
    label = Message.term(f"{game}.action.{action_id}", name)
    where = f"{game}/actions.yaml {action_id}"
    next_attack = {
        str(kind): Preparation(
            modifiers=specs(spec.get("modifiers"), label, where, game),
            can_dodge=bool(spec.get("can_dodge", True)),
            can_parry=bool(spec.get("can_parry", True)),
            braced=bool(spec.get("braced", False)),
            only_actions=frozenset(_listed(spec.get("only_actions"))),
        )
        for kind, spec in (raw.get("next_attack") or {}).items()
    }
    options = {}
    for item in raw.get("options") or []:
        option_id = str(item["id"])
        option_label = Message.term(f"{game}.action.{action_id}.{option_id}", name_of(item))
        source = Message("imperial.action_with_option", action=label, option=option_label)
        options[option_id] = ActionOption(
            option_id,
            name_of(item),
            str(item.get("role", "")),
            str(item.get("type", "")),
            _attack(item.get("attack"), source, where, game),
            effects_of(item.get("effects")),
            option_label,
        )
    return Action(
        id=action_id,
        name=name,
        game=game,
        types=_listed(raw.get("type")),
        subtypes=_listed(raw.get("subtypes")),
        test=raw.get("test"),
        attack=_attack(raw.get("attack"), label, where, game),
        next_attack=next_attack,
        options=options,
        effects=effects_of(raw.get("effects")),
        requires_condition=raw.get("requires_condition"),
        weapon=bool(raw.get("weapon", False)),
        target=bool(raw.get("target", False)),
        gm_modifier=bool(raw.get("gm_modifier", False)),
        test_modifier=int(raw.get("test_modifier", 0)),
        removes=raw.get("removes"),
    )


@cache
def actions(game: str) -> Mapping[str, Action]:
    """Every action of ``game`` by id, in the file's order."""
    data = game_data(check_game(game), "actions")
    return {str(raw["id"]): _action(raw, game) for raw in data.get("actions", [])}


@cache
def turn_actions(game: str) -> Mapping[str, Action]:
    """The actions of the turn the texts give outside 004's list (actions.yaml
    ``turn_actions``: Clear Jam, Put Out Fire), by id."""
    data = game_data(check_game(game), "actions")
    return {str(raw["id"]): _action(raw, game) for raw in data.get("turn_actions", [])}


def action(game: str, action_id: str) -> Action:
    """Action ``action_id`` of ``game``, or a RulesError naming the field ``action``."""
    found = actions(game).get(action_id)
    if found is None:
        known = tuple(actions(game))
        raise refuse(
            "action", Message("imperial.unknown_action", action=repr(action_id), known=known)
        )
    return found


def jam_from(game: str, kind: str | None, qualities: Iterable[str]) -> int | None:
    """The natural roll from which an attack jams: ``kind`` single or burst, None for none."""
    if kind is None or kind == "none":
        return None
    jams = game_data(game, "actions")["jams"]
    held = {quality.partition("(")[0] for quality in qualities}
    if held & set(jams.get("no_jam_qualities", [])):
        return None
    for quality, threshold in jams.get("qualities", {}).items():
        if quality in held:
            return int(threshold)
    return int(jams[kind])
