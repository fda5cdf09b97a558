"""The campaign file the apps open: a SQLite campaign (:class:`~gmkit.store.CampaignStore`).

- :func:`open_campaign`: open a campaign file; a YAML/JSON campaign *document* is imported
  first into a SQLite file (:func:`import_document`), since the apps need the file's event logs.
- :func:`demo_campaign_file`: the demo campaign as a SQLite file, its rosters and one prepared
  encounter per game (combatants added, the players' side and secrets set, initiative not yet
  rolled): what ``gmkit table`` serves when no campaign is given.
- :func:`resolve_campaign`: what the ``gmkit`` command does with the CAMPAIGN it is given, and
  the sentence saying so.
- :func:`read_roster_file`: a roster file (CSV, YAML or JSON) for ``gmkit import``.

The file is always passed to a Voila app through ``GMKIT_CAMPAIGN``, never put inside the
folder it serves.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gmkit.errors import GmkitError
from gmkit.store import CampaignStore, StoreError, is_database_url

if TYPE_CHECKING:  # the sheets (pydantic, pandas) load when a command reads one, not before
    from gmkit.sheets.base import Sheet

CAMPAIGN_VARIABLE = "GMKIT_CAMPAIGN"
ENCOUNTER_VARIABLE = "GMKIT_ENCOUNTER"
SQLITE_SUFFIXES = (".gmk", ".sqlite", ".sqlite3", ".db")
DOCUMENT_SUFFIXES = (".yaml", ".yml", ".json")
DEMO_FILE_NAME = "demo-campaign.gmk"
_SQLITE_HEADER = b"SQLite format 3\x00"


@dataclass(frozen=True)
class DemoFight:
    """How the demo prepares one game's encounter: the players' side and who hides."""

    game: str
    player_sides: tuple[str, ...]
    hidden: tuple[str, ...] = ()
    gm_note: str = ""


# Dark Heresy first: the fight `gmkit table` opens on (an initiative game, so the tracker has
# initiative to roll); then the demo's order.
DEMO_FIGHTS: tuple[DemoFight, ...] = (
    DemoFight(
        "dark_heresy",
        ("Acolytes",),
        hidden=("Demagogue Ostrava",),
        gm_note="The demagogue waits behind the altar: he steps out when a cultist falls.",
    ),
    DemoFight(
        "necromunda",
        ("The Ashen Brethren",),
        hidden=("Scabby Tom",),
        gm_note="Scavvy reinforcements arrive from the sump on turn 3.",
    ),
    DemoFight(
        "deathwatch",
        ("Kill-team Aquila",),
        hidden=("Nob Gritfang",),
        gm_note="Gritfang charges once the mob drops below magnitude 15.",
    ),
    DemoFight(
        "wfrp2",
        ("The party",),
        hidden=("Bray-shaman Vhorlag",),
        gm_note="The shaman's totem is the ambush signal; breaking it routs the ungors.",
    ),
    DemoFight("wfb6", ("Empire",)),
)


def is_sqlite_file(path: str | Path) -> bool:
    """Whether ``path`` is taken as a SQLite campaign file (else a YAML/JSON document): by its
    suffix (.gmk, .sqlite... or .yaml, .yml, .json), else by its first bytes."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix in SQLITE_SUFFIXES:
        return True
    if suffix in DOCUMENT_SUFFIXES or not target.is_file():
        return False
    with target.open("rb") as handle:
        return handle.read(len(_SQLITE_HEADER)) == _SQLITE_HEADER


def open_campaign(
    path: str | Path, *, readonly: bool = False, create: bool = False
) -> CampaignStore:
    """The campaign at ``path``: a SQLite campaign file, opened (read-only for a reader); a
    YAML/JSON campaign document is imported into a SQLite file first (see
    :func:`import_document`) and that file is opened. ``create``: a new, empty campaign file
    where there is none (``gmkit.prep.campaign(path)`` opens or creates). A
    ``postgresql://...#campaign`` address opens that campaign in PostgreSQL (``create``: made
    in an empty schema)."""
    if is_database_url(path):
        return CampaignStore(str(path), create=create and not readonly, readonly=readonly)
    source = Path(path).expanduser()
    if not source.exists() and create and not readonly:
        if source.suffix.lower() in DOCUMENT_SUFFIXES:
            raise StoreError(f"{source}: no such campaign document (a new campaign is a .gmk file)")
        source.parent.mkdir(parents=True, exist_ok=True)
        return CampaignStore(source, create=True)
    if not source.exists():
        raise StoreError(
            f"{source}: no such campaign file (open_campaign(path, create=True) makes a new one)"
        )
    if not is_sqlite_file(source):
        source = import_document(source).path
    return CampaignStore(source, readonly=readonly)


