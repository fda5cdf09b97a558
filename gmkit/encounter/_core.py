"""The encounter: commands that validate, then append one event each.

Each user action is a public method (``next_turn()``, ``attack()``) that a button calls and a
test calls the same way. A refused command raises :class:`~gmkit.errors.RulesError` saying why
and changes nothing. With a store, every command is one durable transaction, and a GM action
of several commands is one too: ``with encounter.action(): ...`` (:meth:`EncounterCore.action`)
commits all of its events together or none of them. Readers (player views) call
:meth:`Encounter.refresh` to follow.

Any thread may send a command: in JupyterLab a widget's click arrives on a kernel subshell
thread while cells run on the main one. One thread at a time appends, refreshes or runs an
action (the encounter's lock, held for the whole action), so the log has one writer.

Why over 400 lines: the one writer (append, refresh, undo, redo, the lock, the settings and
the turn's reads) is one class; the commands are in the classes built on it (``_flow``,
``_acting``, ``_combat``, ``_units``).
"""

from __future__ import annotations

import gc
import json
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Self

from gmkit._store_check import EncounterGone, shown
from gmkit.dice import DiceSource, DieRoll, check_dice
from gmkit.encounter._acted import acted
from gmkit.encounter._arguments import bad_text_in
from gmkit.encounter._default_attack import OfferCache
from gmkit.encounter._log import MARKERS, EventLog
from gmkit.encounter._played import Replace, check_replace, refuse_if_played
from gmkit.encounter._secrecy import name_forms, touched
from gmkit.encounter._settings import setting_name
from gmkit.encounter._situation import Situation
from gmkit.encounter._state import Combatant, EncounterState
from gmkit.errors import GmkitError, RulesError
from gmkit.messages import Message, Text, as_message
from gmkit.sheets.base import Sheet
from gmkit.store import CampaignStore, StoreError
from gmkit.systems.turns import turn_structure

PREPARATION = ("added", "setting", "note")
"""Event kinds that, before any other, are the fight's preparation (:attr:`~EncounterCore.
can_undo`)."""

BULK = 1000
"""A refresh reading more events than this (opening a long fight) folds without the cyclic
garbage collector running."""

Listener = Callable[[Any], None]
"""Called with the encounter after every change (``Encounter.subscribe``)."""


def text_record(text: Text) -> Any:
    """A text as an event keeps it: a message's id and parameters (a string as it is)."""
    return text.to_json() if isinstance(text, Message) else text


def roll_record(roll: DieRoll) -> dict[str, Any]:
    return {
        "sides": roll.sides,
        "value": roll.value,
        "purpose": text_record(roll.purpose),
        "physical": roll.physical,
    }


