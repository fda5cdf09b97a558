"""What an attack did, as a GM says it aloud: hit or miss (or the reaction that stopped it),
and what it left on the combatants (pinned by suppressing fire, a minion dead).

Read from the attack's event alone (its ``hits``, its effects, the ``generic`` records of what
the encounter applied: :mod:`gmkit.encounter._effects`), so the GM's log line and the players'
line say the same thing; the players' line, under a wound band, never says how much
(:func:`~gmkit.encounter._views.told_to_players` keeps of the event only what these read).

- :func:`attack_outcome`: "hits", "hits 3 times", "misses", "Demagogue Ostrava parries",
  "the weapon jams", "no attack made".
- :func:`gained`: the conditions the attack put on others than its attacker that its own
  summary does not say: every condition when it wounded (a flamer's fire) or came after it
  (a minion's death), a pinning always; not the one an attack made only to give it (a Stun's
  stunned, a Feint's feinted: the summary says so), nor an injury (the D6 games' summaries
  name their injuries; the players' line under a wound band, which has no summary, says
  them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from gmkit.messages import Message

Event = Mapping[str, Any]
Named = Callable[[Any], str]

WOUNDING = frozenset({"damage", "critical", "injury", "magnitude"})
"""Effect kinds that wound: an attack dealing one of these (an amount above 0) wounded."""
PINNING = "pinned"
"""The effect kind of a failed pinning test (always said: no summary tells it)."""
REACTIONS = ("parry", "dodge")
"""The reactions an attack's ``reaction`` effect names (spent on a hit, whether it held)."""
TOLD_EFFECTS = frozenset({"reaction", "jam"})
"""The effect kinds :func:`attack_outcome` reads (what the players' line keeps of them)."""


def records(value: Any) -> Iterator[Mapping[str, Any]]:
    """The records of an event's list (``effects``, ``generic``); none from a damaged one."""
    if isinstance(value, list):
        yield from (item for item in value if isinstance(item, Mapping))


def attack_outcome(event: Event, name: Named) -> Message | None:
    """Hit or miss, in a word or two (None for an event from before ``hits`` was kept).

    No hits with the target's reaction spent: the reaction held ("parries", "dodges": a
    reaction is spent only on a hit). ``made`` (the players' line) or the event's rolls say
    whether the attack was made at all (an overwatch only set, a shot the rules refused)."""
    if "hits" not in event:
        return None
    effects = list(records(event.get("effects")))
    if any(effect.get("kind") == "jam" for effect in effects):
        return Message("encounter.outcome.jams")
    hits = int(event.get("hits") or 0)
    if hits == 1:
        return Message("encounter.outcome.hit")
    if hits > 1:
        return Message("encounter.outcome.hits", hits=hits)
    target = event.get("target")
    for effect in effects:
        reaction = effect.get("condition")
        held = effect.get("kind") == "reaction" and effect.get("target") == target
        if held and reaction in REACTIONS:
            return Message(f"encounter.outcome.{reaction}", name=name(target))
    if not event.get("made", bool(event.get("rolls"))):
        return Message("encounter.outcome.not_made")
    return Message("encounter.outcome.misses")


def stopped(event: Event) -> bool:
    """Whether the attack's hits were all stopped by the target's reaction (its summary then
    reads as a miss: the line says the parry or dodge instead)."""
    outcome = attack_outcome(event, str)
    return outcome is not None and outcome.id in {f"encounter.outcome.{r}" for r in REACTIONS}


def gained(event: Event, *, injuries: bool = False) -> list[tuple[str, str]]:
    """(combatant id, condition) of each condition the attack left that its summary does not
    say (see the module docstring), once each, in the order applied; with ``injuries``, the
    injuries too (the players' line under a wound band, which has no summary: "Rotgut:
    down")."""
    attacker = event.get("attacker")
    effects = list(records(event.get("effects")))
    wounded = any(
        effect.get("kind") in WOUNDING and _amount(effect.get("amount")) > 0 for effect in effects
    )
    primary = {
        (effect.get("target"), effect.get("condition"))
        for effect in effects
        if effect.get("kind") == "condition"
    }
    found: list[tuple[str, str]] = []
    for record in records(event.get("generic")):
        kind, target, condition = record.get("kind"), record.get("target"), record.get("condition")
        kinds = ("condition", PINNING, "injury") if injuries else ("condition", PINNING)
        if kind not in kinds or not condition or target == attacker:
            continue
        if kind == "condition" and not wounded and (target, condition) in primary:
            continue  # what the attack was made for: its summary says it
        pair = (str(target), str(condition))
        if pair not in found:
            found.append(pair)
    return found


def _amount(value: Any) -> float:
    return float(value) if isinstance(value, int | float) else 0.0


def consequences(event: Event, name: Named, condition: Callable[[str], Message]) -> list[Message]:
    """What the line adds to the attack's outcome: each condition :func:`gained`
    by combatant ("Nob Gritfang: pinned", "Rotgut: pinned, down"), and the hidden attacker it
    gave away (``reveals``)."""
    by_target: dict[str, list[Message]] = {}
    for target, key in gained(event):
        lowered = Message("encounter.outcome.condition", condition=condition(key))
        by_target.setdefault(target, []).append(lowered)
    said = [
        Message("encounter.outcome.conditions", name=name(target), conditions=tuple(found))
        for target, found in by_target.items()
    ]
    revealed = event.get("reveals") or ()
    said += [Message("encounter.event.revealed", name=name(ident)) for ident in revealed]
    return said


__all__ = [
    "REACTIONS",
    "TOLD_EFFECTS",
    "WOUNDING",
    "attack_outcome",
    "consequences",
    "gained",
    "records",
    "stopped",
]
