"""Conditions of Dark Heresy and Deathwatch: their modifiers, limits and durations, as data.

``conditions.yaml`` of each game lists them (its header documents the fields): 004's
conditions (stunned, pinned, prone, on fire, blood loss, unconscious, grappled, fatigued,
helpless, surprised, unaware, blinded, deafened, the lost limbs, a useless limb, dead) and the
states actions leave on their actor until the start of their next turn (All Out Attack,
Defensive Stance, Guarded Attack, Running...; ``gains`` in actions.yaml).

A request carries the combatants' conditions in its standings
(``request.attacker_standing.conditions``, ``request.target_standing.conditions``: what the
encounter knows of them); ``attack_setup`` adds
those its circumstances name (``target_prone``...) and, for an attacker whose sheet has any
fatigue, ``fatigued``. Each condition counts once however it is named; a name may add what it
is about after a colon, as the encounter keeps a jam (``"jammed: Lasgun"``: that weapon cannot
fire, ``attack_setup`` refuses it).

The rules name a condition only through ``gain`` and ``lose``, which refuse an id the game's
catalog does not define: one vocabulary for the rules, the data and the encounter (resolve's
grappled/grappling, feinted, prone, stunned, on_fire; pinned and jammed from fire discipline,
a horde's broken; unconscious and dead from the effects; the critical tables' own), so that a
typo in the rules' code or data fails loudly. The functions taking ids (``condition_modifiers``,
``flags_of``, ``bearer_modifiers``...) refuse an unknown one too.

The names a combatant bears are the GM's as well ("behind the pews"): ``request_conditions``
reads only the ids the catalog knows and ``not_rule_conditions`` the other names (notes), which
``attack_setup`` shows as a warning ("not a rule condition: ..."); they never refuse an attack.

The game's condition book (:mod:`.kinds`: each condition's endings as a ``ConditionKind``)
tells the encounter when one ends (``gmkit.encounter._rounds`` ticks them); ``reminders`` lists
what the GM must roll or decide then (on fire, blood loss, the pinned Willpower test); those
that roll are the rolls due of ``acting_dues`` (``success``, ``gains``... say what they do).

Choices where the texts are silent:

- Stunned counts down at the end of the bearer's turn, so "stunned for 1 round" always costs
  the bearer one turn, whoever acts first. Surprise lasts the first round (ends with it).
- On fire: the damage and the fatigue come at the end of each round; the Willpower test to act
  normally at the start of the bearer's turn (004 says "each round" and "each turn").
- Blood loss: the 10 % death chance is rolled at the end of each round.
- Pinned: the recovery test is at the end of the turn in Deathwatch (004), at the start in
  Dark Heresy (001). Prone follows each text (see the data files).
- Unconscious and surprised combatants are unaware (+30 to attacks against them); unconscious
  and dead ones are helpless as well.
- A lost eye lowers BS by 10 *on the sheet* (a reminder, not a modifier, so it is never
  counted twice); the other lost limbs are reminders the GM applies (-20 to tests needing both
  hands, halved movement) except a lost leg's "cannot Dodge", which is applied.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cache
from typing import Any

from gmkit.messages import Message, Text, render
from gmkit.systems._conditions import Carries
from gmkit.systems._imperial.actions import (
    ModifierSpec,
    check_game,
    game_data,
    name_of,
    refuse,
    specs,
)
from gmkit.systems._imperial.circumstances import condition_ids
from gmkit.systems.base import AttackRequest, Effect, EffectKind, Modifier

WHEN = ("start_of_turn", "end_of_turn", "end_of_round", "on_gain")
EVENT_ENDINGS = ("when_acts", "after_attack", "when_hit")  # a condition's ``ends`` in the data
PASSED_BY = ("sealed_armour",)  # what a reminder's test may be passed by without a die


@dataclass(frozen=True, slots=True)
class Reminder:
    """Something the GM rolls or decides for a condition at a moment of the round."""

    condition: str
    when: str
    text: Message  # a term of the game's catalog: ``<game>.reminder.<condition>.<when>``
    roll: str | None = None  # a dice expression: "1d10"
    chance: int | None = None  # a percentage: 10
    test: str | None = None  # "WP +0"
    success: str | None = None  # what a passed test does: "lose" (the condition ends)
    gains: str | None = None  # the condition a chance that comes up gives: "dead"
    damage: str | None = None  # the damage type a roll deals: "Energy"
    location: str = "body"  # where that damage lands
    ignores: frozenset[str] = frozenset()  # what does not reduce it: armour, toughness
    fatigue: int = 0  # levels of fatigue the roll's moment adds
    bonus: int | None = None  # a test's easier variant the GM may pick instead (+30)
    passed_by: str | None = None  # what passes the test without a die: "sealed_armour"

    @property
    def message(self) -> Message:
        """ "pinned: Willpower test to recover..." (the condition by its id)."""
        return Message("imperial.reminder", condition=self.condition, text=self.text)

    def render(self, language: str = "en") -> str:
        return render(self.message, language)

    def __str__(self) -> str:
        return self.render()


@dataclass(frozen=True)
class Condition:
    """One condition: duration, ticking, modifiers to and against its bearer, limits."""

    id: str
    name: str
    game: str
    duration: str
    ticks: str | None
    bearer: tuple[ModifierSpec, ...]
    against: tuple[ModifierSpec, ...]
    flags: frozenset[str]
    only_actions: frozenset[str]
    auto_fail: frozenset[str]
    reminders: tuple[Reminder, ...]
    ended_by: frozenset[str] = frozenset()  # actions that end it when its bearer takes them
    # what it carries after a colon: one of the values it takes ("aimed: half"/"full"), or a
    # weapon's name ("jammed: Lasgun"); None: nothing (the GM's words after it make a note)
    carries: Carries | None = None
    ends: frozenset[str] = frozenset()  # what else ends it: when_acts, after_attack, when_hit
    kept_by: frozenset[str] = frozenset()  # the actions a ``when_acts`` one outlasts

    def takes(self, payload: str) -> bool:
        """Whether ``payload`` (what follows the colon) is something this condition carries
        (``Carries.read``, the parse of ``gmkit.systems._conditions``): a name with another
        payload is the GM's own words, no condition of the rules."""
        return not payload or (self.carries is not None and self.carries.read(payload) is not None)

    @property
    def label(self) -> Message:
        """The condition's name: a term of the game's catalog (its English the file's)."""
        return Message.term(f"{self.game}.condition.{self.id}", self.name)


