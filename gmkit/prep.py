"""Preparing a fight, in a GM's words: the calls a prep notebook makes, each one line.

>>> from gmkit import prep
>>> store = prep.campaign(folder / "next-week.gmk")          # opens it, or makes a new one
>>> gangers = prep.npcs("dark_heresy", "Hive ganger", 5, named="Ganger", side="Red Hand")
>>> fight = prep.encounter(store, "Chapel raid", "dark_heresy", gangers, hidden=["Ganger 5"])
>>> fight.overview()[["name", "hidden", "wounds"]]               # doctest: +SKIP

- :func:`campaign`: open or create a campaign file in one call.
- :func:`roster`: sheets from a DataFrame, a CSV/YAML/JSON file or Python dicts and sheets,
  catalog names (``weapons: Lasgun; Knife``), bestiary entries (``npc: Cultist``) and copies
  (``count: 5``) expanded the same way in all of them.
- :func:`summary`: the sheets' roster lines as a DataFrame.
- :func:`npc`, :func:`npcs`, :func:`bestiary`: the game's ready NPCs and the players'
  archetypes (a Tactical Marine, a Guardsman, a Soldier...), filled in by keyword
  (``npc("deathwatch", "Tactical Marine", characteristics={"WS": 45}, unnatural={"T": 3})``:
  only what differs); :func:`weapon` and :func:`armour`: catalog entries to change
  (``.edit(clip=4)``), :func:`catalog` to browse.
- :func:`encounter`: an encounter created, or replaced when the notebook runs again (unless it
  has been played: then only with ``replace="played"``), with who hides, which sides the
  players run, how they see enemy wounds and the GM's note.
- Then the Encounter itself: ``overview()``, ``odds_frame()``, ``attack_request()``...;
  :func:`odds_plot` draws an odds table; :func:`export_player_notebook` writes the players'
  notebook; :func:`seat` gives a player a seat (its link: their phone sends requests the GM
  accepts); ``store.backup(path)`` copies a campaign in use.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import pandas as pd
from pydantic import BaseModel

from gmkit.campaign import open_campaign
from gmkit.encounter import Encounter
from gmkit.encounter._played import Replace
from gmkit.errors import RulesError, SheetError
from gmkit.messages import Message
from gmkit.sheets import load_sheet
from gmkit.sheets._io import copies, roster_from_frame, with_game
from gmkit.sheets.base import Model, Sheet
from gmkit.store import CampaignStore
from gmkit.systems._bestiary import bestiary as _bestiary
from gmkit.systems._bestiary import npc, npcs
from gmkit.systems._catalogs import catalog as _catalog
from gmkit.systems._catalogs import find_entry, names_of, unknown_entry

RosterSource = pd.DataFrame | str | Path | Sheet | Mapping[str, Any] | Iterable[Any]


def campaign(path: str | Path) -> CampaignStore:
    """The campaign file at ``path``, made new and empty if there is none yet; a
    ``postgresql://user@host/database#campaign`` address: that campaign in PostgreSQL, made
    in its schema if the schema holds nothing yet."""
    return open_campaign(path, create=True)


def roster(source: RosterSource, *, game: str | None = None) -> list[Sheet]:
    """The sheets ``source`` holds: a DataFrame (one row per character, dotted columns for
    nested values: ``characteristics.BS``), a .csv/.yaml/.json file, a dict, a sheet, or a list
    of those (frames and files included). ``game`` fills the characters that name none."""
    from gmkit.campaign import read_roster_file

    if isinstance(source, pd.DataFrame):
        return roster_from_frame(with_game(source, game))
    if isinstance(source, str | Path):
        return read_roster_file(source, game=game)[0]
    if isinstance(source, Sheet | Mapping):
        source = [source]
    sheets: list[Sheet] = []
    for number, item in enumerate(source, start=1):
        if isinstance(item, Sheet):
            sheets.append(item)
            continue
        if isinstance(item, pd.DataFrame | str | Path):  # a list may mix frames and files
            sheets.extend(roster(item, game=game))
            continue
        if not isinstance(item, Mapping):
            problem = Message("sheets.not_a_mapping")
            raise SheetError(f"(entry {number})", [("(sheet)", problem)])
        data = {"game": game, **item} if game and "game" not in item else dict(item)
        label = f"{data.get('name') or data.get('npc') or '(unnamed)'} (entry {number})"
        sheets.extend(load_sheet(copy, label=label) for copy in copies(data, label))
    return sheets


def summary(sheets: Iterable[Sheet]) -> pd.DataFrame:
    """Each sheet's roster line (name, side, the profile as the game prints it, wounds,
    armour, weapons): what a GM scans before the fight."""
    return pd.DataFrame(
        [{"name": sheet.name, "side": sheet.side, **sheet.summary()} for sheet in sheets]
    )


def bestiary(game: str) -> pd.DataFrame:
    """The game's ready NPCs: name (and its Spanish), where their numbers come from, and their
    roster line."""
    rows = [
        {"name": e.name, "name_es": e.name_es, "source": e.source, **e.sheet.summary()}
        for e in _bestiary(game).values()
    ]
    return pd.DataFrame(rows)


def catalog(game: str, kind: Literal["weapons", "armour"] = "weapons") -> pd.DataFrame:
    """The game's weapon (or armour) catalog, one row per entry: its name, its Spanish name,
    its fields as columns (a game with no such catalog: an empty table with those two)."""
    spanish = names_of(game).spanish  # each entry's name_es ("" where its data gives none)
    rows = [
        {"name_es": spanish.get(name.casefold(), ""), **entry.model_dump(mode="json")}
        for name, entry in _catalog(game, kind).items()
    ]
    frame = pd.DataFrame(rows) if rows else pd.DataFrame(columns=["name", "name_es"])
    return frame[["name", *(c for c in frame.columns if c != "name")]]


def weapon(game: str, name: str, /, **changes: Any) -> BaseModel:
    """The catalog's weapon ``name`` (case does not matter), with ``changes`` made to it."""
    return _entry(game, "weapons", name, changes)


