"""WFRP 2e critical hits: the GM's table when there is one, else a prompt for the GM.

Seed 002 says a hit that takes the wounds below zero is a critical hit, that the GM rolls on
a table for its severity, and that a survivor counts as having zero wounds; the table is not in
the seed (nor in any seed: the seeds README's ruling). So:

- The packaged ``criticals.yaml`` is THE FORMAT only: its rows are placeholders
  (``placeholder: true``) and never apply: a critical read on it rolls nothing and comes back
  with a :class:`CriticalPrompt` (the critical value, the location, the wounds lost) and a note
  asking the GM for the effect: its text, and any condition or death it causes (which the GM
  then applies through the encounter: a condition, ``dead``...).
- A table of the GM's replaces the prompt: a YAML file of the same format with
  ``placeholder: false`` (or none), given by its path (:func:`load_critical_table`; the
  attack option ``critical_table``), or dropped at ``GMKIT_DATA_PATH/wfrp2/criticals.yaml``.
  ``examples/criticals/wfrp2_example.yaml`` shows one; the format is documented in the
  packaged file. A value or a d100 the GM's table has no row for also asks the GM.
- Death: 002 gives no death threshold of its own (no wound count kills): a critical kills only
  when its effect says so (the GM's table row's ``{kind: condition, condition: dead}``, or the
  GM's answer to the prompt). The critical value is capped at the table's ``max_value``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast, get_args

import yaml

from gmkit.dice import DiceSource, DieRoll
from gmkit.errors import GmkitError
from gmkit.messages import Message, Text
from gmkit.systems._percentile import location_class, location_name
from gmkit.systems._tables import table
from gmkit.systems.base import Effect, EffectKind, Step
from gmkit.systems.wfrp2._terms import numbered

GAME = "wfrp2"
CRITICALS = f"{GAME}/criticals.yaml"


@dataclass(frozen=True, slots=True)
class CriticalPrompt:
    """A critical hit no table gives the effect of: what the GM needs to give it."""

    target: str  # the character hit
    value: int  # the critical value (how far below zero, + Precise; at most the table's cap)
    location: str  # the location hit (gmkit's key: head, right_arm...)
    wounds_lost: int | None = None  # the hit's wounds lost, when known

    @property
    def note(self) -> Message:
        """The question to the GM, in the GM's language."""
        return Message(
            "wfrp2.critical.prompt",
            name=self.target,
            value=self.value,
            location=location_name(self.location),
        )


@dataclass(frozen=True, slots=True)
class Critical:
    """A critical hit: the value, the d100, the result, its effects; ``prompt`` when no table
    gives its effect (the GM does)."""

    value: int
    location: str
    roll: DieRoll | None
    result: int | None
    text: Text
    effects: tuple[Effect, ...]
    steps: tuple[Step, ...]
    prompt: CriticalPrompt | None = None


def _checked(data: Any, file: str) -> dict[str, Any]:
    if not isinstance(data, dict) or not isinstance(data.get("max_value"), int):
        raise GmkitError(Message("wfrp2.criticals.not_a_table", file=file))
    for key in ("chart", "results"):
        if not isinstance(data.get(key) or [], list):
            raise GmkitError(Message("wfrp2.criticals.not_rows", file=file, key=key))
    return data


def load_critical_table(path: str | Path) -> dict[str, Any]:
    """The GM's critical table at ``path`` (the format of the packaged ``criticals.yaml``),
    checked; GmkitError naming the file when it is missing or malformed."""
    where = Path(path)
    if not where.is_file():
        raise GmkitError(Message("wfrp2.criticals.no_file", file=str(where)))
    try:
        data = yaml.safe_load(where.read_text(encoding="utf-8"))
    except yaml.YAMLError:
        raise GmkitError(Message("wfrp2.criticals.not_a_table", file=str(where))) from None
    return _checked(data, str(where))


def critical_table(path: str | Path | None = None) -> tuple[dict[str, Any], str]:
    """The table criticals are read on (the GM's file at ``path``, else the packaged one or
    its ``GMKIT_DATA_PATH`` replacement) and its name for messages."""
    if path:
        return load_critical_table(path), str(path)
    return _checked(table(GAME, "criticals"), CRITICALS), CRITICALS