def _condition(raw: Mapping[str, Any], game: str) -> Condition:
    condition_id = str(raw["id"])
    name = name_of(raw)
    label = Message.term(f"{game}.condition.{condition_id}", name)
    where = f"{game}/conditions.yaml {condition_id}"
    reminders = []
    for item in raw.get("reminders") or []:
        if item.get("when") not in WHEN:
            problem = Message("imperial.condition.reminder_when", where=where, whens=WHEN)
            raise refuse("conditions", problem)
        if item.get("passed_by") not in (None, *PASSED_BY):
            problem = Message("imperial.condition.passed_by", where=where, known=PASSED_BY)
            raise refuse("conditions", problem)
        reminders.append(
            Reminder(
                condition_id,
                str(item["when"]),
                Message.term(
                    f"{game}.reminder.{condition_id}.{item['when']}", str(item.get("text", ""))
                ),
                item.get("roll"),
                item.get("chance"),
                item.get("test"),
                item.get("success"),
                item.get("gains"),
                item.get("damage"),
                str(item.get("location", "body")),
                frozenset(item.get("ignores") or ()),
                int(item.get("fatigue", 0)),
                item.get("bonus"),
                item.get("passed_by"),
            )
        )
    return Condition(
        id=condition_id,
        name=name,
        game=game,
        duration=str(raw.get("duration", "until_removed")),
        ticks=raw.get("ticks"),
        bearer=specs(raw.get("bearer"), label, where, game),
        against=specs(
            raw.get("against"),
            Message("imperial.source.target_condition", condition=label),
            where,
            game,
        ),
        flags=frozenset(raw.get("flags") or ()),
        only_actions=frozenset(raw.get("only_actions") or ()),
        auto_fail=frozenset(raw.get("auto_fail") or ()),
        reminders=tuple(reminders),
        ended_by=frozenset(raw.get("ended_by") or ()),
        carries=_carries(raw.get("carries"), where),
        ends=_ends(raw.get("ends"), where),
        kept_by=frozenset(raw.get("kept_by") or ()),
    )


