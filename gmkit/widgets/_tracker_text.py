"""The tracker's texts, worked out from the encounter's state alone: a row's HTML (acted
mark, name, side, wounds; budget and markers on a second line), a row's condition chips, the
header and the reminders, the order of the rows and who acts now. Rendered in the current
language (:data:`~gmkit.widgets._i18n.LANGUAGE`); no rule of a game is decided here.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping

from gmkit.encounter import Combatant, EncounterState, Trigger
from gmkit.encounter._situation import budget_left
from gmkit.encounter._terms import condition_name, condition_note, phase_name
from gmkit.games import health
from gmkit.messages import Message
from gmkit.systems.turns import TurnStructure, pool_name
from gmkit.widgets._i18n import LANGUAGE, t, words
from gmkit.widgets._tracker_row import Chip


def chips(game: str, combatant: Combatant) -> tuple[Chip, ...]:
    chips = []
    for name, condition in combatant.conditions.items():
        shown = condition_name(game, name)
        label = (  # each chip capitalised: "Stunned", "Pinned" ("pinned" is a key), "On fire"
            words(Message("widgets.condition_chip_plain", condition=shown))
            if condition.rounds is None
            else words(Message("widgets.condition_chip", condition=shown, rounds=condition.rounds))
        )
        tip = words(Message("widgets.remove_condition", condition=shown))
        note = condition_note(game, name)
        if note is not None:  # the GM's words, no rule's: marked, and why on hover
            label = words(Message("widgets.condition_chip_note", chip=label))
            tip = f"{tip} ({words(note)})"
        reminder = words(condition.reminder)
        chips.append((name, label, f"{tip} ({reminder})" if reminder else tip))
    return tuple(chips)


def ordered(structure: TurnStructure, state: EncounterState) -> list[Combatant]:
    """Present combatants: by the order once started (initiative), by score before; by
    side in turn order (sides games); the rest in the order they joined."""
    present = state.present
    if structure.kind == "sides":
        rank = {side: n for n, side in enumerate(state.sides)}
        return sorted(present, key=lambda c: rank.get(c.side, len(rank)))
    if state.started:
        placed = {ident: n for n, ident in enumerate(state.order)}
        return sorted(present, key=lambda c: placed.get(c.id, len(placed)))
    return sorted(present, key=lambda c: (c.initiative is None, -(c.initiative or 0)))


def acting(state: EncounterState) -> set[str]:
    """Who may act now: the current actor, or every member of the current side."""
    if state.current is not None:
        return {state.current.id}
    side = state.current_side
    if side is None:
        return set()
    return {c.id for c in state.present if c.side == side}


def row_html(
    structure: TurnStructure,
    state: EncounterState,
    combatant: Combatant,
    triggers: Mapping[str, list[Trigger]],
) -> str:
    """The row's text: a place for the acted mark (the row's ``gmkit-done`` class shows it),
    name, side and wounds; the budget (shown for whoever acts now), reactions and markers on a
    second line. It depends on the combatant alone (and the round, for surprise), not on whose
    turn it is or who has acted, so a turn change leaves it as it was."""
    first = [
        _cell("gmkit-acted", ""),
        _cell("gmkit-name", html.escape(combatant.name), combatant.name),
        _cell("gmkit-side", html.escape(combatant.side), combatant.side),
    ]
    left, total = health(combatant.sheet, combatant.counters)
    label = t("magnitude") if getattr(combatant.sheet, "horde", None) else t("wounds")
    wounds_css = "gmkit-wounds gmkit-down" if left <= 0 else "gmkit-wounds"
    wounds = f"<span class='gmkit-label'>{html.escape(label)}</span> {left}/{total}"
    first.append(_cell(wounds_css, wounds))
    second = []
    if state.started:
        budget = budget_left(structure, state, combatant)  # under its conditions (pinned: 1)
        actions = _pools(
            structure.turn_pools, {p: n - budget[p] for p, n in structure.turn_pools.items()}
        )
        second.append(_cell("gmkit-budget", f"{html.escape(t('actions_left'))} {actions}"))
        reactions = reactions_text(structure, combatant)
        if reactions:
            spent = any(combatant.reactions.get(pool) for pool in structure.round_pools)
            css = "gmkit-reactions gmkit-spent" if spent else "gmkit-reactions"
            second.append(_cell(css, reactions))
    badges = badges_html(state, combatant, triggers.get(combatant.id, ()))
    if badges:
        second.append(_cell("gmkit-badges", badges))
    line = "gmkit-line gmkit-hidden" if combatant.hidden else "gmkit-line"
    return (
        f"<div class='{line}'><div class='gmkit-line1'>{''.join(first)}</div>"
        f"<div class='gmkit-line2'>{''.join(second)}</div></div>"
    )


def reactions_text(structure: TurnStructure, combatant: Combatant) -> str:
    """Reactions left this round ('' in games without reactions)."""
    if not structure.round_pools:
        return ""
    left = _pools(structure.round_pools, combatant.reactions)
    return f"{html.escape(t('reactions_left'))} {left}"


def badges_html(state: EncounterState, combatant: Combatant, triggers: Iterable[Trigger]) -> str:
    badges = []
    if combatant.hidden:
        badges.append(_badge(t("hidden"), "gmkit-secret"))
    if combatant.surprised and state.round == 1:
        badges.append(_badge(t("surprised"), "gmkit-marker"))
    if combatant.delayed:
        badges.append(_badge(t("delayed"), "gmkit-marker"))
    if combatant.readied:
        badges.append(_badge(f"{t('readied')}: {combatant.readied}", "gmkit-marker"))
    for trigger in triggers:
        text = trigger.kind + (f": {trigger.detail}" if trigger.detail else "")
        if trigger.expires_round is not None:
            text += f" (≤ {t('round')} {trigger.expires_round})"
        badges.append(_badge(text, "gmkit-marker"))
    return "".join(badges)


def header_html(structure: TurnStructure, state: EncounterState) -> str:
    """Round and whose turn (or side and phase); the budget is on the actor's row."""
    round_text = str(state.round) if state.started else "–"
    parts = [f"{html.escape(t('round'))} <span class='gmkit-now'>{round_text}</span>"]
    current = state.current
    if current is not None:
        name = html.escape(current.name)
        parts.append(f"{html.escape(t('turn'))}: <span class='gmkit-now'>{name}</span>")
    if state.current_side is not None:
        side = html.escape(state.current_side)
        parts.append(f"{html.escape(t('side'))}: <span class='gmkit-now'>{side}</span>")
        if structure.phases:
            phase = html.escape(words(phase_name(structure.phases[state.phase])))
            parts.append(f"{html.escape(t('phase'))}: <span class='gmkit-now'>{phase}</span>")
    return " · ".join(parts)