class EncounterCore:
    """One fight. ``Encounter("deathwatch")`` lives in memory; ``Encounter.create(store, ...)``
    writes every command to the campaign file."""

    def __init__(
        self,
        game: str,
        *,
        name: str = "encounter",
        store: CampaignStore | None = None,
        encounter_id: int | None = None,
    ) -> None:
        turn_structure(game)  # refuses an unknown game
        self.game = game
        self.name = name
        self.store = store
        self.encounter_id = encounter_id
        self._log = EventLog(game)
        self._listeners: list[Listener] = []
        self._pending: list[dict[str, Any]] | None = None  # the open action's events
        self._first_table_event: tuple[int, dict[str, Any]] | None = None  # for can_undo
        self._lock = threading.RLock()  # one thread at a time appends (see the module)
        self._situation: tuple[EncounterState, Situation] | None = None  # (its state, it)
        self._offers: OfferCache | None = None  # the rules' offers kept (``offers``)
        self.written_here = 0  # events this object wrote to the file (not read from it)
        self._forms: tuple[object, dict[str, list[str]]] | None = None  # the hidden's names

    @classmethod
    def create(
        cls, store: CampaignStore, name: str, game: str, *, replace: Replace = False
    ) -> Self:
        """A new encounter in the campaign file. ``replace``: False refuses a name in use;
        True deletes one of that name first (its whole log) if it is only set up, so a prep
        notebook runs top to bottom again, and refuses one that has been played
        (:class:`~gmkit.encounter._played.PlayedEncounterError`, saying what would be lost);
        ``"played"`` deletes it even then."""
        turn_structure(game)  # refuse an unknown game before the file is touched
        replace = check_replace(replace)
        guard = None if replace == "played" else (lambda events: refuse_if_played(name, events))
        ident = store.create_encounter(name, game, replace=bool(replace), before_replacing=guard)
        return cls(game, name=name, store=store, encounter_id=ident)

    @classmethod
    def open(cls, store: CampaignStore, name: str) -> Self:
        """An encounter from the campaign file, its log replayed."""
        ident = store.encounter_id(name)
        info = next(e for e in store.encounters() if e.id == ident)
        encounter = cls(info.game, name=name, store=store, encounter_id=ident)
        encounter.refresh()
        return encounter

    # --- reading ---------------------------------------------------------------------

    @property
    def state(self) -> EncounterState:
        return self._log.state

    @property
    def events(self) -> tuple[dict[str, Any], ...]:
        """Every event as written, undo and redo markers included."""
        return tuple(self._log.raw)

    @property
    def effective_events(self) -> tuple[dict[str, Any], ...]:
        return tuple(self._log.done)

    @property
    def states(self) -> Sequence[EncounterState]:
        """``states[k]``: the state after the first ``k`` effective events (``states[0]`` the
        empty encounter): what the log's rows are read against. Not a copy: do not change."""
        return self._log.states

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(encounter)`` after every change; returns the unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    @property
    def last_seq(self) -> int:
        """The seq of the last event applied (0: none). Events are applied only in sequence,
        each the one after the last (:meth:`refresh` refuses a gap), so it is also how many."""
        return len(self._log.raw)

    def refresh(self) -> int:
        """Read the events other processes wrote after the last one applied (``seq > last``);
        returns how many were new. One that is not the next in sequence, or that does not
        replay, is a StoreError naming it: the events before it stay applied, it and those
        after it are not (so no event is ever applied twice, or out of order)."""
        if self.store is None or self.encounter_id is None:
            return 0
        with self._lock:
            return self._refresh(self.store, self.encounter_id)

    def _refresh(self, store: CampaignStore, encounter_id: int) -> int:
        if self._pending is not None:
            raise RuntimeError("refresh inside an action: its events are not committed yet")
        applied = 0
        stored = store.events(encounter_id, after=self.last_seq)
        if not stored and not store.has_encounter(encounter_id):
            # prepared again (a new id) or deleted: this log is no longer the file's
            where = {"path": str(store.path), "encounter": shown(self.name)}
            raise EncounterGone(Message("store.encounter_gone_read", **where))
        # a long log (opening a fight) makes many objects that all live on: collecting on the
        # way would walk them again and again, for nothing
        collecting = len(stored) > BULK and gc.isenabled()
        if collecting:
            gc.disable()
        try:
            for event in stored:
                self._replay(event.seq, event.payload)
                applied += 1
        finally:
            if collecting:
                gc.enable()
            if applied:
                self._notify()
        return applied

    def _replay(self, seq: int, payload: dict[str, Any]) -> None:
        """Apply the stored event ``seq``; a StoreError if it is not the next or is refused."""
        last = len(self._log.raw)
        if seq != last + 1:  # a gap: the file was changed behind the writer
            gap = self._where(last + 1)
            raise StoreError(Message("store.missing_event_now", **gap, last=last))
        try:
            self._log.replay(payload)
        except GmkitError as error:
            refused = Message("store.event_refused", **self._where(seq), error=error.message)
            raise StoreError(refused) from error
        except Exception as error:  # a damaged event's shape: a key missing, a wrong type...
            broken = Message("store.event_broken", **self._where(seq), error=type(error).__name__)
            raise StoreError(broken) from error

    def _where(self, seq: int) -> dict[str, Any]:
        path = str(self.store.path) if self.store is not None else ""
        return {"path": path, "encounter": shown(self.name), "seq": seq}

    def _notify(self) -> None:
        for listener in list(self._listeners):
            listener(self)

    # --- writing ---------------------------------------------------------------------

    def _append(self, event: dict[str, Any]) -> EncounterState:
        with self._lock:
            return self._append_now(event)

    def _append_now(self, event: dict[str, Any]) -> EncounterState:
        if event.get("visibility") != "gm" and event.get("kind") != "revealed":
            # the GM's if it touches a hidden combatant in any field (a public note too), but
            # the one it gives away (``reveals``: an attack by a hidden attacker)
            secret = bool(self._hidden_touched(event) - set(event.get("reveals") or ()))
            event["visibility"] = "gm" if secret else "public"
        event = as_json(event)  # what is folded now is exactly what a replay will read
        next_state = self._log.check(event)  # the rules refuse before anything is written
        if self._pending is not None:  # inside an action: written with the others at its end
            self._pending.append(event)
            self._log.accept(event, next_state)
            return next_state
        if self.store is not None and self.encounter_id is not None:
            self.store.append_event(self.encounter_id, event, seq=self.last_seq + 1)
            self.written_here += 1
        self._log.accept(event, next_state)
        self._notify()
        return next_state

    @contextmanager
    def action(self) -> Iterator[Self]:
        """One GM action of several commands (a roster added, a fight prepared), all or
        nothing: inside, each command is checked and applied in memory as usual (the next
        sees its state); at the end all of their events are committed in one durable
        transaction and listeners are told once. A command refused inside (RulesError), any
        other exception, or a store failure at the commit takes back every event of the
        action, in memory as in the file. Nested, it is part of the outer action."""
        with self._lock:
            if self._pending is not None:
                yield self
                return
            with self._acting():
                yield self

    @contextmanager
    def _acting(self) -> Iterator[Self]:
        """The outermost action, under the lock (:meth:`action`)."""
        self._pending = []
        self._log.begin()
        try:
            yield self
            events = self._pending
            if events and self.store is not None and self.encounter_id is not None:
                first = len(self._log.raw) - len(events) + 1
                self.store.append_events(self.encounter_id, events, seq=first)
                self.written_here += len(events)
        except BaseException:
            self._log.rollback()
            raise
        finally:
            self._pending = None
            self._log.end()
        if events:
            self._notify()

    def _hidden_touched(self, event: Mapping[str, Any]) -> set[str]:
        """The hidden combatants an event touches, in any field (an event touching one is the
        GM's): an id anywhere in it, a unit holding one, a name in a text
        (:func:`~gmkit.encounter._secrecy.touched`). Only the hidden are looked for: in a
        fight of a thousand, every append searched every name for nothing."""
        state = self.state
        if self._forms is None or self._forms[0] is not state.combatants:
            everyone = {c.id: [c.name] for c in state.combatants.values()}
            hidden = {ident: everyone[ident] for ident, c in state.combatants.items() if c.hidden}
            self._forms = (state.combatants, name_forms(hidden, everyone))
        names = self._forms[1]
        if not names:
            return set()
        units = {u.name: [u.trooper, *u.characters] for u in state.units.values()}
        return touched(event, names, units)

    def _with_reveal(self, event: dict[str, Any], actor: str, gives_away: bool) -> dict[str, Any]:
        """``event`` (a command of ``actor``) with what it gives away: when the actor is
        hidden, ``reveals`` is ``[actor]`` if the act gives him away (``gives_away``: an attack
        made, as the rules say; a Ready, an Aim or a move does not) and the players may read
        the event once he is seen (not kept secret, touching no other hidden combatant), else
        ``[]`` (the fold then keeps him hidden; an event without the field is one written
        before it, :func:`~gmkit.encounter._fold._spent`)."""
        found = self.state.combatants.get(actor)
        if found is None or not found.hidden:
            return event
        others = self._hidden_touched(event) - {actor}
        shown = gives_away and event.get("visibility") != "gm" and not others
        return {**event, "reveals": [actor] if shown else []}

    def undo(self) -> EncounterState:
        """Take back the last command (one event: an attack with the action it spent is one);
        the state is exactly what it was before it. The table's buttons offer it only while
        :attr:`can_undo` (not the preparation); a prep tool may take back anything."""
        return self._append({"kind": "undo"})

    def redo(self) -> EncounterState:
        """Put back the last command undone: the same event, and exactly the state the undo
        took (not a new fold of it)."""
        return self._append({"kind": "redo"})

    @property
    def can_undo(self) -> bool:
        """Whether the table's Undo has something to take back. The fight's preparation is not
        the table's to undo: the leading run of effective events that only add combatants,
        write settings or notes (:data:`PREPARATION`: what prep or the demo wrote before any
        table command such as rolling initiative or Start). Undo is live from the first other
        event on (after Roll initiative, it takes that back), and every event after that one
        is undoable, a note or an added combatant too."""
        done = self._log.done
        known = self._first_table_event  # (index, event): still there while done keeps it
        if known is not None and known[0] < len(done) and done[known[0]] is known[1]:
            return True
        for index, event in enumerate(done):
            if event.get("kind") not in PREPARATION:
                self._first_table_event = (index, event)
                return True
        return False

    @property
    def can_redo(self) -> bool:
        return bool(self._log.undone)

    @property
    def undo_text(self) -> Message | None:
        """What Undo would take back, from the event's own narration ("Undo: Brother Castor
        attacks Ork Boyz mob: Astartes Bolter"); None when :attr:`can_undo` is false."""
        if not self.can_undo:
            return None
        log = self._log
        return Message("encounter.undo_what", what=_told(log.done[-1], log.states[-2:]))

    @property
    def redo_text(self) -> Message | None:
        """What Redo would put back ("Redo: ..."); None when there is nothing to redo."""
        log = self._log
        if not log.undone:
            return None
        around = [log.state, log.undone_states[-1]]
        return Message("encounter.redo_what", what=_told(log.undone[-1], around))

    @property
    def acted(self) -> frozenset[str]:
        """Ids of the combatants who have had their go, read from the state alone (the
        tracker's "acted" mark): :func:`~gmkit.encounter._acted.acted`."""
        return acted(self.state, turn_structure(self.game))

    # --- combatants ------------------------------------------------------------------

    def add(
        self,
        sheet: Sheet,
        *,
        side: str | None = None,
        hidden: bool = False,
        group: str = "",
        ident: str | None = None,
        initiative: int | None = None,
        source: DiceSource | None = None,
    ) -> str:
        """Add a combatant; returns its id. Mid-fight, a late joiner in an initiative game
        takes ``initiative`` if given, else rolls with ``source``."""
        ident = ident or self._new_id(sheet.name)
        event: dict[str, Any] = {
            "kind": "added",
            "id": ident,
            "sheet": sheet.model_dump(mode="json"),
            "side": side or sheet.side,
            "hidden": hidden,
            "group": group,
        }
        structure = turn_structure(self.game)
        if self.state.started and structure.kind == "initiative":
            if initiative is None:
                if source is None:
                    raise RulesError(Message("commands.late_joiner_needs_dice"))
                base = structure.initiative_base(sheet) if structure.initiative_base else 0
                if ident in self.state.combatants:
                    raise RulesError(Message("commands.id_taken", ident=repr(ident)))
                check_dice(source, [(10, Message("percentile.initiative_die", name=sheet.name))])
                roll = source.roll_die(10, Message("percentile.initiative_die", name=sheet.name))
                event["rolls"] = [roll_record(roll)]
                initiative = roll.value + base
            event["initiative"] = initiative
        if hidden:
            event["visibility"] = "gm"
        self._append(event)
        return ident

    def add_many(self, sheets: Iterable[Sheet], **options: Any) -> list[str]:
        """Add every sheet (a roster): one action, so all of them or none."""
        with self.action():
            return [self.add(sheet, **options) for sheet in sheets]

    def _new_id(self, name: str) -> str:
        base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "combatant"
        ident, number = base, 2
        while ident in self.state.combatants:
            ident, number = f"{base}-{number}", number + 1
        return ident

    def remove(self, ident: str) -> None:
        """Take a combatant (id or name) out of the fight; :meth:`revive` brings it back."""
        self._append({"kind": "removed", "id": self.combatant(ident).id})

    def revive(self, ident: str) -> None:
        self._append({"kind": "revived", "id": self.combatant(ident).id})

    def rename(self, ident: str, name: str) -> None:
        self._append({"kind": "renamed", "id": self.combatant(ident).id, "name": name})

    def reveal(self, ident: str) -> None:
        """Show a hidden combatant to the players (hidden ones also show on their first turn)."""
        # the moment the players learn of it: public, though the combatant was hidden
        self._append({"kind": "revealed", "id": self.combatant(ident).id, "visibility": "public"})

    def edit_sheet(self, ident: str, **changes: Any) -> None:
        """Change a combatant's sheet mid-fight (validated: a bad value is refused by name)."""
        self._append(
            {
                "kind": "sheet_edited",
                "id": self.combatant(ident).id,
                "changes": changes,
                "visibility": "gm",
            }
        )

    def set(self, key: str, value: Any) -> None:
        """A table setting (:data:`~gmkit.encounter._settings.SETTINGS`), e.g.
        ``set("enemy_wounds", "band")``; an unknown name or value is refused, naming it."""
        setting_name(key)
        self._append({"kind": "setting", "key": key, "value": value, "visibility": "gm"})

    def note(self, text: str, *, gm_only: bool = True) -> None:
        self._append({"kind": "note", "text": text, "visibility": "gm" if gm_only else "public"})

    def combatant(self, ident_or_name: str) -> Combatant:
        state = self.state
        if ident_or_name in state.combatants:
            return state.combatants[ident_or_name]
        for combatant in state.combatants.values():
            if combatant.name == ident_or_name:
                return combatant
        raise RulesError(Message("commands.no_one_called", name=repr(ident_or_name)))

    def __repr__(self) -> str:
        state = self.state
        return (
            f"Encounter({self.game!r}, {self.name!r}, {len(state.present)} combatants, "
            f"round {state.round})"
        )