def _carries(raw: Any, where: str) -> Carries | None:
    if raw is None or raw == "weapon":
        return None if raw is None else Carries(weapon=True)
    if isinstance(raw, str):
        problem = Message("imperial.condition.carries", where=where, weapon="weapon")
        raise refuse("conditions", problem)
    return Carries(values=tuple(str(value) for value in raw))


def _ends(raw: Any, where: str) -> frozenset[str]:
    if not set(raw or ()) <= set(EVENT_ENDINGS):
        problem = Message("imperial.condition.ends", where=where, known=EVENT_ENDINGS)
        raise refuse("conditions", problem)
    return frozenset(str(item) for item in raw or ())


@cache
def conditions(game: str = "deathwatch") -> Mapping[str, Condition]:
    """Every condition of ``game`` by id."""
    data = game_data(check_game(game), "conditions")
    return {str(raw["id"]): _condition(raw, game) for raw in data.get("conditions", [])}


def condition(game: str, condition_id: str, field_name: str = "conditions") -> Condition:
    """Condition ``condition_id`` of ``game``, or a RulesError naming ``field_name``."""
    found = conditions(game).get(condition_id)
    if found is None:
        known = tuple(conditions(game))
        problem = Message("imperial.condition.unknown", condition=repr(condition_id), known=known)
        raise refuse(field_name, problem)
    return found


def gain(
    game: str,
    target: str,
    condition_id: str,
    rounds: int | None = None,
    *,
    note: Text = "",
    location: str | None = None,
    weapon: str | None = None,
    kind: EffectKind = "condition",
) -> Effect:
    """The effect giving ``target`` condition ``condition_id`` (RulesError if ``game`` has none).

    ``kind`` is ``condition`` but for a failed pinning test (``pinned``).
    """
    condition(game, condition_id, "condition")
    return Effect(
        kind, target, location=location, condition=condition_id, rounds=rounds, weapon=weapon,
        note=note,
    )  # fmt: skip


def lose(game: str, target: str, condition_id: str, *, weapon: str | None = None) -> Effect:
    """The effect lifting condition ``condition_id`` from ``target``."""
    condition(game, condition_id, "condition")
    return Effect("remove_condition", target, condition=condition_id, weapon=weapon)


def checked(
    game: str, ids: Iterable[str] | None, field_name: str = "conditions"
) -> tuple[Condition, ...]:
    """The conditions ``ids`` name, each once, in order; RulesError for an unknown id.

    A name may say what it is about after a colon (``"jammed: Lasgun"``, as the encounter keeps
    a jam): the id is what comes before it (``about`` splits the two).
    """
    if isinstance(ids, str):
        raise refuse(field_name, Message("imperial.condition.not_a_list", given=repr(ids)))
    unique = dict.fromkeys(about(str(item))[0] for item in ids or ())
    return tuple(condition(game, item, field_name) for item in unique)


def about(name: str) -> tuple[str, str]:
    """(id, what it is about) of a condition's name: ``"jammed: Lasgun"`` -> (jammed, Lasgun)."""
    head, _, tail = name.partition(":")
    return head.strip(), tail.strip()


def jammed_weapons(names: Iterable[str] | None) -> frozenset[str]:
    """The weapons (lower case) that the conditions ``names`` say are jammed."""
    found = (about(str(name)) for name in names or ())
    return frozenset(what.casefold() for key, what in found if key == "jammed" and what)


def flags_of(game: str, ids: Iterable[str] | None) -> frozenset[str]:
    """Every flag the conditions ``ids`` carry (no_actions, no_reactions, helpless...)."""
    found: set[str] = set()
    for item in checked(game, ids):
        found |= item.flags
    return frozenset(found)


