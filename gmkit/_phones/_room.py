"""One fight's phones: the encounter followed once, what the players see made once per event.

A :class:`Room` holds the fight a players' server shows (one :class:`~gmkit.encounter.Encounter`
opened read-only, however many phones follow it). :meth:`Room.follow` reads what the GM wrote
(``Encounter.refresh``: for a campaign in PostgreSQL nothing is asked of the database until its
bell rings); :meth:`Room.picture` is the page in a language, made from the player projection
alone (:func:`~gmkit.encounter.player_view`, the same HTML the Voila page shows) the first time
a phone asks for it after a change, and handed to every phone reading that language after it.
A GM-only value never enters a picture: it is made from the projection and the public log.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

from gmkit.encounter import Encounter, player_view
from gmkit.messages import Message
from gmkit.store import CampaignStore, EncounterGone, StoreError
from gmkit.widgets._i18n import LANGUAGE_NAMES, t, words
from gmkit.widgets._player import public_log
from gmkit.widgets._player_table import player_html

LANGUAGES = tuple(LANGUAGE_NAMES)


@dataclass
class Room:
    """The fight ``name`` of ``store`` as its phones see it (see the module docstring)."""

    store: CampaignStore
    name: str
    player_sides: tuple[str, ...] = ()
    version: int = 0  # counts the changes a phone was told of
    gone: bool = False  # the fight left the campaign: the page says so
    _pictures: dict[tuple[str, tuple[str, ...]], dict[str, Any]] = field(default_factory=dict)
    made: int = 0  # pictures made so far (once per change and language: what the bench reads)

    def __post_init__(self) -> None:
        self.encounter = Encounter.open(self.store, self.name)

    def follow(self) -> bool:
        """Read what the GM wrote since; whether the phones have something new to see. A
        fight prepared again is followed under its name; one deleted ends the room."""
        if self.gone:
            return False
        before = self.encounter.last_seq
        try:
            self.encounter.refresh()
        except EncounterGone:
            try:
                self.encounter = Encounter.open(self.store, self.name)
            except StoreError:
                self.gone = True
            return self._changed()
        if self.encounter.last_seq == before:
            return False
        return self._changed()

    def _changed(self) -> bool:
        self.version += 1
        self._pictures.clear()
        return True

    def picture(self, language: str, own: tuple[str, ...] = ()) -> dict[str, Any]:
        """What every phone reading ``language`` shows now (made once per change); ``own``:
        a seat's combatants, shown in full as the players' sides are (a seat's phones)."""
        if language not in LANGUAGES:
            raise ValueError(f"language {language!r} is not one of {LANGUAGES}")
        found = self._pictures.get((language, own))
        if found is None:
            found = self._pictures[(language, own)] = self._make(language, own)
            self.made += 1
        return found

    def _make(self, language: str, own: tuple[str, ...]) -> dict[str, Any]:
        title = html.escape(self.name)
        if self.gone:
            gone = words(Message("widgets.player.fight_gone", encounter=self.name), language)
            notice = f"<div class='gmkit-error'>{html.escape(gone)}</div>"
            return {"version": self.version, "title": title, "notice": notice}
        state = self.encounter.state
        view = player_view(
            state,
            player_sides=self.player_sides,
            language=language,
            situation=self.encounter.situation,
            own=own,
        )
        hidden = [c.id for c in state.combatants.values() if c.hidden]
        lines = public_log(
            self.encounter.effective_events,
            hidden=hidden,
            state=state,
            player_sides=self.player_sides,
            language=language,
        )
        header, table = player_html(view, language)
        items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
        log = f"<h3>{html.escape(t('log', language))}</h3><ul>{items}</ul>" if items else ""
        return {
            "version": self.version,
            "title": title,
            "header": header,
            "table": table,
            "log": log,
            "notice": "",
        }
