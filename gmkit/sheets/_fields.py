"""Field validators and annotated types the game sheets share.

- Whole numbers: ``Whole`` refuses true/false (pydantic would read them as 1 and 0);
  ``ranged(low, high)`` refuses what is outside ``low..high`` with "must be from low to high".
  Together: ``Annotated[Whole, ranged(0, 10)]``.
- ``at_most("other")``: a value may not exceed a field validated before it (``"secondary.W"``
  reaches into a nested model); ``fill_absent`` lets an absent field default to another's value.
- D6 rolls: ``D6Save`` reads "4+", 4 and "4.0" (a CSV cell) as 4 and "-", "none" or "" as None.
- Strength: a number 1..10, ``"user"`` or ``"user+N"`` / ``"user-N"``; ``resolve_strength``
  gives its value in the hands of a model of a given Strength.
- Names: ``unique("sheets.weapon_twice")`` refuses a list that holds a name twice
  (case-insensitive), naming the repeat: "weapon 'Laspistol' appears twice".

Every refusal is a :class:`Refusal`: a ``ValueError`` (pydantic reports it on its field) that
carries its text as a :class:`~gmkit.messages.Message`, which
:func:`gmkit.sheets._problems.sheet_error` keeps, so a refused sheet reads in the GM's language.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ValidationInfo

from gmkit.errors import GmkitError
from gmkit.messages import Message
from gmkit.messages._catalog import catalogs, fields_of


class Refusal(GmkitError, ValueError):
    """A value a sheet refuses, its reason a message (``refusal.message``).

    A ``ValueError``, so pydantic reports it on the field it was raised for, and code that
    catches ``ValueError`` (a range band asked of a negative distance) still does.
    """

    def __init__(self, message: Message) -> None:
        super().__init__(message)


def whole(value: Any) -> Any:
    """Before-validator: refuse true/false where a whole number is wanted."""
    if isinstance(value, bool):
        raise Refusal(Message("sheets.not_true_false"))
    return value


def ranged(low: int, high: int) -> AfterValidator:
    """A validator refusing integers outside ``low..high`` with a message naming the range."""

    def check(value: int) -> int:
        if not low <= value <= high:
            raise Refusal(Message("sheets.from_to", low=low, high=high))
        return value

    return AfterValidator(check)


Whole = Annotated[int, BeforeValidator(whole)]
"""An integer that refuses true/false; annotate it with ``ranged(low, high)`` for its range."""


def at_most(
    limit: str, message: str = "sheets.cannot_exceed", *, full_follows: bool = True
) -> AfterValidator:
    """A validator refusing a value above the field ``limit`` (validated before this one).

    ``limit`` may be dotted (``"secondary.W"``: the nested model's W); ``message`` is the id of
    the refusal, whose text may name ``{name}`` (the last part of ``limit``) and ``{limit}``
    (its value). Without the limit (it was refused on its own field) the value passes: the
    refusal is already reported.

    The bound is also what ``edit()`` reads to let the value follow its limit (see
    :func:`follow_limits`): a value at its limit stays at it (a full clip stays full) when
    ``full_follows``, and a value above a lowered limit comes down to it.
    """
    first, *rest = limit.split(".")
    named = fields_of(catalogs().english(message) or "")

    def check(value: int, info: ValidationInfo) -> int:
        bound = info.data.get(first)
        for part in rest:
            bound = getattr(bound, part, None)
        if bound is not None and value > bound:
            given = {"name": limit.rpartition(".")[2], "limit": bound}
            raise Refusal(Message(message, **{k: v for k, v in given.items() if k in named}))
        return value

    check.limit = limit  # type: ignore[attr-defined]
    check.full_follows = full_follows  # type: ignore[attr-defined]
    return AfterValidator(check)


def limits_of(model: type[BaseModel]) -> Iterator[tuple[str, str, bool]]:
    """``(field, limit, full_follows)`` for each field of ``model`` bounded by :func:`at_most`."""
    for name, info in model.model_fields.items():
        for item in info.metadata:
            limit = getattr(getattr(item, "func", None), "limit", None)
            if isinstance(limit, str):
                yield name, limit, bool(item.func.full_follows)


def follow_limits(
    model: type[BaseModel], before: dict[str, Any], after: dict[str, Any], changed: set[str]
) -> dict[str, Any]:
    """``after`` (an edit of ``before``) with each bounded field the edit did not name following
    its changed limit: at the old limit it moves to the new one (``full_follows``), above the
    new one it comes down to it. Lowering a clip to 4 empties a full clip of 6 to 4."""
    result = dict(after)
    for name, limit, full_follows in limits_of(model):
        if name in changed or limit.split(".")[0] not in changed:
            continue
        old, new, value = (
            _count(x) for x in (_dig(before, limit), _dig(after, limit), before.get(name))
        )
        if old is None or new is None or value is None or new < 0:
            continue  # a refused limit is reported on its own field
        if (full_follows and value == old) or value > new:
            result[name] = new
    return result


def _count(value: Any) -> int | None:
    """A whole number as a GM types it (20, "20"); None for anything else (True is not 1)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def _dig(data: Any, path: str) -> Any:
    for part in path.split("."):
        data = data.get(part) if isinstance(data, dict) else None
    return data


def fill_absent(data: Any, field: str, source: str, default: Any = None) -> Any:
    """For a before-validator: ``data`` with an absent ``field`` taking ``source``'s value.

    ``loaded`` absent means a full clip: ``fill_absent(data, "loaded", "clip", 0)``. The value
    is copied as given, so ``field`` then validates (and is refused) on its own.
    """
    if isinstance(data, dict) and field not in data:
        return {**data, field: data.get(source, default)}
    return data


# --- D6 rolls and Strength ------------------------------------------------------------------

_D6 = re.compile(r"([0-9]+)(?:\.0*)?\+?")  # "4+", "4", "4.0"


def d6_target(value: Any) -> Any:
    """Before-validator: "4+" (or 4, or "4.0") as 4; "-", "none" and "" as None."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("", "-", "none"):
            return None
        if match := _D6.fullmatch(text):
            return int(match[1])
        raise Refusal(Message("sheets.d6_roll"))
    return whole(value)


D6Target = Annotated[int, ranged(2, 6)]
"""A D6 roll needed, 2..6 (a 1 always fails)."""
D6Save = Annotated[D6Target | None, BeforeValidator(d6_target)]
"""An armour save: the D6 roll needed as the rules print it ("4+"), or None."""

_STRENGTH = re.compile(r"user(?:([+-])([0-9]))?")


def read_strength(value: Any) -> Any:
    """Before-validator: a Strength as a number 1..10 or "user", "user+N", "user-N"."""
    if isinstance(value, str):
        text = value.replace(" ", "").lower()
        if text.isdigit():
            return int(text)
        match = _STRENGTH.fullmatch(text)
        if not match:
            raise Refusal(Message("sheets.strength_text"))
        sign, amount = match.groups()
        return "user" if not amount or amount == "0" else f"user{sign}{amount}"
    value = whole(value)
    if isinstance(value, int) and not 1 <= value <= 10:
        raise Refusal(Message("sheets.strength_range"))
    return value


Strength = Annotated[int | str, BeforeValidator(read_strength)]
"""A weapon's Strength: a number, ``"user"`` or ``"user+N"`` (``"user-N"``)."""


def resolve_strength(strength: int | str, user: int) -> int:
    """A weapon's Strength in the hands of a model of Strength ``user``."""
    if isinstance(strength, int):
        return strength
    return user + int(strength.removeprefix("user") or 0)


def weapon_strengths(weapons: Iterable[Any], user: int) -> dict[str, int]:
    """Each weapon's name -> its Strength with "user" resolved against ``user``."""
    return {weapon.name: resolve_strength(weapon.strength, user) for weapon in weapons}


# --- names ------------------------------------------------------------------------------------


def check_unique(items: Iterable[Any], message: str = "sheets.twice") -> None:
    """Refuse a name (a string, or an item's ``name``) listed twice, case-insensitively;
    ``message`` is the refusal's id (its text names the repeat as ``{name}``)."""
    seen: set[str] = set()
    for item in items:
        name = item if isinstance(item, str) else item.name
        if name.casefold() in seen:
            raise Refusal(Message(message, name=repr(name)))
        seen.add(name.casefold())


def unique(message: str = "sheets.twice") -> AfterValidator:
    """A validator refusing a list that names something twice (``message`` as in
    :func:`check_unique`: ``"sheets.weapon_twice"`` says what the list holds)."""

    def check(items: list[Any]) -> list[Any]:
        check_unique(items, message)
        return items

    return AfterValidator(check)
