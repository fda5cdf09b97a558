"""HTML for the attack panel: formatting only, from the rules' values (steps, modifiers)."""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence

from gmkit.dice import DieRoll
from gmkit.encounter._terms import condition_name, effect_kind_name
from gmkit.messages import Message, Text, catalogs, render
from gmkit.systems._percentile import location_name
from gmkit.systems.base import AttackResult, Effect, Modifier, Step
from gmkit.systems.offers import Preview
from gmkit.widgets._i18n import LANGUAGE, named, t

_E = html.escape


def _T(text: Text) -> str:
    """A message in the panel's language, escaped for HTML."""
    return html.escape(render(text, LANGUAGE.value))


def label(key: str, english: str) -> str:
    """The label ``key`` in the current language; ``english`` until i18n holds the key."""
    found = t(key)
    return english if found == key else found


def _rolls(rolls: Iterable[DieRoll]) -> str:
    return " ".join(
        f"<span title='{_T(roll.purpose)}'>{roll.die}={roll.value}{'*' if roll.physical else ''}"
        "</span>"
        for roll in rolls
    )


def _modifiers(modifiers: Sequence[Modifier]) -> str:
    return ", ".join(_E(modifier.render(LANGUAGE.value)) for modifier in modifiers)


def needs(preview: Preview) -> str:
    """What the roll must show: "53 or less on d100", "7+ on D6", "no roll"."""
    if preview.target is None:
        return label("no_roll", "no roll")
    if preview.die == "d100":
        return f"{preview.target} {label('or_less', 'or less')} (d100)"
    return f"{preview.target}+ (D6)"


def preview_html(
    preview: Preview | None, problem: Text, modifiers_seen: Sequence[Step], refused: bool = False
) -> str:
    """The modifiers listed and totalled before the dice, or from the resolved steps; the
    problem (``refused``: the rules refuse the attack, not a choice still to make)."""
    title = _E(t("modifiers"))
    if problem:
        if refused:
            shown = _E(label("refused", "Refused by the rules"))
        else:
            shown = _E(label("cannot_resolve", "Cannot resolve yet"))
        return f"<div class='gmkit-problem'><b>{shown}:</b> {_T(problem)}</div>"
    if preview is None:
        if not modifiers_seen:
            after = label("modifiers_after", "shown from the steps once resolved")
            return f"<p><b>{title}:</b> {_E(after)}</p>"
        rows = "".join(
            f"<tr><td>{_T(step.title)}</td><td>{_modifiers(step.modifiers) or '-'}</td>"
            f"<td>{sum(m.value for m in step.modifiers):+d}</td>"
            f"<td>{'' if step.target is None else step.target}</td></tr>"
            for step in modifiers_seen
        )
        return (
            f"<p><b>{title}</b></p><table class='gmkit-table gmkit-preview'><tr><th></th>"
            f"<th>{title}</th><th>{_E(t('total'))}</th><th>{_E(label('needed', 'Needed'))}</th>"
            f"</tr>{rows}</table>"
        )
    rows = (
        "".join(
            f"<tr><td>{_T(modifier.source)}</td><td>{modifier.value:+d}</td></tr>"
            for modifier in preview.modifiers
        )
        or f"<tr><td colspan='2'>{_E(label('no_modifiers', 'no modifiers'))}</td></tr>"
    )
    capped = (
        f" ({label('uncapped', 'uncapped')} {preview.uncapped:+d})"
        if preview.uncapped != preview.total
        else ""
    )
    notes = "".join(f"<li>{_T(note)}</li>" for note in preview.notes)
    return (
        f"<p><b>{_T(preview.title)}</b>: {_T(preview.base)}</p>"
        f"<table class='gmkit-table gmkit-preview'>{rows}"
        f"<tr><th>{_E(t('total'))}</th><th>{preview.total:+d}{_E(capped)}</th></tr>"
        f"<tr><th>{_E(label('needed', 'Needed'))}</th><th>{_E(needs(preview))}</th></tr>"
        f"</table>" + (f"<ul class='gmkit-notes'>{notes}</ul>" if notes else "")
    )


def refused_html(title: str, refused: Mapping[str, Text], names: Mapping[str, Text]) -> str:
    """What is not offered, and why."""
    if not refused:
        return ""
    items = "".join(
        [f"<li><b>{_T(names.get(key, key))}</b>: {_T(why)}</li>" for key, why in refused.items()]
    )
    return (
        f"<details class='gmkit-refused'><summary>{_E(title)}</summary><ul>{items}</ul></details>"
    )


