"""What a GM types into a form, read and checked: a distance, a circumstance's value. Each
refusal is a :class:`FormError` whose message names the field and the problem."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gmkit.errors import GmkitError
from gmkit.messages import Message
from gmkit.systems.base import Choice


class FormError(GmkitError):
    """A selection the form refuses: not offered now, or not a valid value."""


def not_offered(what: str, value: str, offered: Iterable[str]) -> FormError:
    """``value`` of the field ``what`` is not among ``offered``."""
    return FormError(
        Message(
            "form.not_offered",
            what=Message(f"form.field.{what}"),
            value=repr(value),
            offered=tuple(offered),
        )
    )


def distance_value(distance: float | str | None) -> float | None:
    """A distance as typed ("12", "7,5", "" for none), never negative."""
    if isinstance(distance, str):
        text = distance.strip().replace(",", ".")
        if not text:
            return None
        try:
            distance = float(text)
        except ValueError:
            raise FormError(Message("form.distance_not_number", got=repr(distance))) from None
    if distance is not None and (distance != distance or distance < 0):
        raise FormError(Message("form.distance_negative", got=f"{distance:g}"))
    return None if distance is None else float(distance)


def check_circumstance(choice: Choice, value: Any) -> None:
    """``value`` fits ``choice``: True/False for a flag, a whole number, one of a choice's
    options (None or "" for none)."""
    if choice.kind == "flag" and not isinstance(value, bool):
        raise FormError(Message("form.flag_value", circumstance=choice.label, got=repr(value)))
    whole = isinstance(value, int) and not isinstance(value, bool)
    if choice.kind == "number" and value not in (None, "") and not whole:
        raise FormError(Message("form.number_value", circumstance=choice.label, got=repr(value)))
    if choice.kind == "choice" and value not in (None, "", *choice.options):
        raise FormError(
            Message(
                "form.choice_value",
                circumstance=choice.label,
                choices=choice.options,
                got=repr(value),
            )
        )


__all__ = ["FormError", "check_circumstance", "distance_value", "not_offered"]