def reminders_html(state: EncounterState) -> str:
    """What the last turn change asks the GM to do, as a list ('' for nothing)."""
    if not state.reminders:
        return ""
    texts = state.reminder_texts(LANGUAGE.value)
    items = "".join(f"<li>{html.escape(text)}</li>" for text in texts)
    return (
        f"<div class='gmkit-reminders'><b>{html.escape(t('reminders'))}</b><ul>{items}</ul></div>"
    )


def _cell(css: str, content: str, title: str = "") -> str:
    tip = f" title='{html.escape(title, quote=True)}'" if title else ""
    return f"<span class='gmkit-cell {css}'{tip}>{content}</span>"


def _badge(text: str, css: str, title: str = "") -> str:
    tip = f" title='{html.escape(title, quote=True)}'" if title else ""
    return f"<span class='gmkit-badge {css}'{tip}>{html.escape(text)}</span>"


def _pools(pools: Mapping[str, int], used: Mapping[str, int]) -> str:
    """``2/2`` for one pool; ``move 1/1, shoot 0/1`` for several."""
    if len(pools) == 1:
        ((pool, total),) = pools.items()
        return f"{total - used.get(pool, 0)}/{total}"
    return ", ".join(
        f"{html.escape(words(pool_name(pool)))} {total - used.get(pool, 0)}/{total}"
        for pool, total in pools.items()
    )


__all__ = [
    "acting",
    "badges_html",
    "chips",
    "header_html",
    "ordered",
    "reactions_text",
    "reminders_html",
    "row_html",
]