def load_campaign(path: str | Path) -> Any:
    """The rosters of a campaign file or document, as a :class:`~gmkit.sheets._roster.Campaign`."""
    from gmkit.sheets._roster import Campaign

    source = Path(path).expanduser()
    if is_sqlite_file(source):
        with CampaignStore(source, readonly=True) as store:
            return store.campaign()
    return Campaign.load(source)


# --- the demo ----------------------------------------------------------------------------


def create_demo_store(path: str | Path) -> Path:
    """Write the demo campaign as a new SQLite file at ``path``: its rosters and one prepared
    encounter per game. Refuses to write over an existing file."""
    from gmkit.demo import demo_campaign

    target = Path(path)
    if target.exists():
        raise StoreError(f"{target}: exists already; the demo is written to a new file")
    campaign = demo_campaign()
    with CampaignStore(target, create=True) as store:
        store.save_campaign(campaign)
        by_game = {roster.game: roster for roster in campaign.rosters}
        for fight in DEMO_FIGHTS:
            roster = by_game[fight.game]
            prepare_encounter(
                store,
                roster.title,
                roster.game,
                roster.sheets,
                player_sides=fight.player_sides,
                hidden=fight.hidden,
                gm_note=fight.gm_note,
            )
    return target


def demo_campaign_file(folder: str | Path | None = None) -> Path:
    """The demo campaign as a SQLite file in ``folder`` (a new temporary folder if None)."""
    where = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="gmkit-"))
    where.mkdir(parents=True, exist_ok=True)
    return create_demo_store(where / DEMO_FILE_NAME)


def prepare_encounter(
    store: CampaignStore,
    name: str,
    game: str,
    sheets: Iterable[Sheet],
    *,
    player_sides: Sequence[str] = (),
    hidden: Iterable[str] = (),
    gm_note: str = "",
) -> Any:
    """An encounter named ``name`` with ``sheets`` added (those named in ``hidden`` hidden from
    the players), the players' sides set, initiative not rolled. Returns the Encounter."""
    from gmkit.encounter import Encounter

    secret = set(hidden)
    encounter = Encounter.create(store, name, game)
    with encounter.action():  # one transaction: a fight prepared whole or not at all
        for sheet in sheets:
            encounter.add(sheet, hidden=sheet.name in secret)
        if player_sides:
            encounter.set("player_sides", list(player_sides))
        if gm_note:
            encounter.note(gm_note, gm_only=True)
    return encounter


# --- documents and roster files ------------------------------------------------------------


@dataclass(frozen=True)
class Imported:
    path: Path
    created: bool  # False: an earlier import beside the document was reused


