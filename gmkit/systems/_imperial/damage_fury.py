"""Righteous Fury: a natural 10 on a damage die, its confirmation, and what it adds.

The rules are data (``systems/data/<game>/righteous_fury.yaml``):

- Dark Heresy (001): a confirmed Fury adds the weapon's damage again to that hit; the added roll
  may call it again, confirmation included. 001's house rule (the 2nd-edition beta), chosen with
  the option ``righteous_fury_house_rule``: no confirmation, the target takes 1d5
  critical damage past armour and Toughness Bonus, its wounds unchanged.
- Deathwatch (004): a confirmed Fury adds one more damage die; while each added die shows a
  natural 10 another one is added without a new test. Against a helpless target two natural
  10s confirm it without a test.

Choices where the texts are silent:

- One hit calls Fury once, however many of its dice show 10 (two 10s on a 2d10 are one chance).
- A confirmation is the attack's test again with the same characteristic and modifiers (004
  says so; 001 says "another WS or BS test"). A confirmation roll that would jam does not jam.
- The house rule's critical damage is rolled on a plain d5 (not a damage die: no Fury of its
  own) and comes once per hit, whatever the number of 10s.
- Extra damage from Fury is part of the hit's damage: armour and Toughness reduce it as usual.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gmkit.dice import DiceSource, roll
from gmkit.messages import Message, Text
from gmkit.systems._imperial.damage import DamageRoll, DamageRules, roll_extra_die
from gmkit.systems._imperial.terms import hit_label
from gmkit.systems._percentile import PercentileTest
from gmkit.systems._tables import table
from gmkit.systems.base import Step


@dataclass(frozen=True, slots=True)
class FuryRules:
    """A game's Righteous Fury (``righteous_fury.yaml``)."""

    confirm: bool = True
    on_confirm: str = "extra_die"  # "extra_die" (004) or "weapon_damage" (001)
    chain: bool = True
    chain_confirms: bool = False
    auto_confirm_tens: int = 0  # natural 10s that confirm without a test (helpless; 0: never)
    max_chain: int = 20
    house_rule_critical: str | None = None  # the house rule's critical damage, if the game has it

    @classmethod
    def of(cls, game: str) -> FuryRules:
        data: Mapping[str, Any] = table(game, "righteous_fury") or {}
        house = data.get("house_rule") or {}
        return cls(
            confirm=bool(data.get("confirm", True)),
            on_confirm=str(data.get("on_confirm", "extra_die")),
            chain=bool(data.get("chain", True)),
            chain_confirms=bool(data.get("chain_confirms", False)),
            auto_confirm_tens=int(data.get("auto_confirm_tens", 0) or 0),
            max_chain=int(data.get("max_chain", 20)),
            house_rule_critical=house.get("critical_damage") if house else None,
        )


@dataclass(frozen=True, slots=True)
class Fury:
    """What Righteous Fury made of one hit."""

    steps: tuple[Step, ...] = ()
    extra_damage: int = 0  # added to the hit's damage (then reduced by armour and TB)
    critical: int = 0  # the house rule's critical damage, past armour and TB

    @property
    def called(self) -> bool:
        return bool(self.steps)


Confirm = Callable[[Text], PercentileTest]
Reroll = Callable[[Text], DamageRoll]


def righteous_fury(
    damage: DamageRoll,
    rules: FuryRules,
    source: DiceSource,
    *,
    confirm: Confirm,
    reroll: Reroll,
    damage_rules: DamageRules | None = None,
    helpless: bool = False,
    house_rule: bool = False,
    label: Message | None = None,
    fury: Text = "Righteous Fury",
) -> Fury:
    """Righteous Fury for one hit's ``damage`` roll, if a natural 10 calls it.

    ``confirm(purpose)`` rolls the attack's test again; ``reroll(purpose)`` rolls the weapon's
    damage again (001). ``label`` names the hit ("hit 1"), ``fury`` the game's name for it
    (``terms.fury``).
    """
    if not damage.tens:
        return Fury()
    label = label or hit_label(1)
    title = Message("imperial.fury.title", fury=fury, hit=label)
    if house_rule and rules.house_rule_critical:
        purpose = Message("imperial.fury.critical_die", fury=fury, hit=label)
        rolled = roll(rules.house_rule_critical, source, purpose)
        step = Step(
            title,
            Message("imperial.fury.critical", amount=rolled.total),
            Message("imperial.fury.house_rule"),
            rolls=rolled.dice,
        )
        return Fury((step,), 0, rolled.total)
    steps: list[Step] = []
    automatic = bool(
        helpless and rules.auto_confirm_tens and damage.tens >= rules.auto_confirm_tens
    )
    extra = 0
    needs_test = rules.confirm and not automatic
    for round_number in range(1, rules.max_chain + 1):
        if needs_test:
            test = confirm(Message("imperial.fury.confirmation_die", fury=fury, hit=label))
            if not test.success:
                outcome = Message("imperial.fury.not_confirmed")
                steps.append(Step(title, outcome, test.explain(), (test.roll,), test.target))
                break
            outcome = Message("imperial.fury.confirmed")
            steps.append(Step(title, outcome, test.explain(), (test.roll,), test.target))
        elif round_number == 1 and automatic:
            detail = Message("imperial.fury.helpless", tens=damage.tens)
            steps.append(Step(title, Message("imperial.fury.confirmed"), detail))
        purpose = Message("imperial.fury.damage_die", fury=fury, hit=label)
        added, tens, rolls, detail = _add(damage, rules, source, reroll, damage_rules, purpose)
        extra += added
        steps.append(Step(title, Message("imperial.fury.added", added=added), detail, rolls))
        if not (rules.chain and tens):
            break
        needs_test = rules.chain_confirms
    return Fury(tuple(steps), extra, 0)


def _add(
    damage: DamageRoll,
    rules: FuryRules,
    source: DiceSource,
    reroll: Reroll,
    damage_rules: DamageRules | None,
    purpose: Message,
) -> tuple[int, int, tuple[Any, ...], Message]:
    """Roll what a confirmed Fury adds: (damage, natural 10s, dice, explanation)."""
    if rules.on_confirm == "weapon_damage":
        again = reroll(purpose)
        detail = Message("imperial.fury.weapon_again", roll=again.explain())
        return again.total, again.tens, again.rolls, detail
    die = roll_extra_die(damage.first_sides, source, purpose, damage_rules)
    ten = 1 if die.natural_ten else 0
    detail = Message("imperial.fury.extra_die", sides=die.sides, die=str(die))
    return die.reads, ten, (die.roll,), detail
