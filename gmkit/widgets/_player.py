"""The players' view of a fight, and a notebook exported for the players.

:class:`PlayerView` is built from :func:`gmkit.encounter.player_view` alone (and the public
events, for its short log): the round, whose turn, the combatants the players may see with
their conditions and wounds as the GM's ``enemy_wounds`` setting says, the players' own sheets.
Nothing else of the encounter ever goes into a widget, so a GM-only value (a hidden
combatant's name, an enemy's sheet, a GM note) never reaches a player's browser: the HTML is
rendered in the kernel from the projection and only that HTML is sent.

It follows the GM: a :class:`Follower` (an asyncio task on the kernel's event loop) calls
:meth:`PlayerView.poll` every 0.3 s; each poll reads the events the GM's kernel wrote to the
campaign file (``Encounter.refresh``) and re-renders only when something changed. Outside a
running event loop (a plain script, a unit test) call :meth:`PlayerView.poll` yourself.

:func:`export_player_notebook` (in :mod:`gmkit.widgets._player_notebook`) writes the same
projection as a notebook file for the players.
"""

from __future__ import annotations

import asyncio
import html
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets
from traitlets import Bool, Int, Unicode

from gmkit.encounter import Encounter, player_view
from gmkit.encounter._kept import release, settle
from gmkit.encounter._narration import event_text
from gmkit.encounter._state import EncounterState
from gmkit.encounter._views import newest_public, told_to_players, wounds_rule
from gmkit.messages import Message
from gmkit.seats import Seat, SeatsFile
from gmkit.store import CampaignStore, EncounterGone, StoreError
from gmkit.widgets._closing import Whole
from gmkit.widgets._comm_guard import guard_widgets, quiet_comm_logs
from gmkit.widgets._i18n import LANGUAGE, LANGUAGE_NAMES, t, words
from gmkit.widgets._player_notebook import export_player_notebook
from gmkit.widgets._player_style import PLAYER_STYLE
from gmkit.widgets._player_table import player_html
from gmkit.widgets._seat_controls import SeatControls
from gmkit.widgets._style import STYLE, THEME_CLASS

__all__ = [
    "POLL_SECONDS",
    "Follower",
    "PlayerView",
    "export_player_notebook",
    "player_html",
    "public_log",
]

POLL_SECONDS = 0.3
LOG_LINES = 8
_LOGGED = ("attack", "effects", "note")  # public events whose text the players read


class Follower:
    """Call ``callback`` every ``interval`` seconds from an asyncio task on the running event
    loop (the kernel's: widget updates then happen on the kernel's own thread, between
    messages, never racing a command). ``start()`` outside a running loop does nothing and
    returns False: call the callback yourself there. ``stop()`` cancels the task."""

    def __init__(self, callback: Callable[[], object], interval: float = POLL_SECONDS) -> None:
        self.callback = callback
        self.interval = interval
        self.task: asyncio.Task[None] | None = None
        self.errors = 0

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    def start(self) -> bool:
        if self.running:
            return True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        self.task = loop.create_task(self._run())
        return True

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                self.callback()
            except Exception as error:  # a failed read (the file busy) is tried again next time
                self.errors += 1
                if self.errors in (1, 10, 100):  # said in the server's log, not at every poll
                    said = " ".join(str(error).split())[:200]
                    print(
                        f"gmkit: a poll failed ({type(error).__name__}: {said})",
                        file=sys.__stderr__,
                        flush=True,
                    )

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None


def public_log(
    events: Sequence[Mapping[str, Any]],
    limit: int = LOG_LINES,
    hidden: Sequence[str] | None = None,
    *,
    state: EncounterState | None = None,
    player_sides: Sequence[str] = (),
    language: str | None = None,
) -> list[str]:
    """The texts of the newest public attacks, effects and notes (newest first), in the
    current language; none touching a hidden combatant (``hidden``: their ids; None: read from
    the events, see :func:`gmkit.encounter._views.public_events`), and of an enemy's wounds
    only what the GM's ``enemy_wounds`` setting shows (:func:`~gmkit.encounter._views.
    told_to_players`: with a band or hidden wounds, "Sergeant Varro Tull attacks Cultist Ban:
    Lasgun", not its damage). ``state``: the fight now, for the combatants' names;
    ``player_sides`` count while the GM has set none; ``language``: default, the current one."""
    language = language or LANGUAGE.value
    effective = tuple(dict(event) for event in events)
    shown, friends = wounds_rule(effective, player_sides)
    lines: list[str] = []
    for event in newest_public(effective, hidden, _LOGGED):
        if len(lines) >= limit:
            break
        text = event_text(told_to_players(event, shown, friends), language, after=state)
        if text:
            lines.append(text)
    return lines


