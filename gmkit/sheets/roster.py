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
from gmkit.sheets.base import Sheet
from gmkit.sheets.io import dump_sheets, load_sheets, roster_to_frame


def _unreadable(error: OSError | yaml.YAMLError) -> Message:
    """A campaign file that cannot be read, in the words of the system or the YAML parser."""
    return Message("sheets.unreadable_file", detail=str(error))


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
    def from_dict(cls, data: dict[str, Any]) -> Roster:
        title = str(data.get("title") or "(untitled roster)")
        game = str(data.get("game", ""))
        characters = data.get("characters", [])
        if isinstance(characters, list):  # a character takes the roster's game unless it says
            characters = [
                {"game": game, **item} if isinstance(item, dict) else item for item in characters
            ]
        sheets = tuple(load_sheets(characters, source=title))
        return cls(title, game, sheets, str(data.get("summary", "")))


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
    def from_dict(cls, data: dict[str, Any]) -> Campaign:
        if not isinstance(data, dict) or not isinstance(data.get("rosters", []), list):
            raise SheetError("campaign", [("rosters", Message("sheets.not_a_list_of_rosters"))])
        rosters = tuple(Roster.from_dict(item) for item in data.get("rosters", []))
        return cls(str(data.get("name") or "campaign"), rosters)

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
        source = Path(path)
        try:
            data = yaml.safe_load(source.read_text(encoding="utf-8"))  # JSON is YAML too
        except (OSError, yaml.YAMLError) as error:
            raise SheetError(str(source), [("(file)", _unreadable(error))]) from None
        return cls.from_dict(data)