def condition_modifiers(
    conditions_of_attacker: Iterable[str] | None,
    conditions_of_target: Iterable[str] | None,
    *,
    test: str = "WS",
    game: str = "deathwatch",
    flags: AbstractSet[str] = frozenset(),
) -> list[Modifier]:
    """Modifiers the combatants' conditions give an attack tested on ``test`` (WS, BS, S...).

    The attacker's own conditions weigh on their test ("Fatigued -10", "Prone -10"); the
    target's on attacks against it ("Target stunned +20"). ``flags`` are the attack's
    (``point_blank`` spares a prone target's -10 to BS in Deathwatch).
    """
    found = [
        spec.modifier()
        for item in checked(game, conditions_of_attacker, "options['attacker_conditions']")
        for spec in item.bearer
        if spec.applies(test, flags)
    ]
    found += [
        spec.modifier()
        for item in checked(game, conditions_of_target, "options['target_conditions']")
        for spec in item.against
        if spec.applies(test, flags)
    ]
    return found


def bearer_modifiers(
    ids: Iterable[str] | None, test: str, *, game: str = "deathwatch", attack: bool = False
) -> list[Modifier]:
    """Modifiers the bearer's conditions give its own ``test`` (a Dodge, a Parry, a WP...)."""
    return [
        spec.modifier()
        for item in checked(game, ids)
        for spec in item.bearer
        if spec.applies(test, frozenset(), attack=attack)
    ]


def reminders(active: Iterable[str], when: str, *, game: str = "deathwatch") -> list[Reminder]:
    """What the GM must roll or decide at ``when`` for the conditions ``active``."""
    return [r for item in checked(game, active) for r in item.reminders if r.when == when]


SIDES = ("attacker", "target")


def split_names(
    game: str, names: Iterable[str] | None, field_name: str = "conditions"
) -> tuple[list[str], list[str]]:
    """(the ids of ``game``'s conditions among ``names``, the other names), each once, in order.

    A name may say what it is about after a colon (``"jammed: Lasgun"``: the id jammed). A
    string instead of a list is refused (RulesError naming ``field_name``).
    """
    if isinstance(names, str):
        raise refuse(field_name, Message("imperial.condition.not_a_list", given=repr(names)))
    catalog = conditions(game)
    ids: dict[str, None] = {}
    others: dict[str, None] = {}
    for item in names or ():
        text = str(item)
        key, payload = about(text)
        if key in catalog and catalog[key].takes(payload):
            ids[key] = None
        else:  # the GM's own words ("aimed: at the door"): a note the rules ignore
            others[text] = None
    return list(ids), list(others)


def standing_names(request: AttackRequest, side: str) -> tuple[str, ...]:
    """The names the encounter says ``side`` ("attacker" or "target") bears."""
    standing = request.attacker_standing if side == "attacker" else request.target_standing
    return standing.conditions


def not_rule_conditions(request: AttackRequest, game: str) -> list[tuple[str, str]]:
    """(side, name) of each name on the combatants (their standings' conditions) that is no
    condition of ``game``'s catalog: the GM's own ("behind the pews"), or another game's word.
    The rules ignore them."""
    return [
        (side, name)
        for side in SIDES
        for name in split_names(
            game, standing_names(request, side), f"options['{side}_conditions']"
        )[1]
    ]


def request_conditions(request: AttackRequest, game: str) -> tuple[list[str], list[str]]:
    """Condition ids on (the attacker, the target).

    From the standings' names (those the catalog knows: ``not_rule_conditions`` lists the
    others, which are ignored), the circumstances that name a condition, and the attacker's
    sheet (any fatigue: ``fatigued``), each once.
    """
    attacker, _ = split_names(
        game, standing_names(request, "attacker"), "options['attacker_conditions']"
    )
    target, _ = split_names(game, standing_names(request, "target"), "options['target_conditions']")
    from_attacker, from_target = condition_ids(game, request.circumstances)
    if getattr(request.attacker, "fatigue", 0):
        from_attacker.add("fatigued")
    attacker += sorted(from_attacker - set(attacker))
    target += sorted(from_target - set(target))
    return attacker, target