def steps_html(result: AttackResult | None) -> str:
    """The rules' explained steps, in order, with the dice and the numbers rolled against."""
    if result is None:
        return ""
    game = str(getattr(result.request.attacker, "game", ""))
    return result_html(result.steps, result.summary, result.effects, game)


def result_html(steps: Sequence[Step], summary: Text, effects: Sequence[Effect], game: str) -> str:
    """A resolution's summary, its explained steps and the effects it applies (an attack's,
    a non-attack action's, a roll due's)."""
    head = "".join(
        f"<th>{_E(text)}</th>"
        for text in (
            label("step", "Step"),
            t("outcome"),
            label("why", "Why"),
            t("dice"),
            label("needed", "Needed"),
        )
    )
    rows = "".join(
        f"<tr{' class=gmkit-note' if is_note(step) else ''}><td>{_T(step.title)}</td>"
        f"<td><b>{_T(step.outcome)}</b></td>"
        f"<td>{_T(step.detail)}{_unsaid_modifiers(step)}</td><td>{_rolls(step.rolls)}</td>"
        f"<td>{'' if step.target is None else step.target}</td></tr>"
        for step in in_reading_order(steps)
    )
    shown = "".join(f"<li>{_E(describe(effect, game))}</li>" for effect in effects)
    none = _E(label("no_effects", "nothing to apply"))
    return (
        f"<p class='gmkit-summary'><b>{_T(summary)}</b></p>"
        f"<table class='gmkit-table gmkit-steps'><tr>{head}</tr>{rows}</table>"
        f"<p><b>{_E(label('effects', 'Effects'))}</b></p>"
        f"<ul class='gmkit-effects'>{shown or f'<li>{none}</li>'}</ul>"
    )


def _unsaid_modifiers(step: Step) -> str:
    """A step's modifiers under its detail, unless the detail lists them already."""
    shown = _modifiers(step.modifiers)
    return f"<br><i>{shown}</i>" if shown and shown not in _T(step.detail) else ""


def is_note(step: Step) -> bool:
    """A step that only tells the GM something (the rules' "Note: ..." steps: a title whose
    message id ends in ``.note``, no dice, no number to roll against, no modifiers)."""
    title = step.title
    noted = isinstance(title, Message) and title.id.endswith(".note")
    return noted and not step.rolls and step.target is None and not step.modifiers


def in_reading_order(steps: Sequence[Step]) -> list[Step]:
    """The steps as the GM reads them: those that decide the attack first, in the rules' order,
    then the notes (the rules list an attack's notes before its dice)."""
    return [s for s in steps if not is_note(s)] + [s for s in steps if is_note(s)]


def describe(effect: Effect, game: str = "") -> str:
    """One effect in a line, in the GM's language: "damage 4 -> Ungor Snitch at right arm"."""
    parts: list[Text] = [effect_kind_name(str(effect.kind))]
    if effect.amount:
        parts.append(str(effect.amount))
    if effect.condition:
        parts.append(condition_name(game, effect.condition) if game else effect.condition)
    parts.append(f"-> {effect.target}")
    if effect.location:
        parts.append(Message("attack.effect.at", location=location_name(effect.location)))
    if effect.damage_type:
        kind = f"imperial.damage_type.{effect.damage_type}"
        known = catalogs().english(kind) is not None
        parts.append(f"({render(Message(kind) if known else effect.damage_type, LANGUAGE.value)})")
    if effect.weapon:
        parts.append(f"[{named(game, effect.weapon) if game else effect.weapon}]")
    if effect.rounds:
        parts.append(Message("attack.effect.rounds", rounds=effect.rounds))
    if effect.note:
        parts.append(Message("attack.effect.note", note=effect.note))
    return " ".join(render(part, LANGUAGE.value) for part in parts)


def prompt_html(prompt: str, typed: Sequence[str]) -> str:
    """The die the panel asks for, and what was typed so far."""
    if not prompt and not typed:
        return ""
    so_far = " ".join(typed) or "-"
    asked = f"<b>{_E(prompt)}</b><br>" if prompt else ""
    return (
        f"<div class='gmkit-prompt'>{asked}{_E(label('typed', 'Typed so far'))}: {_E(so_far)}</div>"
    )


def error_html(error: str, warnings: Sequence[str] = ()) -> str:
    shown = "".join(f"<div class='gmkit-warning'>{_E(w)}</div>" for w in warnings)
    if error:
        shown = f"<div class='gmkit-error' style='color:#b00020'><b>{_E(error)}</b></div>" + shown
    return shown