def import_document(document: str | Path, target: str | Path | None = None) -> Imported:
    """Import a YAML/JSON campaign document into a SQLite campaign file: ``target`` if given,
    else ``<document>.gmk`` beside it when that folder is writable, else a new temporary
    folder. A file already beside the document (an earlier import, with the GM's encounter
    logs) is reused, not overwritten. Each roster gets a prepared encounter."""
    from gmkit.sheets._roster import Campaign

    source = Path(document).expanduser().resolve()
    campaign = Campaign.load(source)  # a bad document is refused here, with its error
    if target is None:
        beside = source.with_suffix(".gmk")
        if beside.exists():
            CampaignStore(beside, readonly=True).close()  # refuse a damaged one now
            return Imported(beside, created=False)
        if os.access(source.parent, os.W_OK):
            target = beside
        else:
            target = Path(tempfile.mkdtemp(prefix="gmkit-")) / f"{source.stem}.gmk"
    path = Path(target)
    if path.exists():
        raise StoreError(f"{path}: exists already; import into a new file")
    try:
        with CampaignStore(path, create=True) as store:
            store.save_campaign(campaign)
            for roster in campaign.rosters:
                prepare_encounter(store, roster.title, roster.game, roster.sheets)
    except BaseException:
        path.unlink(missing_ok=True)
        for suffix in ("-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        raise
    return Imported(path, created=True)


@dataclass(frozen=True)
class Resolved:
    """The campaign an app serves (a SQLite file, or a PostgreSQL address), a sentence
    saying where it came from, and the campaign as it may be printed (no password)."""

    path: Path | str
    note: str
    shown: str = ""

    def __post_init__(self) -> None:
        if not self.shown:
            object.__setattr__(self, "shown", shown_location(self.path))


def shown_location(location: str | Path) -> str:
    """A campaign's location as it may be printed: a database's address without its
    password."""
    if is_database_url(location):
        from gmkit._store_pg import split_url

        return split_url(str(location))[2]
    return str(location)


def resolve_campaign(given: str | Path | None, *, create: bool = False) -> Resolved:
    """What ``gmkit table`` serves: the SQLite file given (checked now), a document's import,
    or (nothing given) a fresh demo campaign in a temporary folder. ``create`` (``gmkit lab``):
    a campaign file given that does not exist yet is made, empty, as ``prep.campaign`` would.

    Checked now, not inside the page: a file the GM's table could not write (read-only file,
    folder or file system), a damaged or tampered one (:mod:`gmkit._store_check`), or one whose
    encounters do not replay is refused with a StoreError saying why."""
    from gmkit.encounter import Encounter

    def served(path: Path | str) -> Path | str:
        with CampaignStore(path) as store:  # refuses what cannot be written, or is damaged
            store.campaign()  # a roster that does not read: StoreError
            for info in store.encounters():
                Encounter.open(store, info.name)  # an event that does not replay: StoreError
        return path

    if given is None or str(given) == "":
        path = demo_campaign_file()
        return Resolved(path, f"the demo campaign, written to {path}")
    if is_database_url(given):
        if create:  # an empty schema made a campaign, as prep.campaign(url) would
            open_campaign(str(given), create=True).close()
        shown = shown_location(given)
        return Resolved(served(str(given)), f"the campaign in PostgreSQL {shown}", shown)
    source = Path(given).expanduser().resolve()
    if not source.exists() and create:
        open_campaign(source, create=True).close()  # a document's name: refused, saying why
        return Resolved(served(source), f"a new campaign file, created: {source}")
    if not source.exists():
        raise StoreError(
            f"{source}: no such campaign file (gmkit lab {source.name} makes a new one; "
            f"gmkit demo {source.name} writes the demo campaign there)"
        )
    if is_sqlite_file(source):
        return Resolved(served(source), f"the campaign file {source}")
    imported = import_document(source)
    served(imported.path)
    if imported.created:
        where = "beside it" if imported.path.parent == source.parent else "in a temporary folder"
        note = f"{source} imported into a new campaign file {where}: {imported.path}"
    else:
        note = f"{source}: using its earlier import {imported.path} (delete it to import again)"
    return Resolved(imported.path, note)


def read_roster_file(
    path: str | Path, *, game: str | None = None
) -> tuple[list[Sheet], str, str, str]:
    """The sheets of a roster file (CSV, YAML or JSON; a list of characters or a roster
    document), with the title, game and summary it names. ``game`` fills characters that
    name none. The file is read through :mod:`gmkit.sheets._reading`'s bounds (size, aliases,
    depth...); every refusal is a gmkit error naming the file."""
    from gmkit.errors import SheetError
    from gmkit.sheets._io import in_file, load_sheets, roster_from_frame, with_game
    from gmkit.sheets._reading import (
        FileRefused,
        load_json,
        load_yaml,
        read_csv,
        read_text,
        text_of,
    )

    source = Path(path).expanduser()
    suffix = source.suffix.lower()
    if suffix != ".csv" and suffix not in DOCUMENT_SUFFIXES:
        raise GmkitError(f"{source}: a roster is a .csv, .yaml, .yml or .json file")
    file = str(source)
    text = read_text(source)
    title, summary = source.stem.replace("_", " "), ""
    try:
        if suffix == ".csv":
            frame = with_game(read_csv(text, file), game)
            sheets = roster_from_frame(frame, source=file)
        else:
            data = load_json(text, file) if suffix == ".json" else load_yaml(text, file)
            items: Any = data
            if isinstance(data, Mapping):
                title = text_of(data, "title", file, title)
                summary = text_of(data, "summary", file)
                game = game or text_of(data, "game", file) or None
                items = data.get("characters", [])
            if game and isinstance(items, list):
                items = [{"game": game, **i} if isinstance(i, Mapping) else i for i in items]
            sheets = load_sheets(items if items is not None else [], source=file)
    except FileRefused:
        raise
    except SheetError as error:  # a character's: it names the character and the field
        raise in_file(file, error) from None
    games = sorted({sheet.game for sheet in sheets})
    if len(games) > 1:
        raise GmkitError(f"{source}: one roster is one game; this file has {', '.join(games)}")
    found = games[0] if games else game
    if not found:
        raise GmkitError(f"{source}: no characters, and no --game to say which game")
    if game and found != game:
        raise GmkitError(f"{source}: the characters are {found}, not {game}")
    return sheets, title, found, summary


def export_json(path: str | Path, data: Any) -> Path:
    target = Path(path)
    temporary = target.with_name(f".{target.name}.tmp")
    temporary.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    temporary.replace(target)
    return target


__all__ = [
    "CAMPAIGN_VARIABLE",
    "DEMO_FIGHTS",
    "ENCOUNTER_VARIABLE",
    "DemoFight",
    "Imported",
    "Resolved",
    "create_demo_store",
    "demo_campaign_file",
    "export_json",
    "import_document",
    "is_sqlite_file",
    "load_campaign",
    "open_campaign",
    "prepare_encounter",
    "read_roster_file",
    "resolve_campaign",
    "shown_location",
]
