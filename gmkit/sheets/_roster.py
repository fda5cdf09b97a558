"""Rosters (the characters of one fight, in sides) and the campaign document that holds them.

Until the SQLite campaign file lands (store.py), a campaign is a YAML or JSON document:
``{name: ..., rosters: [{title, game, summary, characters: [...]}, ...]}``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from gmkit.errors import SheetError
from gmkit.messages import Message
from gmkit.sheets import game_ids, sheet_type
from gmkit.sheets._io import (
    Budget,
    at_most_characters,
    dump_sheets,
    in_file,
    load_sheets,
    roster_to_frame,
)
from gmkit.sheets._reading import FileRefused, at_field, quote, read_data, text_of
from gmkit.sheets.base import Sheet

MAX_ROSTERS = 200
"""The most rosters a campaign document may hold (each becomes a prepared encounter)."""
MAX_CAMPAIGN_CHARACTERS = 5_000
"""The most characters a campaign document may hold, all its rosters counted."""


@dataclass(frozen=True)
class Roster:
    """The characters of one fight in one game; ``sides`` groups them by their ``side``."""

    title: str
    game: str
    sheets: tuple[Sheet, ...]
    summary: str = ""

    def __post_init__(self) -> None:
        if self.game not in game_ids():
            problem = Message("sheets.unknown_game", game=repr(self.game))
            raise SheetError(self.title, [("game", problem)])
        for sheet in self.sheets:
            if sheet.game != self.game:
                problem = Message(
                    "sheets.not_the_roster_game",
                    game=repr(sheet.game),
                    roster=repr(self.title),
                    roster_game=repr(self.game),
                )
                raise SheetError(sheet.name, [("game", problem)])

    @property
    def game_title(self) -> str:
        return sheet_type(self.game).GAME_TITLE or self.game

    @property
    def sides(self) -> dict[str, tuple[Sheet, ...]]:
        grouped: dict[str, list[Sheet]] = {}
        for sheet in self.sheets:
            grouped.setdefault(sheet.side or "(no side)", []).append(sheet)
        return {side: tuple(members) for side, members in grouped.items()}

    def frame(self) -> pd.DataFrame:
        return roster_to_frame(self.sheets)

    def to_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "game": self.game,
            "summary": self.summary,
            "characters": dump_sheets(self.sheets),
        }

    @classmethod
    def from_dict(
        cls,
        data: dict[str, Any],
        *,
        source: str = "roster",
        path: tuple[str | int, ...] = (),
        budget: Budget | None = None,
    ) -> Roster:
        """A roster from its plain data; its title, game and summary must be text. A refusal
        of the data's shape names ``source`` and the field (``path`` is where the roster is)."""
        if not isinstance(data, dict):
            problem = Message("sheets.got", problem=Message("files.not_a_roster"), got=quote(data))
            raise FileRefused(source, at_field(path), problem)
        title = text_of(data, "title", source, "(untitled roster)", path=path)
        game = text_of(data, "game", source, path=path)
        summary = text_of(data, "summary", source, path=path)
        characters = data.get("characters", [])
        if isinstance(characters, list):  # a character takes the roster's game unless it says
            characters = [
                {"game": game, **item} if isinstance(item, dict) else item for item in characters
            ]
        sheets = tuple(load_sheets(characters, source=title, budget=budget))
        return cls(title, game, sheets, summary)


@dataclass(frozen=True)
class Campaign:
    name: str
    rosters: tuple[Roster, ...] = field(default=())

    def roster(self, title: str) -> Roster:
        for roster in self.rosters:
            if roster.title == title:
                return roster
        raise KeyError(title)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "rosters": [roster.to_dict() for roster in self.rosters]}

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, source: str = "campaign") -> Campaign:
        """A campaign from its plain data (a campaign document read); a refusal names
        ``source``, the place (``rosters[2].game``) and the problem."""
        rosters = data.get("rosters", []) if isinstance(data, dict) else None
        if not isinstance(rosters, list):
            place = at_field(("rosters",)) if isinstance(data, dict) else at_field(())
            raise FileRefused(source, place, Message("sheets.not_a_list_of_rosters"))
        if len(rosters) > MAX_ROSTERS:
            problem = Message("files.too_many_rosters", limit=MAX_ROSTERS)
            raise FileRefused(source, at_field(("rosters",)), problem)
        name = text_of(data, "name", source, "campaign")
        found = []
        characters = 0
        budget = Budget()  # what all the rosters' sheets may take
        for number, item in enumerate(rosters):
            try:
                roster = Roster.from_dict(
                    item, source=source, path=("rosters", number), budget=budget
                )
                found.append(roster)
                characters += len(found[-1].sheets)
                at_most_characters(characters, source, MAX_CAMPAIGN_CHARACTERS)
            except FileRefused:
                raise
            except SheetError as error:  # a character's: it names the character and field
                raise FileRefused(source, at_field(("rosters", number)), error.message) from None
        return cls(name, tuple(found))

    def save(self, path: str | Path) -> Path:
        """Write the campaign (YAML or JSON by suffix) atomically: replace, never truncate."""
        target = Path(path)
        if target.suffix.lower() == ".json":
            text = json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"
        else:
            text = yaml.safe_dump(self.to_dict(), sort_keys=False, allow_unicode=True)
        temporary = target.with_name(f".{target.name}.tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(target)
        return target

    @classmethod
    def load(cls, path: str | Path) -> Campaign:
        """The campaign document at ``path`` (YAML, or JSON by its suffix), read through
        :func:`gmkit.sheets._reading.read_data`'s bounds; every refusal names the file."""
        source = Path(path)
        data = read_data(source)
        try:
            return cls.from_dict(data, source=str(source))
        except SheetError as error:
            raise in_file(str(source), error) from None
