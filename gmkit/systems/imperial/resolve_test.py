"""The attack's test: hits, jams, extra hits by degrees of success; and the result's summary.

Shared by ordinary attacks (``resolve``) and the special ones (``resolve_special``): a test of
the setup's characteristic with its modifiers capped at +/-60 (004, step one), a jam on a
ranged attack whose natural roll is at or above ``setup.jam_from`` (an automatic failure,
004), and the hits the degrees of success buy: semi-auto one per two, full auto one per
degree, suppressing fire one per two (004), never beyond the cap the setup gives. No test is
rolled for an automatic failure (``setup.auto_fail``: a blinded shooter) or an automatic hit;
the failure wins when a setup has both (a blinded flamer cannot pick its target either).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from gmkit.systems.base import AttackResult, Effect, Step
from gmkit.systems.imperial.resolve_hit import Strike

SKILLS = {"WS": "Weapon Skill", "BS": "Ballistic Skill", "S": "Strength", "Ag": "Agility"}


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


def take_shot(strike: Strike, label: str, cap: int) -> Shot:
    """The attack's test, its jam, and the hits it scores (at most ``cap``)."""
    setup = strike.setup
    title = f"{SKILLS.get(setup.characteristic, setup.characteristic)} test{label}"
    if setup.auto_fail:
        return Shot((Step(title, "automatic failure", setup.auto_fail),))
    if setup.auto_hit:
        return Shot((Step(title, "automatic hit", "; ".join(setup.notes) or "no test"),), 1)
    test = strike.test(f"to hit{label}")
    step = Step(title, "", test.explain(), (test.roll,), test.target, test.modifiers)
    jam = setup.jam_from
    if setup.characteristic == "BS" and jam is not None and test.value >= jam:
        detail = f"{test.explain()}; a natural {test.value} jams at {jam}+"
        return Shot((_with(step, "jammed: the attack fails", detail),), jammed=True)
    if not test.success:
        return Shot((_with(step, "miss"),))
    hits = min(cap, 1 + extra_hits(setup.mode, test.degrees))
    outcome = f"hit, {test.degrees} degrees of success" + (f": {hits} hits" if hits > 1 else "")
    return Shot((_with(step, outcome),), hits, test.degrees, test.value)


def _with(step: Step, outcome: str, detail: str | None = None) -> Step:
    return replace(step, outcome=outcome, detail=step.detail if detail is None else detail)


def finish(strike: Strike, steps: list[Step], effects: list[Effect], hits: int) -> AttackResult:
    """The attack's result, with a one-line summary of what happened to the target."""
    attacker, target, weapon = strike.attacker.name, strike.target.name, strike.weapon.name
    if any(effect.kind == "jam" for effect in effects):
        summary = f"{attacker}'s {weapon} jams"
    elif not hits:
        summary = f"{attacker} fails to hit {target} with {weapon}"
    else:
        times = "once" if hits == 1 else f"{hits} times"
        summary = f"{attacker} hits {target} {times} with {weapon}"
        lost = sum(e.amount for e in effects if e.kind == "magnitude" and e.target == target)
        if strike.is_horde:
            summary += f": magnitude -{lost}" if lost else ": no magnitude lost"
        else:
            taken = sum(e.amount for e in effects if e.kind == "damage" and e.target == target)
            summary += f": {taken} damage"
    return AttackResult(strike.request, tuple(steps), tuple(effects), hits, summary)