def as_json(event: dict[str, Any]) -> dict[str, Any]:
    """The event as the store writes and reads it back (tuples become lists...); a value JSON
    cannot hold is refused, naming the event."""
    try:
        text = json.dumps(event, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as error:
        kind = event.get("kind", "event")
        raise RulesError(
            Message("commands.not_serialisable", kind=str(kind), error=str(error))
        ) from None
    problem = bad_text_in(event, text)  # a lone surrogate or a control character in a text
    if problem is not None:
        kind = str(event.get("kind", "event"))[:40]
        raise RulesError(Message("commands.bad_text", kind=kind, problem=problem))
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def _told(event: Mapping[str, Any], around: list[EncounterState]) -> Message:
    """The event's line (:func:`~gmkit.encounter._narration.event_message`), with the states
    before and after it for names and the turn. An attack is told by who attacks whom with
    what ("Brother Castor attacks Ork Boyz mob: Astartes Bolter"), not by its outcome's summary:
    not every game's summary names the attacker (WFB's: "1 hit; unsaved wounds: none"), and a
    button is read at a glance."""
    from gmkit.encounter._narration import event_message  # narration reads the state only

    before, after = around
    if event.get("kind") == "attack":  # who attacked whom with what: its outcome left out
        said = ("kind", "attacker", "target", "weapon")
        event = {key: event[key] for key in said if key in event}
    return as_message(event_message(event, before=before, after=after))


def visible_to_players(event: Mapping[str, Any]) -> bool:
    return event.get("visibility", "public") == "public" and event.get("kind") not in MARKERS