def armour(game: str, name: str, /, **changes: Any) -> BaseModel:
    """The catalog's armour ``name``, with ``changes`` made to it."""
    return _entry(game, "armour", name, changes)


def encounter(
    store: CampaignStore,
    name: str,
    game: str,
    combatants: RosterSource,
    *,
    hidden: Iterable[str] = (),
    player_sides: Sequence[str] = (),
    enemy_wounds: Literal["exact", "band", "hidden"] | None = None,
    gm_note: str = "",
    units: Mapping[str, Mapping[str, Any]] | None = None,
    distances: Iterable[tuple[str, str, float]] = (),
    replace: Replace = True,
) -> Encounter:
    """The encounter ``name`` with ``combatants`` (anything :func:`roster` reads) added, those
    named in ``hidden`` hidden from the players, ``player_sides`` and ``enemy_wounds`` set and
    ``gm_note`` noted for the GM alone; initiative not rolled. ``replace`` (the default): an
    encounter of that name already in the file that is only set up is deleted first, so the
    notebook can run again from the top; one that has been played (initiative, a turn, an
    attack...) is kept, and refused with what would be lost and how to keep it, unless
    ``replace="played"``; ``replace=False`` refuses any name in use. Every name in
    ``hidden`` must be one of the combatants, and no two combatants may share a name
    (a target is picked by name). With units on the table (WFB):
    ``units`` maps each unit's name to what ``Encounter.set_unit`` takes (``side``,
    ``rank_and_file``, ``characters``, ``trooper``...), ``distances`` lists what the GM
    measured, ``(a, b, distance)``."""
    sheets = roster(combatants, game=game)
    names = {sheet.name for sheet in sheets}
    twice = sorted({s.name for s in sheets if [t.name for t in sheets].count(s.name) > 1})
    if twice:
        raise RulesError(Message("encounter.names_twice", encounter=repr(name), names=tuple(twice)))
    secret = list(hidden)
    unknown = [who for who in secret if who not in names]
    if unknown:
        known = tuple(sorted(names))
        raise RulesError(
            Message(
                "encounter.hidden_not_added",
                encounter=repr(name),
                names=tuple(unknown),
                known=known,
            )
        )
    fight = Encounter.create(store, name, game, replace=replace)
    with fight.action():  # one transaction: the fight prepared whole or not at all
        for sheet in sheets:
            fight.add(sheet, hidden=sheet.name in secret)
        if player_sides:
            fight.set("player_sides", list(player_sides))
        if enemy_wounds is not None:
            fight.set("enemy_wounds", enemy_wounds)
        for unit, described in (units or {}).items():  # WFB: set_unit's fields, by unit name
            fight.set_unit(unit, **described)
        for a, b, measured in distances:
            fight.set_distance(a, b, measured)
        if gm_note:
            fight.note(gm_note, gm_only=True)
    return fight


def export_player_notebook(
    store: CampaignStore, encounter: Encounter | str, path: str | Path, **options: Any
) -> Path:
    """The players' notebook of ``encounter`` (the Encounter or its name), written to ``path``
    (see :func:`gmkit.widgets._player_notebook.export_player_notebook`)."""
    from gmkit.widgets._player_notebook import export_player_notebook as export

    return export(store, encounter, path, **options)


def seat(
    store: CampaignStore, encounter: Encounter | str, player: str, combatants: Sequence[str]
) -> str:
    """A seat for ``player`` at ``encounter``, playing ``combatants`` (names or ids); its link
    (the players' page with the seat's key, once ``gmkit players`` said where it serves; else
    ``?seat=KEY`` to add to the players' page's address). The GM revokes it on the table's
    players' tab."""
    from gmkit.seats import SeatsFile
    from gmkit.seats._links import seat_link

    fight = encounter if isinstance(encounter, Encounter) else Encounter.open(store, encounter)
    ids = [fight.combatant(name).id for name in combatants]  # refused by name when unknown
    with SeatsFile.of_campaign(store.path) as seats:
        given = seats.give(fight.name, player, ids)
        url = seats.players_url
    return seat_link(url, given.key) if url else f"?seat={given.key}"


def reaction_seconds(store: CampaignStore, seconds: float) -> None:
    """How long the table waits for a player's reaction (Dodge, Parry) asked on their phone
    before the GM decides (5 to 120 seconds; 20 until set)."""
    from gmkit.seats import SeatsFile

    with SeatsFile.of_campaign(store.path) as seats:
        seats.set_ask_seconds(seconds)


def odds_plot(frame: pd.DataFrame) -> Any:
    """An odds table (``fight.odds_frame()``) drawn as one bar of states per attack."""
    from gmkit.widgets._odds_plot import odds_plot as plot

    return plot(frame)


def _entry(
    game: str, kind: Literal["weapons", "armour"], name: str, changes: dict[str, Any]
) -> BaseModel:
    found = find_entry(game, kind, name)
    if found is None:
        known = list(_catalog(game, kind))
        raise SheetError(name, [("name", unknown_entry(kind, name, known))])
    if changes and isinstance(found, Model):
        return found.edit(**changes)
    return found


__all__ = [
    "armour",
    "bestiary",
    "campaign",
    "catalog",
    "encounter",
    "export_player_notebook",
    "npc",
    "npcs",
    "odds_plot",
    "reaction_seconds",
    "roster",
    "seat",
    "summary",
    "weapon",
]