def _effect(target: str, location: str, raw: Any, note_id: str, file: str) -> Effect:
    kinds = get_args(EffectKind)
    if not isinstance(raw, dict) or raw.get("kind") not in kinds:
        raise GmkitError(Message("wfrp2.criticals.effect_kind", file=file, kinds=kinds))
    fields: dict[str, Any] = {
        key: raw[key] for key in ("amount", "condition", "rounds") if key in raw
    }
    if "note" in raw:
        fields["note"] = Message.term(note_id, str(raw["note"]))
    return Effect(cast(EffectKind, raw["kind"]), target, location=location, **fields)


def result_id(result: int, location: str) -> str:
    """The id of a critical result's text in the catalogs (``wfrp2.critical.5_head``)."""
    return f"wfrp2.critical.{result}_{location}"


def _asked(
    prompt: CriticalPrompt, title: Message, outcome: Message, text: Message, roll: DieRoll | None
) -> Critical:
    """The critical as the GM's to give: its counter (``amount`` the value) noting the
    question, no other effect."""
    effect = Effect("critical", prompt.target, prompt.value, prompt.location, note=prompt.note)
    detail = Message("wfrp2.critical.asked", why=text, question=prompt.note)
    step = Step(title, outcome, detail, (roll,) if roll else ())
    return Critical(prompt.value, prompt.location, roll, None, text, (effect,), (step,), prompt)


def roll_critical(
    target: str,
    value: int,
    location: str,
    source: DiceSource,
    *,
    number: int | None = None,
    wounds_lost: int | None = None,
    table_path: str | Path | None = None,
) -> Critical:
    """A critical hit of ``value`` at ``location`` on ``target`` (see the module docstring):
    read on the GM's table (``table_path``, else the packaged one or its replacement); the
    critical effect (``amount`` the critical value) and the table's effects, or the prompt."""
    data, file = critical_table(table_path)
    capped = min(value, int(data["max_value"]))
    title = numbered(Message("wfrp2.step.critical"), number)
    prompt = CriticalPrompt(target, capped, location, wounds_lost)
    if data.get("placeholder"):
        outcome = Message(
            "wfrp2.outcome.critical_prompt", value=capped, location=location_name(location)
        )
        return _asked(prompt, title, outcome, Message("wfrp2.critical.no_table"), None)
    rows = [row for row in data.get("chart") or [] if row.get("value") == capped]
    if not rows:
        outcome = Message("wfrp2.outcome.critical", value=capped)
        return _asked(prompt, title, outcome, Message("wfrp2.critical.no_row", value=capped), None)
    die = source.roll_die(100, numbered(Message("wfrp2.die.critical"), number))
    row = next((r for r in rows if die.value <= int(r["upto"])), None)
    if row is None:
        outcome = Message("wfrp2.outcome.critical_no_result", value=capped, roll=die.value)
        return _asked(prompt, title, outcome, Message("wfrp2.critical.no_result"), die)
    result = int(row["result"])
    outcome = Message("wfrp2.outcome.critical_result", value=capped, roll=die.value, result=result)
    kind = location_class(location)
    found = [
        r
        for r in data.get("results") or []
        if r.get("result") == result and r.get("location") in (kind, location, "any")
    ]
    found.sort(key=lambda r: r.get("location") == "any")
    if not found:
        text = Message("wfrp2.critical.no_effect", result=result)
        asked = _asked(prompt, title, outcome, text, die)
        return Critical(capped, location, die, result, text, asked.effects, asked.steps, prompt)
    entry_id = result_id(result, str(found[0].get("location")))
    text = Message.term(entry_id, str(found[0].get("text", "")))
    effects = (
        Effect("critical", target, capped, location, note=text),
        *(
            _effect(target, location, raw, f"{entry_id}_note_{index}", file)
            for index, raw in enumerate(found[0].get("effects") or [], start=1)
        ),
    )
    step = Step(title, outcome, text, (die,))
    return Critical(capped, location, die, result, text, effects, (step,))


__all__ = [
    "CRITICALS",
    "Critical",
    "CriticalPrompt",
    "critical_table",
    "load_critical_table",
    "result_id",
    "roll_critical",
]
