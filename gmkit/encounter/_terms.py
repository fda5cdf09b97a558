"""The encounter's words for what its state names by key: conditions, effect kinds, the phases
of the sides games' turns, the wound bands players see.

A key stays a key in the state (``"stunned"``, ``"jammed: Lasgun"``, ``"close combat"``);
these give the message a text shows it with. A condition kept by the id of the game's catalog
(the 40k games' ``"on_fire"``) shows by the catalog's name (On fire, En llamas); one the
catalogs name apart (``<game>.condition_name.<key>``: WFRP's ``"defensive_stance"``, kept by
the id its catalog writes as its English) by that name (Defensive Stance, Postura defensiva);
one kept by its English name (``"out of action"``) shows as the state holds it, in Spanish the
game's term where the catalogs have one made from that same English; any other key as it is (a
GM's own condition).
"""

from __future__ import annotations

import re

from gmkit.messages import Message, catalogs
from gmkit.systems._conditions import Note, book
from gmkit.systems.turns import ACTION_TYPES, action_type_name

BANDS = ("unhurt", "hurt", "bloodied", "down")
"""The wound bands of :func:`gmkit.encounter._views.wound_band`."""


def _slug(key: str) -> str:
    return re.sub(r"\W+", "_", key.strip().lower()).strip("_")


def _known(message_id: str) -> bool:
    return catalogs().english(message_id) is not None


def condition_name(game: str, key: str) -> Message:
    """A condition's name (see the module docstring; ``jammed: <weapon>``, the encounter's
    own, names the weapon)."""
    named = f"{game}.condition_name.{key}"
    if _known(named):  # an id the catalog keeps as the key itself: its name ("Defensive Stance")
        return Message(named)
    term = f"{game}.condition.{key}"
    english = catalogs().english(term)
    if english is not None and english != key:  # an id of the game's catalog ("on_fire")
        return Message.term(term, english)  # shown by its name: "On fire", "En llamas"
    for term in (f"{game}.condition.{key}", f"{game}.condition.{_slug(key)}"):
        if _known(term):
            return Message.term(term, key)
    kind, _, weapon = key.partition(": ")
    if kind == "jammed" and weapon:
        return Message("encounter.condition.jammed", weapon=weapon)
    if weapon:  # "aimed: half": the condition and what it is of, in words, not the key
        of = action_type_name(weapon) if weapon in ACTION_TYPES else Message.named(weapon)
        return Message("encounter.condition.of", condition=condition_name(game, kind), of=of)
    return Message.verbatim(key)


def known_conditions(game: str) -> tuple[str, ...]:
    """The conditions the game declares (``systems.conditions``), as the state keeps them
    ("stunned", "out of action", "on_fire"), in the order its rules weigh them. A panel offers
    them; the GM may still type a condition of their own, which is a note
    (:func:`condition_note`)."""
    return tuple(book(game).kinds)


def condition_note(game: str, name: str) -> Message | None:
    """Why ``name`` is a note no rule of ``game`` reads (a name the game does not declare, or a
    payload its condition does not carry: ``"aimed: at the door"``), or None for a condition of
    the game."""
    found = book(game).of(name)
    return found.why if isinstance(found, Note) else None


def action_name(game: str, key: str) -> Message:
    """An action of the game's data by its id ("aim": the data's name, Aim, Apuntar), else the
    key as it is (an action the GM named)."""
    term = f"{game}.action.{key}"
    english = catalogs().english(term)
    return Message.term(term, english) if english is not None else Message.verbatim(key)


def effect_kind_name(kind: str) -> Message:
    """An effect's kind ("damage": damage, daño); a kind gmkit does not know, as it is."""
    found = f"encounter.effect_kind.{kind}"
    return Message(found) if _known(found) else Message.verbatim(kind)


def phase_name(phase: str) -> Message:
    """A phase of a sides game's turn ("close combat": close combat, combate cuerpo a cuerpo);
    its English is the turn structure's name."""
    found = "encounter.phase." + re.sub(r"\W+", "_", phase.strip().lower())
    return Message.term(found, phase) if _known(found) else Message.verbatim(phase)


def band_name(band: str) -> Message:
    """A wound band as players read it ("bloodied": bloodied, malherido)."""
    return Message(f"encounter.band.{band}") if band in BANDS else Message.verbatim(band)


__all__ = [
    "BANDS",
    "action_name",
    "band_name",
    "condition_name",
    "condition_note",
    "effect_kind_name",
    "known_conditions",
    "phase_name",
]
