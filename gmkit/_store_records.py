"""The campaign file's records: the campaign and its rosters, the encounters and their event
logs, backup and export. Every read and write goes through
:class:`~gmkit._store_base.StoreConnection` (one transaction a write; a failure says what was
not saved); the events of one GM action are appended in one transaction
(:meth:`CampaignRecords.append_events`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gmkit import _store_check as store_check
from gmkit._store_base import Connection, StoreConnection
from gmkit._store_check import EncounterGone, StoreError
from gmkit.messages import Message

if TYPE_CHECKING:  # imported where used: a player view or a writer opens the file without pandas
    from gmkit.sheets._roster import Campaign, Roster


@dataclass(frozen=True, slots=True)
class EncounterInfo:
    id: int
    name: str
    game: str
    events: int


@dataclass(frozen=True, slots=True)
class StoredEvent:
    seq: int
    payload: dict[str, Any]


class CampaignRecords(StoreConnection):
    """What a campaign file holds, read and written (the opening is CampaignStore's)."""

    # --- campaign and rosters --------------------------------------------------------

    @property
    def name(self) -> str:
        with self._reading() as connection:
            row = connection.execute("SELECT value FROM meta WHERE key = 'name'").fetchone()
        return str(row[0]) if row else self.default_name

    def save_campaign(self, campaign: Campaign) -> None:
        """Replace the campaign's name and rosters (encounters are kept)."""
        titles = [roster.title for roster in campaign.rosters]
        doubles = sorted({title for title in titles if titles.count(title) > 1})
        if doubles:  # the second would silently replace the first
            raise StoreError(f"{self.where}: two rosters titled {', '.join(map(repr, doubles))}")
        with self.transaction(Message("store.what_rosters")) as connection:
            connection.execute(
                "INSERT INTO meta (key, value) VALUES ('name', ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (campaign.name,),
            )
            connection.execute("DELETE FROM rosters")
            for position, roster in enumerate(campaign.rosters):
                self._write_roster(connection, roster, position)

    def save_roster(self, roster: Roster) -> None:
        """Add a roster, or replace the one with the same title (keeping its place)."""
        what = Message("store.what_roster", title=store_check.shown(roster.title))
        with self.transaction(what) as connection:
            row = connection.execute(
                "SELECT position FROM rosters WHERE title = ?", (roster.title,)
            ).fetchone()
            if row is None:
                row = connection.execute("SELECT coalesce(max(position) + 1, 0) FROM rosters")
                row = row.fetchone()
            self._write_roster(connection, roster, int(row[0]))

    @staticmethod
    def _write_roster(connection: Connection, roster: Roster, position: int) -> None:
        document = json.dumps(roster.to_dict(), ensure_ascii=False)
        connection.execute(
            "INSERT INTO rosters (title, position, document) VALUES (?, ?, ?) "
            "ON CONFLICT (title) DO UPDATE SET position = excluded.position, "
            "document = excluded.document",
            (roster.title, position, document),
        )

    def rosters(self) -> list[Roster]:
        from gmkit.sheets._roster import Roster

        with self._reading() as connection:
            rows = connection.execute("SELECT title, document FROM rosters ORDER BY position")
            found = rows.fetchall()
        return store_check.roster_documents(self.where, found, Roster.from_dict)

    def campaign(self) -> Campaign:
        from gmkit.sheets._roster import Campaign

        return Campaign(self.name, tuple(self.rosters()))

    # --- encounters and their events -------------------------------------------------

    def create_encounter(
        self,
        name: str,
        game: str,
        *,
        replace: bool = False,
        before_replacing: Callable[[list[dict[str, Any]]], None] | None = None,
    ) -> int:
        """A new, empty encounter; with ``replace``, one already of that name (and its whole
        log) is deleted in the same transaction, so a prep notebook runs again and again.
        ``before_replacing`` is given the old one's events (as stored, undo markers included)
        inside that transaction, before anything changes: an exception it raises refuses the
        replacement and leaves the file as it was (no other writer can slip in between)."""
        with self.transaction(
            Message("store.what_new_encounter", name=store_check.shown(name))
        ) as connection:
            # an id above every id now in the file, taken before the old one is deleted: an
            # Encounter still open on the replaced one can never write into the new one
            (highest,) = connection.execute(
                "SELECT coalesce(max(id), 0) FROM encounters"
            ).fetchone()
            if replace and before_replacing is not None:
                found = connection.execute(
                    "SELECT id FROM encounters WHERE name = ?", (name,)
                ).fetchone()
                if found is not None:
                    rows = connection.execute(
                        "SELECT seq, payload FROM events WHERE encounter = ? ORDER BY seq",
                        (found[0],),
                    ).fetchall()
                    old = store_check.stored_events(self.where, found[0], rows, lambda _: name)
                    before_replacing([event for _, event in old])
            if replace:
                self._delete_encounter(connection, name)
            if connection.execute("SELECT 1 FROM encounters WHERE name = ?", (name,)).fetchone():
                raise StoreError(f"an encounter named {name!r} exists already")
            created = int(highest) + 1
            connection.execute(
                "INSERT INTO encounters (id, name, game) VALUES (?, ?, ?)", (created, name, game)
            )
            self._ring(connection, created, 0)
            return created

    def delete_encounter(self, name: str) -> None:
        """Delete the encounter called ``name`` and its log (refused if there is none)."""
        self.encounter_id(name)
        with self.transaction(
            Message("store.what_deletion", name=store_check.shown(name))
        ) as connection:
            self._delete_encounter(connection, name)

    def _delete_encounter(self, connection: Connection, name: str) -> None:
        found = connection.execute("SELECT id FROM encounters WHERE name = ?", (name,)).fetchone()
        if found is not None:
            connection.execute("DELETE FROM events WHERE encounter = ?", (found[0],))
            connection.execute("DELETE FROM encounters WHERE id = ?", (found[0],))
            self._ring(connection, int(found[0]), -1)

    def _ring(self, connection: Connection, encounter: int, seq: int) -> None:
        """Tell other processes, once this transaction commits, that ``encounter`` changed
        (``seq``: its last event now; 0 created, -1 deleted). A campaign file needs no bell:
        its readers poll it."""

    def encounters(self) -> list[EncounterInfo]:
        with self._reading() as connection:
            rows = connection.execute(
                "SELECT e.id, e.name, e.game, count(v.seq) FROM encounters e "
                "LEFT JOIN events v ON v.encounter = e.id GROUP BY e.id ORDER BY e.id"
            ).fetchall()
        return [EncounterInfo(int(i), str(n), str(g), int(c)) for i, n, g, c in rows]

    def has_encounter(self, encounter: int) -> bool:
        """Whether the encounter ``encounter`` (an id) is still in the file."""
        with self._reading() as connection:
            found = connection.execute("SELECT 1 FROM encounters WHERE id = ?", (encounter,))
            return found.fetchone() is not None

    def encounter_id(self, name: str) -> int:
        with self._reading() as connection:
            row = connection.execute("SELECT id FROM encounters WHERE name = ?", (name,))
            found = row.fetchone()
        if found is None:
            raise StoreError(f"no encounter named {name!r}")
        return int(found[0])

    def append_event(self, encounter: int, payload: dict[str, Any], *, seq: int) -> None:
        """Append ``payload`` as event ``seq`` (the next one the writer expects), durably."""
        self.append_events(encounter, [payload], seq=seq)

    def append_events(
        self, encounter: int, payloads: Sequence[dict[str, Any]], *, seq: int
    ) -> None:
        """Append ``payloads`` as events ``seq``, ``seq + 1``... (``seq`` the next one the writer
        expects) in one durable transaction: one GM action's events are all in the file, or
        none of them (a failure or a crash half way leaves none)."""
        texts = [json.dumps(payload, ensure_ascii=False, sort_keys=True) for payload in payloads]
        with self.transaction(Message("store.what_command")) as connection:
            named = connection.execute("SELECT name FROM encounters WHERE id = ?", (encounter,))
            found = named.fetchone()
            if found is None:  # replaced (a prep cell run again) or deleted since it was read
                raise EncounterGone(Message("store.encounter_gone", path=self.where))
            last = self._last_seq(connection, encounter)
            if seq != last + 1:  # another tab or kernel wrote since this one read the log
                raise StoreError(
                    Message("store.another_writer", encounter=store_check.shown(found[0]))
                )
            rows = [(encounter, seq + offset, text) for offset, text in enumerate(texts)]
            connection.executemany(
                "INSERT INTO events (encounter, seq, payload) VALUES (?, ?, ?)", rows
            )
            self._ring(connection, encounter, seq + len(rows) - 1)

    def events(self, encounter: int, after: int = 0) -> list[StoredEvent]:
        """The events of ``encounter`` after event ``after``, in order. One that is not an event
        (the file changed since it was opened) is a StoreError naming it."""
        checked = self._decoded.pop(encounter, None)
        if checked is not None and after == 0:
            with self._reading() as connection:
                unchanged = self._pragma("data_version") == self._decoded_version
            if unchanged:  # nobody wrote since the open check decoded them: served as decoded
                return [StoredEvent(seq, payload) for seq, payload in checked]
            self._decoded.clear()
        with self._reading() as connection:
            rows = connection.execute(
                "SELECT seq, payload FROM events WHERE encounter = ? AND seq > ? ORDER BY seq",
                (encounter, after),
            ).fetchall()
        name = self._encounter_name
        events = store_check.stored_events(self.where, encounter, rows, name)
        return [StoredEvent(seq, payload) for seq, payload in events]

    def _encounter_name(self, encounter: int) -> str:
        with self._reading() as connection:
            row = connection.execute("SELECT name FROM encounters WHERE id = ?", (encounter,))
            found = row.fetchone()
        return str(found[0]) if found else str(encounter)

    def last_seq(self, encounter: int) -> int:
        with self._reading() as connection:
            return self._last_seq(connection, encounter)

    @staticmethod
    def _last_seq(connection: Connection, encounter: int) -> int:
        row = connection.execute(
            "SELECT coalesce(max(seq), 0) FROM events WHERE encounter = ?", (encounter,)
        ).fetchone()
        return int(row[0])

    # --- export ------------------------------------------------------------------------

    def backup(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """A consistent copy of the campaign at ``path``, safe while it is open and in use: SQLite's
        online backup, so events still in the write-ahead log are in the copy (a file copy of
        the .gmk alone can miss them). Written beside ``path`` and moved into place."""
        target = Path(path).expanduser()
        if target.resolve() == self.path.resolve():
            raise StoreError(f"{target}: is the campaign itself; back it up to another file")
        if target.exists() and not overwrite:
            raise StoreError(f"{target}: exists already (pass overwrite=True to replace it)")
        partial = target.with_name(f".{target.name}.partial")
        try:
            copy = sqlite3.connect(partial)
            try:
                with self._lock:  # the one connection, one thread at a time
                    self._connection.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")
            finally:
                copy.close()
            partial.replace(target)
        except (sqlite3.Error, OSError) as error:
            partial.unlink(missing_ok=True)
            raise StoreError(
                f"{target}: the backup failed ({error}); nothing was written"
            ) from None
        return target

    def export_encounter(self, encounter: int) -> dict[str, Any]:
        info = next((e for e in self.encounters() if e.id == encounter), None)
        if info is None:
            raise StoreError(f"no encounter {encounter}")
        events = [event.payload for event in self.events(encounter)]
        return {"name": info.name, "game": info.game, "events": events}

    def export_campaign(self) -> dict[str, Any]:
        document = self.campaign().to_dict()
        document["encounters"] = [self.export_encounter(e.id) for e in self.encounters()]
        return document
