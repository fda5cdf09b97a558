"""The attack's test: hits, jams, extra hits by degrees of success; and the result's summary.

Shared by ordinary attacks (``resolve``) and the special ones (``resolve_special``): a test of
the setup's characteristic with its modifiers capped at +/-60 (004, step one), a jam on a
ranged attack whose natural roll is at or above ``setup.jam_from`` (an automatic failure,
004), and the hits the degrees of success buy: semi-auto one per two, full auto one per
degree, suppressing fire one per two (004), never beyond the cap the setup gives. No test is
rolled for an automatic failure (``setup.auto_fail``: a blinded shooter) or an automatic hit;
the failure wins when a setup has both (a blinded flamer cannot pick its target either).

A shot into melee (Dark Heresy, 001) that misses only because of the shooting-into-melee
penalty hits an ally engaged with the target instead (``circumstances.miss_hits_ally`` decides):
the test's step says so, naming the ally of the option ``engaged_ally`` (or "an ally engaged
with the target" without it), the summary says so, and a note effect on the named ally asks the
GM to resolve that hit (the request holds no sheet of the ally to roll it against).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from gmkit.messages import Message, Text
from gmkit.systems._imperial.circumstances import miss_hits_ally
from gmkit.systems._imperial.resolve_hit import Strike
from gmkit.systems._percentile import PercentileTest
from gmkit.systems.base import AttackResult, Effect, Step

SKILLS = {"WS": "Weapon Skill", "BS": "Ballistic Skill", "S": "Strength", "Ag": "Agility"}


def skill(key: str) -> Message:
    """A characteristic by its full name ("BS": Ballistic Skill, Habilidad de Proyectiles)."""
    if key in SKILLS:
        return Message(f"imperial.skill.{key}")
    return Message.verbatim(key)


def attack_title(key: str, attack: int | None = None) -> Message:
    """ "Ballistic Skill test", "Weapon Skill test (attack 2)"."""
    if attack is None:
        return Message("imperial.test.title", skill=skill(key))
    return Message("imperial.test.title_attack", skill=skill(key), attack=attack)


@dataclass(frozen=True, slots=True)
class Shot:
    """One attack test: its steps, the hits it scored, its degrees and its natural roll."""

    steps: tuple[Step, ...]
    hits: int = 0
    degrees: int = 0
    roll: int | None = None  # None: an automatic hit, no test rolled
    jammed: bool = False


def extra_hits(mode: str, degrees: int) -> int:
    """Extra hits bought by degrees of success: semi 1 per 2, full 1 per 1, suppressing 1 per 2."""
    if mode in ("semi", "suppressing"):
        return degrees // 2
    return degrees if mode == "full" else 0


def take_shot(strike: Strike, attack: int | None, cap: int) -> Shot:
    """The attack's test, its jam, and the hits it scores (at most ``cap``); ``attack`` is
    which of several melee attacks it is (None: the only one)."""
    setup = strike.setup
    strike.progress.test_hits = 0  # this test's hits: the first uses its degrees (Deathwatch)
    title = attack_title(setup.characteristic, attack)
    if setup.auto_fail:
        return Shot((Step(title, Message("imperial.test.auto_fail"), setup.auto_fail),))
    if setup.auto_hit:
        why = (
            Message("common.join", parts=setup.notes)
            if setup.notes
            else Message("imperial.test.no_test")
        )
        return Shot((Step(title, Message("imperial.test.auto_hit"), why),), 1)
    purpose = (
        Message("imperial.test.to_hit")
        if attack is None
        else Message("imperial.test.to_hit_attack", attack=attack)
    )
    test = strike.test(purpose)
    step = Step(title, "", test.explain(), (test.roll,), test.target, test.modifiers)
    jam = setup.jam_from
    if setup.characteristic == "BS" and jam is not None and test.value >= jam:
        detail = Message("imperial.test.jam_detail", test=test.explain(), value=test.value, jam=jam)
        return Shot((_with(step, Message("imperial.test.jammed"), detail),), jammed=True)
    if not test.success:
        ally = ally_hit(strike, test)
        if ally is not None:
            strike.progress.ally_hit = ally
            hits_ally = Message("imperial.test.miss_hits_ally", ally=ally)
            return Shot((_with(step, hits_ally),))
        return Shot((_with(step, Message("imperial.test.miss")),))
    hits = min(cap, 1 + extra_hits(setup.mode, test.degrees))
    outcome = (
        Message("imperial.test.hits", degrees=test.degrees, hits=hits)
        if hits > 1
        else Message("imperial.test.hit", degrees=test.degrees)
    )
    return Shot((_with(step, outcome),), hits, test.degrees, test.value)


def ally_hit(strike: Strike, test: PercentileTest) -> Message | None:
    """The ally a missed shot into melee hits instead (001), or None: the option
    ``engaged_ally`` names it; without it, "an ally engaged with the target"."""
    setup = strike.setup
    if setup.characteristic != "BS":
        return None
    if not miss_hits_ally(
        test.value,
        test.base,
        test.modifiers,
        game=strike.game,
        jam_from=setup.jam_from,
    ):
        return None
    named = getattr(strike.options, "engaged_ally", None)
    if named:
        return Message.verbatim(named)
    return Message("imperial.test.an_engaged_ally", target=strike.target.name)


def _with(step: Step, outcome: Text, detail: Text | None = None) -> Step:
    return replace(step, outcome=outcome, detail=step.detail if detail is None else detail)


def finish(strike: Strike, steps: list[Step], effects: list[Effect], hits: int) -> AttackResult:
    """The attack's result, with a one-line summary of what happened to the target."""
    attacker, target, weapon = strike.attacker.name, strike.target.name, strike.weapon.name
    names = {"attacker": attacker, "target": target, "weapon": weapon}
    summary: Message
    ally = strike.progress.ally_hit
    if any(effect.kind == "jam" for effect in effects):
        summary = Message("imperial.summary.jams", attacker=attacker, weapon=weapon)
    elif not hits and ally is not None:
        summary = Message("imperial.summary.ally_hit", **names, ally=ally)
        named = getattr(strike.options, "engaged_ally", None)
        if named:
            note = Message("imperial.test.ally_note", attacker=attacker, weapon=weapon)
            effects = [*effects, Effect("note", named, 1, note=note)]
    elif not hits:
        summary = Message("imperial.summary.miss", **names)
    else:
        times = (
            Message("imperial.summary.once")
            if hits == 1
            else Message("imperial.summary.times", hits=hits)
        )
        lost = sum(e.amount for e in effects if e.kind == "magnitude" and e.target == target)
        taken = sum(e.amount for e in effects if e.kind == "damage" and e.target == target)
        if strike.is_horde and lost:
            summary = Message("imperial.summary.horde", **names, times=times, lost=lost)
        elif strike.is_horde:
            summary = Message("imperial.summary.horde_unhurt", **names, times=times)
        else:
            summary = Message("imperial.summary.hits", **names, times=times, damage=taken)
    return AttackResult(strike.request, tuple(steps), tuple(effects), hits, summary)