class PlayerView(widgets.VBox):
    """What the players see of one encounter (see the module docstring).

    ``PlayerView(store, "The Chapel of the Pale Throne")``. The sides the players play (their
    sheets and exact wounds shown) are the GM's ``player_sides`` setting; ``player_sides``
    given here count only while the GM has set none.
    """

    round = Int(0, help="the round shown")
    current = Unicode("", help="whose turn is shown ('' for none, or a hidden combatant's)")
    hidden_turn = Bool(False, help="whether a hidden combatant acts now ('An enemy acts')")
    events = Int(0, help="events of the campaign file read so far")
    seq = Int(0, help="the seq of the last event of the campaign file applied (0: none)")

    def __init__(
        self,
        store: CampaignStore,
        encounter_name: str,
        player_sides: Sequence[str] = (),
        *,
        interval: float = POLL_SECONDS,
        follow: bool = True,
        seat: Seat | None = None,
        seats: SeatsFile | None = None,
        **kwargs: Any,
    ) -> None:
        self.encounter = Encounter.open(store, encounter_name)
        self.player_sides = tuple(player_sides)
        # a seat's page: its combatants in full, and its controls (requests to the GM)
        self.seat: Seat | None = None
        self.seat_controls: SeatControls | None = None
        self.on_poll: Callable[[], object] | None = None  # called at each poll (a seat opening)
        self.view: dict[str, Any] = {}
        self.log_lines: list[str] = []
        self.title = widgets.HTML(f"<h2>{html.escape(encounter_name)}</h2>")
        self.title.add_class("gmkit-player-title")
        self.languages = widgets.ToggleButtons(
            options=[(label, code) for code, label in LANGUAGE_NAMES.items()],
            value=LANGUAGE.value,
            tooltips=[t("language", code) for code in LANGUAGE_NAMES],
            style={"button_width": "5.5em"},
            layout=widgets.Layout(width="auto"),
        )
        self.languages.add_class("gmkit-player-languages")
        self.languages.observe(self._on_language_picked, names="value")
        bar = widgets.HBox([self.title, self.languages], layout=widgets.Layout(width="100%"))
        bar.add_class("gmkit-player-bar")
        self.header = widgets.HTML()
        self.table = widgets.HTML()
        self.log_area = widgets.HTML()
        self.log_area.add_class("gmkit-player-log")
        style = widgets.HTML(STYLE + PLAYER_STYLE, layout=widgets.Layout(display="none"))
        self._style, self._bar = style, bar
        super().__init__(children=[style, bar, self.header, self.table, self.log_area], **kwargs)
        self.add_class(THEME_CLASS)
        self.add_class("gmkit-player")
        self.follower = Follower(self.poll, interval)
        LANGUAGE.observe(self._on_language, names="value")
        self._closed = False
        if seat is not None and seats is not None:
            self.attach_seat(seat, seats)  # its combatants in full, and its controls
        self._render()
        quiet_comm_logs()  # a hostile message gets no traceback back: comm_guard
        guard_widgets(self)
        settle(self.encounter)  # a large fight kept out of the collector's full passes
        if follow:
            self.follower.start()

    def __repr__(self) -> str:  # the page's text/plain output: nothing but the fight's name
        return f"PlayerView({self.encounter.name!r})"

    def poll(self) -> bool:
        """Read what the GM wrote after the last event applied (its :attr:`seq`: never one
        twice); re-render if anything changed. A StoreError (an event missing or damaged) is
        raised once what came before it is shown."""
        before = self.seq
        if self.on_poll is not None:
            self.on_poll()
        try:
            self.encounter.refresh()
        except EncounterGone:  # prepared again: the players follow the fight now of its name
            return self._reopen()
        except StoreError:
            self._show_news(before)  # what came before the bad event
            raise
        return self._show_news(before)

    def _show_news(self, before: int) -> bool:
        changed = self.encounter.last_seq != before
        if changed:
            self._render()
        elif self.seat_controls is not None:
            self.seat_controls.render()  # the GM's answers come without an event
        return changed

    def _reopen(self) -> bool:
        """The fight followed left the campaign file: the one now of its name, re-rendered
        (a seat's controls made again for it); none of that name: the page says so, and
        stops following."""
        store, name = self.encounter.store, self.encounter.name
        assert store is not None
        try:
            self.encounter = Encounter.open(store, name)
        except StoreError:
            self.follower.stop()
            self.show_notice(words(Message("widgets.player.fight_gone", encounter=name)))
            return False
        if self.seat_controls is not None and self.seat is not None:
            seat, seats = self.seat, self.seat_controls.seats
            self.seat_controls.close()
            self.seat_controls = None
            self.attach_seat(seat, seats)
        self._render()
        settle(self.encounter)  # the fight left behind collected; the new one, if large, kept
        return True

    def attach_seat(self, seat: Seat, seats: SeatsFile) -> None:
        """Make this page ``seat``'s: its combatants in full, and its controls under the
        header (the requests go to ``seats``)."""
        if self.seat_controls is not None:
            return
        self.seat = seat
        self.seat_controls = SeatControls(self.encounter, seat, seats)
        shown = [self._style, self._bar, self.header, self.seat_controls, self.table]
        self.children = [*shown, self.log_area]  # the controls under the header
        self._render()

    def show_notice(self, text: str) -> None:
        """A line for the player under the header ("this seat is closed")."""
        notice = widgets.HTML(f"<div class='gmkit-error'>{html.escape(text)}</div>")
        notice.add_class("gmkit-player-notice")
        self.children = [self._style, self._bar, self.header, notice, self.table, self.log_area]

    def close(self) -> None:
        """Stop following the campaign file, and close the widgets."""
        if getattr(self, "_closed", True):
            return  # closed already (ipywidgets closes again when collecting the widget)
        self._closed = True
        whole = Whole([self])  # its models, read while they are open
        self.follower.stop()
        LANGUAGE.unobserve(self._on_language, names="value")
        for child in self.children:
            child.close()
        super().close()
        whole.close()  # what the children's closes left open (_closing)
        release()

    def set_language(self, code: str) -> None:
        """Show the page in ``code`` ("en" or "es"): the switch at the top calls this; each
        player's page has its own kernel, so each player reads their own language."""
        LANGUAGE.value = code  # refused by name when unknown

    def _on_language_picked(self, change: Mapping[str, Any]) -> None:
        if change["new"] != LANGUAGE.value:
            self.set_language(str(change["new"]))

    def _on_language(self, _change: object) -> None:
        if self.languages.value != LANGUAGE.value:
            self.languages.value = LANGUAGE.value
        self._render()

    def _render(self) -> None:
        language = LANGUAGE.value
        state = self.encounter.state
        self.view = player_view(
            state,
            player_sides=self.player_sides,
            language=language,
            situation=self.encounter.situation,
            own=self.seat.combatants if self.seat is not None else (),
        )
        if self.seat_controls is not None:
            self.seat_controls.render()
        hidden = [c.id for c in state.combatants.values() if c.hidden]
        self.log_lines = public_log(
            self.encounter.effective_events,
            hidden=hidden,
            state=state,
            player_sides=self.player_sides,
        )
        header, table = player_html(self.view, language)
        if self.header.value != header:
            self.header.value = header
        if self.table.value != table:
            self.table.value = table
        items = "".join(f"<li>{html.escape(line)}</li>" for line in self.log_lines)
        log = f"<h3>{html.escape(t('log'))}</h3><ul>{items}</ul>" if items else ""
        if self.log_area.value != log:
            self.log_area.value = log
        self.round = int(self.view["round"])
        self.current = str(self.view.get("current") or "")
        self.hidden_turn = bool(self.view.get("hidden_turn"))
        self.events = len(self.encounter.events)
        self.seq = self.encounter.last_seq
