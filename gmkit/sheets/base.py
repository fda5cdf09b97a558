"""What every game's character sheet shares: validation, derived values, errors, visibility.

Sheets are immutable pydantic models. An edit makes a new, validated sheet (``edit``); a
refused edit raises :class:`~gmkit.errors.SheetError` naming the character, the field and the
problem, and leaves the original untouched. Values the rules derive (bonuses, wounds left,
to-hit numbers) are properties, never stored, so a sheet can never disagree with itself.

Each field is public unless declared with ``gm_only()``: the player projection (DESIGN.md,
visibility) drops those.

Every problem of a refused sheet is a :class:`~gmkit.messages.Message`: a validator's own
(:class:`~gmkit.sheets._fields.Refusal`) or pydantic's, mapped by its error type to a message of
the ``sheets`` catalog whose English is pydantic's own text ("Field required"):
:mod:`gmkit.sheets._problems`.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from gmkit.errors import SheetError
from gmkit.messages import Message
from gmkit.plugins import known
from gmkit.sheets._fields import follow_limits
from gmkit.sheets._problems import sheet_error

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
"""A character's, weapon's or roster's name: not blank, at most 80 characters."""

Text = Annotated[str, StringConstraints(strip_whitespace=True, max_length=4000)]


def gm_only(default: Any = "", **kwargs: Any) -> Any:
    """A field the players never see (the GM's notes, a hidden stat)."""
    return Field(default, json_schema_extra={"visibility": "gm"}, **kwargs)


class Model(BaseModel):
    """Base of every sheet-level model: strict about unknown fields, immutable.

    ``build`` validates (a refusal is a :class:`~gmkit.errors.SheetError` naming the field);
    ``edit`` makes a validated copy, its bounded fields following their limits (lowering a
    weapon's clip lowers what is loaded, see :func:`~gmkit.sheets._fields.follow_limits`).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    @classmethod
    def build(cls, data: Mapping[str, Any] | None = None, /, **fields: Any) -> Self:
        """Validate ``data`` (and/or keyword fields), or raise SheetError."""
        merged = {**(data or {}), **fields}
        try:
            return cls.model_validate(merged)
        except ValidationError as error:
            raise sheet_error(merged, error) from None

    def edit(self, **changes: Any) -> Self:
        """A validated copy with ``changes`` applied; the original is never modified.

        A change to a nested profile may name only what changes
        (``edit(characteristics={"BS": 45})``); a list (weapons...) is replaced whole, and
        may name catalog entries. A field bounded by the one changed follows it: a full clip
        stays full, a value above a lowered limit comes down to it.
        """
        before = self.model_dump()
        data = dict(before)
        for key, value in changes.items():
            if isinstance(value, BaseModel):
                value = value.model_dump()
            if isinstance(value, Mapping) and isinstance(before.get(key), dict):
                merged = {**before[key], **value}
                inner = _nested_model(type(self), key)  # a horde's magnitude follows its max
                if inner is not None:
                    merged = follow_limits(inner, before[key], merged, set(value))
                value = merged
            data[key] = value
        return type(self).build(follow_limits(type(self), before, data, set(changes)))


def _nested_model(model: type[BaseModel], field: str) -> type[BaseModel] | None:
    """The model a field of ``model`` holds (``Horde | None`` -> Horde), if it holds one."""
    info = model.model_fields.get(field)
    candidates = [info.annotation] if info is not None else []
    while candidates:
        annotation = candidates.pop()
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return annotation
        candidates.extend(typing.get_args(annotation))
    return None


class Sheet(Model):
    """A character of one game. Subclasses set ``game`` to a ``Literal`` of their game id."""

    GAME_TITLE: ClassVar[str] = ""

    game: str
    name: Name
    side: Text = Field("", description="gang, party, warband or army the character fights for")
    notes: Text = gm_only(description="the GM's notes; never shown to players")

    @classmethod
    def build(cls, data: Mapping[str, Any] | None = None, /, **fields: Any) -> Self:
        """Validate ``data`` (and/or keyword fields) into a sheet, or raise SheetError.

        Catalog names stand for their entries: ``weapons=["Lasgun"]``, ``armour="Flak Vest"``
        (see :func:`gmkit.systems._references.expand_references`). ``npc="Tactical Marine"`` starts
        from the bestiary's entry, the other fields filling it in as :meth:`edit` does: a
        profile names only what differs (``characteristics={"WS": 45}``,
        ``unnatural={"T": 3}``), a list replaces the entry's, and a value bounded by one given
        follows it (a horde given a smaller ``magnitude_max`` is full at it).
        """
        from gmkit.systems._references import expand_references  # systems read sheets' models

        merged = {**(data or {}), **fields}
        if "game" not in merged and "game" in cls.model_fields:
            default = cls.model_fields["game"].default
            if isinstance(default, str):
                merged["game"] = default
        if isinstance(merged.get("npc"), str):
            filled = cls._filled_npc(merged)
            if filled is not None:
                return filled
        merged = expand_references(merged)
        try:
            return cls.model_validate(merged)
        except ValidationError as error:
            raise sheet_error(merged, error) from None

    @classmethod
    def _filled_npc(cls, data: Mapping[str, Any]) -> Self | None:
        """The bestiary's ``data["npc"]`` edited by the rest of ``data``; None when the game is
        not one the registry knows (the validation then says what is wrong)."""
        from gmkit.systems._bestiary import creature  # the bestiary reads sheets' models

        game = data.get("game")
        if not isinstance(game, str) or known(game) is None:
            return None
        changes = {key: value for key, value in data.items() if key not in ("npc", "game")}
        try:
            base = creature(game, str(data["npc"])).sheet
        except SheetError as error:  # named after the character being made
            raise SheetError(str(data.get("name") or data["npc"]), error.problems) from None
        if not isinstance(base, cls):
            return None
        return base.edit(**changes) if changes else base

    def edit_weapon(self, weapon: str, /, **changes: Any) -> Self:
        """A copy with the weapon named ``weapon`` edited (``clip=4``, ``name="Old Faithful"``);
        its other weapons as they were."""
        weapons = list(getattr(self, "weapons", ()))
        names = [str(getattr(item, "name", "")) for item in weapons]
        matches = [i for i, name in enumerate(names) if name.casefold() == weapon.casefold()]
        if not matches:
            problem = Message("sheets.no_weapon_named", weapon=repr(weapon), known=tuple(names))
            raise SheetError(self.name, [("weapons", problem)])
        index = matches[0]
        try:
            edited = weapons[index].edit(**changes)
        except SheetError as error:
            place = f"weapons[{index}]"
            raise SheetError(self.name, [(f"{place}.{f}", m) for f, m in error.problems]) from None
        weapons[index] = edited
        return self.edit(weapons=weapons)

    def derived(self) -> dict[str, Any]:
        """The values the rules derive from this sheet, by their name on the sheet."""
        return {}

    def summary(self) -> dict[str, Any]:
        """The roster line a GM scans: the profile as the game prints it, wounds, armour."""
        return {}

    @classmethod
    def gm_only_fields(cls) -> frozenset[str]:
        """Top-level fields the player projection drops."""
        return frozenset(
            name
            for name, info in cls.model_fields.items()
            if isinstance(info.json_schema_extra, dict)
            and info.json_schema_extra.get("visibility") == "gm"
        )

    def public_view(self) -> dict[str, Any]:
        """The sheet as players may see it: every GM-only field removed."""
        return self.model_dump(mode="json", exclude=set(self.gm_only_fields()))


__all__ = [
    "Model",
    "Name",
    "Sheet",
    "Text",
    "gm_only",
]
