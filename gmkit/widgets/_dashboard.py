"""The GM's table dashboard: one screen to run a fight, on a laptop or on the TV.

``Dashboard(store, encounter_name=None)`` composes, for the encounter picked (the campaign's
first by default):

- the initiative tracker (:class:`~gmkit.widgets._tracker.InitiativeTracker`), with the turn
  panel (:class:`~gmkit.widgets._turn_panel.TurnPanel`: actions besides attacks, the rolls due,
  conditions), for a mass-battle game the units panel
  (:class:`~gmkit.widgets._units_panel.UnitsPanel`: units and distances on the table) and the
  combat log (:class:`~gmkit.widgets._combat_log.CombatLog`) under it;
- the attack panel (:class:`~gmkit.widgets._attack.AttackPanel`), whose attacker follows the
  current actor;
- tabs: the sheet of the combatant selected in the tracker (its card, and an editor whose save
  is the encounter command ``edit_sheet``), the dice tray
  (:class:`~gmkit.widgets._dice_tray.DiceTray`), and what the players see (the enemy wounds
  setting, the players' sides, revealing a hidden combatant);
- an encounter picker and a language switch (:data:`~gmkit.widgets._i18n.LANGUAGE`).

Every control calls a public method that tests call the same way: ``select_encounter``,
``set_language``, ``press`` (a keyboard shortcut), ``select_combatant``, ``save_sheet``,
``set_enemy_wounds``, ``set_player_sides``, ``reveal``, ``poll``, ``close``. The dashboard
holds no rule and no state the encounter does not have. It follows the campaign file (a
:class:`Follower` polling ``Encounter.refresh``), so a second GM tab, or a kernel Voila
pre-started before the last changes, shows the fight as it is.

Why over 400 lines: the dashboard composes every panel and keeps them following the campaign
file (encounters, settings, the players' sides); each panel is its own module.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets
from traitlets import Unicode

from gmkit._forms.asking import ReactionAsk
from gmkit.encounter import Encounter
from gmkit.encounter._kept import release, settle
from gmkit.errors import GmkitError
from gmkit.messages import Message
from gmkit.seats import AttackIntent, Intent, Seat, SeatsFile, seats_path
from gmkit.sheets.base import Sheet
from gmkit.store import CampaignStore, EncounterGone, StoreError
from gmkit.widgets._asking_line import AskingLine
from gmkit.widgets._attack import AttackPanel
from gmkit.widgets._closing import Whole
from gmkit.widgets._combat_log import CombatLog
from gmkit.widgets._dashboard_style import DASHBOARD_STYLE, compact_css
from gmkit.widgets._dice_tray import DiceTray
from gmkit.widgets._gone_notice import GoneNotice
from gmkit.widgets._i18n import LANGUAGE, LANGUAGE_NAMES, t, words
from gmkit.widgets._in_view import InView
from gmkit.widgets._inbox_panel import InboxPanel
from gmkit.widgets._lean_state import install as install_lean_state
from gmkit.widgets._panes import Panes
from gmkit.widgets._player import Follower
from gmkit.widgets._players_tab import WOUNDS_SHOWN, PlayersControls
from gmkit.widgets._render import STYLE as SHEET_STYLE
from gmkit.widgets._render import sheet_html
from gmkit.widgets._sheet_editor import SheetEditor
from gmkit.widgets._shortcuts import Shortcuts
from gmkit.widgets._style import STYLE, THEME_CLASS
from gmkit.widgets._tracker import InitiativeTracker, Shared
from gmkit.widgets._turn_panel import TurnPanel
from gmkit.widgets._units_panel import UnitsPanel, has_units

__all__ = ["LANGUAGE_NAMES", "WOUNDS_SHOWN", "Dashboard"]

FOLLOW_SECONDS = 0.5


def _text(key: str) -> str:
    found = t(f"dashboard.{key}")
    return t(key) if found == f"dashboard.{key}" else found


def _given(part: widgets.Widget) -> Callable[[], widgets.Widget]:
    """A pane's builder for a panel built already."""
    return lambda: part


def _closed() -> None:
    """What a panel's ``close`` becomes once closed."""


def _closed_pane() -> widgets.Widget:
    """A pane asked for once its encounter is gone (never shown: the panes close with it)."""
    return widgets.VBox()


def _changes(old: Sheet, new: Sheet) -> dict[str, Any]:
    """The top-level fields ``new`` changes (what ``Encounter.edit_sheet`` takes)."""
    before, after = old.model_dump(mode="json"), new.model_dump(mode="json")
    return {key: value for key, value in after.items() if before.get(key) != value}


class Dashboard(widgets.VBox):
    """The GM's screen for a fight (see the module docstring)."""

    encounter_name = Unicode("", help="the encounter shown")
    message = Unicode("", help="the last refusal or note shown under the top bar")

    def __init__(
        self,
        store: CampaignStore,
        encounter_name: str | None = None,
        *,
        seed: int | None = None,
        follow: bool = True,
        interval: float = FOLLOW_SECONDS,
        **kwargs: Any,
    ) -> None:
        self.store = store
        self.seed = seed
        self.encounter: Encounter | None = None
        self.tracker: InitiativeTracker | None = None
        self.attack: AttackPanel | None = None
        self._log: CombatLog | None = None  # built when its pane is first shown
        self.turn_panel: TurnPanel | None = None
        self._units: UnitsPanel | None = None  # built when its pane is first shown
        self.sheet_editor: SheetEditor | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._card: tuple[Any, str] | None = None  # the sheet shown on the card, its language
        self._syncing = False
        self._due_shown: tuple[Any, ...] = ()
        install_lean_state()  # a page is sent the dashboard's state without its defaults
        names = [info.name for info in store.encounters()]
        self._looks = looks = Shared()  # the dashboard's own widgets' layouts and styles
        self.title = looks.make(widgets.HTML)
        self.picker = looks.make(
            widgets.Dropdown,
            options=names,
            layout={"width": "28em"},
            style={"description_width": "initial"},
        )
        self.language = looks.make(
            widgets.ToggleButtons,
            options=[(LANGUAGE_NAMES.get(code, code), code) for code in LANGUAGE_NAMES],
            value=LANGUAGE.value,
            style={"button_width": "7em"},
        )
        self.message_area = looks.make(widgets.HTML)
        topbar = looks.make(widgets.HBox, children=[self.title, self.picker, self.language])
        topbar.add_class("gmkit-topbar")
        # the slots the encounter's widgets go into
        self.left = looks.make(widgets.VBox)
        self.left.add_class("gmkit-left")
        self.panes: Panes | None = None  # the turn, the log, the units: per encounter
        self.attack_slot = looks.make(widgets.VBox)
        self.attack_slot.add_class("gmkit-attack")
        self.sheet_card = looks.make(widgets.HTML)
        self.sheet_card.add_class("gmkit-sheet-card")
        # shown or hidden: its own layout
        self.edit_button = widgets.ToggleButton(
            value=False, style=looks.style(widgets.ToggleButton)
        )
        self.editor_box = looks.make(widgets.VBox)
        self.sheet_slot = looks.make(
            widgets.VBox, children=[self.sheet_card, self.edit_button, self.editor_box]
        )
        self.sheet_slot.add_class("gmkit-sheet-slot")
        self._dice: DiceTray | None = None  # built when its tab is first opened
        self.dice_slot = looks.make(widgets.VBox)
        self._players: PlayersControls | None = None  # built when first used
        self._seats: SeatsFile | None = None  # the campaign's seats file, opened when needed
        self.inbox_panel: InboxPanel | None = None  # the players' requests, once seats exist
        self.asking_line: AskingLine | None = None  # a defender's player asked to react
        self._gone: GoneNotice | None = None  # shown in place of a fight that left the file
        self.players_box = looks.make(widgets.VBox)
        self.players_box.add_class("gmkit-players")
        self.tabs = widgets.Tab(
            children=[self.sheet_slot, self.dice_slot, self.players_box],
            layout=looks.layout(),
        )
        right = looks.make(widgets.VBox, children=[self.attack_slot, self.tabs])
        for column in (self.left, right):
            column.add_class("gmkit-column")
        grid = looks.make(widgets.Box, children=[self.left, right])
        grid.add_class("gmkit-grid")
        style = looks.make(
            widgets.HTML,
            value=compact_css(STYLE + SHEET_STYLE + DASHBOARD_STYLE),
            layout={"display": "none"},
        )
        # the keyboard: N next, R resolve, A apply, U undo, Shift+U redo (invisible)
        self.shortcuts = Shortcuts()
        self.shortcuts.on_action(self.press)
        self.in_view = InView(self.shortcuts)  # the actor's row, Do it... scrolled to
        super().__init__(
            children=[style, self.shortcuts, topbar, self.message_area, grid], **kwargs
        )
        self.add_class(THEME_CLASS)
        self.add_class("gmkit-dashboard")
        self.picker.observe(self._on_pick, names="value")
        self.language.observe(self._on_language_pick, names="value")
        self.edit_button.observe(self._on_edit, names="value")
        self.tabs.observe(self._on_tab, names="selected_index")
        LANGUAGE.observe(self._on_language, names="value")
        self._relabel()
        chosen = encounter_name or (names[0] if names else None)
        if chosen is None:
            self._say(_text("no_encounter"), error=True)
        else:
            self.select_encounter(chosen)
        self.follower = Follower(self.poll, interval)
        if follow:
            self.follower.start()

    def __repr__(self) -> str:  # the page's text/plain output, instead of every child's value
        return f"Dashboard({self.store.name!r}, {self.encounter_name!r})"

    # --- the GM's actions -------------------------------------------------------------------

    def select_encounter(self, name: str) -> None:
        """Show the encounter ``name`` of the campaign (what the picker does)."""
        try:
            encounter = Encounter.open(self.store, name)
        except GmkitError as error:
            self._refused(error)
            return
        self._drop_encounter()
        self.encounter = encounter
        self.encounter_name = name
        # the page has gmkit's CSS once (this dashboard's): the panels do not carry their own
        self.tracker = InitiativeTracker(encounter, seed=self.seed, with_style=False)
        # every panel follows a change in the same request: the kernel says idle once the
        # screen's updates are sent (issue 22; a deferral held them past the idle before)
        self.attack = AttackPanel(encounter, seed=self.seed, follow_actor=True, with_style=False)
        self.turn_panel = TurnPanel(encounter, seed=self.seed)
        self.panes = self._panes()
        self.left.children = [self.tracker, self.panes]
        self.attack_slot.children = [self.attack]
        self._open_inbox()
        self.tracker.observe(self._on_selected, names="selected")
        self._unsubscribe = encounter.subscribe(self._on_change)
        self.in_view.watch(encounter, self.tracker, self.turn_panel)
        self._syncing = True
        try:
            if self.picker.value != name:
                self.picker.value = name
        finally:
            self._syncing = False
        actor = encounter.situation.actor
        present = encounter.state.present
        if present:
            self.select_combatant(actor or present[0].id)
        else:
            self._show_sheet()
        self._render_title()
        if self._players is not None:
            self._players.render()
        self._say("")
        settle(encounter)  # a large fight kept out of the collector's full passes

    def press(self, action: str) -> None:
        """A keyboard shortcut (:class:`~gmkit.widgets._shortcuts.Shortcuts`): the same as its
        button ("next", "resolve", "apply", "undo", "redo"); nothing while that button is
        disabled."""
        tracker, attack = self.tracker, self.attack
        if tracker is None or attack is None:
            return
        buttons: dict[str, tuple[widgets.Button, Callable[[], object]]] = {
            "next": (tracker.next_button, tracker.next_turn),
            "resolve": (attack.resolve_button, attack.resolve),
            "apply": (attack.apply_button, attack.apply),
            "undo": (tracker.undo_button, tracker.undo),
            "redo": (tracker.redo_button, tracker.redo),
        }
        if action not in buttons:
            raise ValueError(f"action: {action!r} is not one of {', '.join(buttons)}")
        button, method = buttons[action]
        if not button.disabled:
            method()

    def set_language(self, code: str) -> None:
        """Switch every gmkit label to ``code`` ("en" or "es")."""
        try:
            LANGUAGE.value = code
        except ValueError as error:  # traitlets' refusal of an unknown language
            self._say(str(error), error=True)

    def select_combatant(self, ident: str) -> None:
        """Show the sheet of ``ident`` (an id or a name): the tracker's Sheet button."""
        if self.tracker is not None:
            self.tracker.select(ident)

    def save_sheet(self, sheet: Sheet) -> bool:
        """Record an edit of the selected combatant's sheet as the encounter command
        ``edit_sheet`` (what the editor's Save does); False if refused (the reason is shown)."""
        combatant = self.selected_combatant
        if self.encounter is None or combatant is None:
            self._say("sheet: no combatant selected", error=True)
            return False
        changes = _changes(combatant.sheet, sheet)
        if not changes:
            return True
        try:
            self.encounter.edit_sheet(combatant.id, **changes)
        except GmkitError as error:
            self._refused(error)
            return False
        self._say("")
        return True

    def set_enemy_wounds(self, shown: str) -> None:
        """What the players see of enemy wounds: "exact", "band" or "hidden"."""
        self._command(lambda encounter: encounter.set("enemy_wounds", shown))

    def set_player_sides(self, sides: Sequence[str]) -> None:
        """The sides the players play: they see those sheets and exact wounds."""
        self._command(lambda encounter: encounter.set("player_sides", list(sides)))

    def reveal(self, ident: str) -> None:
        """Show a hidden combatant to the players."""
        if not ident:
            self._say(f"{_text('reveal')}: {t('hidden')} –", error=True)
            return
        self._command(lambda encounter: encounter.reveal(ident))

    def poll(self) -> int:
        """Read what another kernel wrote to the campaign file; returns how many events. A
        failed read (the disk, an event damaged) is shown where refusals are."""
        if self.encounter is None:
            return 0
        try:
            found = self.encounter.refresh()
        except EncounterGone:
            self._encounter_gone()
            return 0
        except StoreError as error:
            self._refused(error)
            return 0
        self._open_inbox()
        if self.inbox_panel is not None:
            self.inbox_panel.refresh()  # the phones' requests (their seats file)
        if self.asking_line is not None:
            self.asking_line.poll()  # a defender's reply to the hit shown
        return found

    # --- the players' seats -----------------------------------------------------------------

    @property
    def seats_file(self) -> SeatsFile:
        """The campaign's seats file (beside it; made when first needed)."""
        if self._seats is None:
            self._seats = SeatsFile.of_campaign(self.store.path)
        return self._seats

    def seats(self) -> list[Seat]:
        """The open seats of the encounter shown (none before a seat is given)."""
        if self.encounter is None or not seats_path(self.store.path).exists():
            return []
        return self.seats_file.seats(self.encounter.name)

    @property
    def players_url(self) -> str:
        """Where the players' page is served, as ``gmkit players`` said ("" before)."""
        return self.seats_file.players_url if seats_path(self.store.path).exists() else ""

    def give_seat(self, player: str, combatants: Sequence[str]) -> Seat:
        """A seat for ``player`` playing ``combatants`` (ids) in the encounter shown."""
        if self.encounter is None:
            raise GmkitError(Message("widgets.dashboard.no_encounter"))
        seat = self.seats_file.give(self.encounter.name, player, tuple(combatants))
        self._open_inbox()
        return seat

    def revoke_seat(self, key: str) -> None:
        """Close the seat of ``key``: its link opens nothing from now on."""
        self.seats_file.revoke(key)

    def _open_inbox(self) -> None:
        """The inbox under the tracker, once the encounter has a seat."""
        if self.inbox_panel is not None or self.encounter is None or not self.seats():
            return
        self.inbox_panel = InboxPanel(self.encounter, self.seats_file, self._edit_request)
        self.left.children = [self.tracker, self.inbox_panel, self.panes]
        if self.attack is not None:  # a hit on a seat's combatant: its player is asked to react
            asking = ReactionAsk(self.encounter, self.seats_file)
            self.asking_line = AskingLine(asking, self.attack.form)
            # above the panel: in sight of Resolve and Apply, whatever the result's length
            self.attack_slot.children = [self.asking_line, self.attack]

    def _edit_request(self, intent: Intent) -> None:
        """A player's attack in the attack panel, for the GM to change and apply: its
        choices, and the table's dice the phone typed (resolved with them)."""
        attack = self.attack
        if attack is None or not isinstance(intent, AttackIntent):
            return
        attack.select_attacker(intent.combatant)
        attack.select_weapon(intent.weapon)
        attack.select_mode(intent.mode)
        attack.select_action(intent.action)
        attack.select_target(intent.target)
        if intent.dice is not None:
            attack.set_dice_mode("physical")
            attack.take_dice([str(value) for value in intent.dice])

    @property
    def dice(self) -> DiceTray:
        """The dice tray (built on first use: its tab, or this property)."""
        if self._dice is None:
            self._dice = DiceTray(seed=self.seed)
            self.dice_slot.children = [self._dice]
        return self._dice

    @property
    def players(self) -> PlayersControls:
        """The players' tab: what the players see (built on first use: its tab, or this)."""
        if self._players is None:
            self._players = PlayersControls(self, self._looks)
            self.players_box.children = [self._players]
            self._players.render()
        return self._players

    wounds_picker = property(lambda self: self.players.wounds, doc="the enemy wounds shown")
    sides_picker = property(lambda self: self.players.sides, doc="the players' sides")
    reveal_picker = property(lambda self: self.players.reveal_picker, doc="whom to reveal")
    reveal_button = property(lambda self: self.players.reveal_button, doc="reveal them")

    @property
    def combat_log(self) -> CombatLog | None:
        """The combat log (built on first use: its pane, or this property)."""
        if self._log is None and self.encounter is not None:
            self._log = CombatLog(self.encounter, with_style=False)
        return self._log

    @property
    def units_panel(self) -> UnitsPanel | None:
        """The units on the table, in a game that has them (built on first use: its pane,
        or this property); None in another game."""
        encounter = self.encounter
        if self._units is None and encounter is not None and has_units(encounter.game):
            self._units = UnitsPanel(encounter)
        return self._units

    @property
    def selected_combatant(self) -> Any:
        if self.encounter is None or self.tracker is None or not self.tracker.selected:
            return None
        return self.encounter.state.combatants.get(self.tracker.selected)

    def close(self) -> None:
        """Stop following the file and the language; close every part."""
        follower = getattr(self, "follower", None)
        if follower is None:
            return  # closed already, or never finished building
        follower.stop()
        del self.follower
        LANGUAGE.unobserve(self._on_language, names="value")
        self._drop_encounter()
        if self._dice is not None:
            self._dice.close()
        if self._seats is not None:
            self._seats.close()
        super().close()
        todo = list(self.children)  # the dashboard's own widgets (the panels are closed)
        while todo:
            part = todo.pop()
            todo.extend(getattr(part, "children", ()))
            part.close()
        self._looks.close()

    # --- inside -----------------------------------------------------------------------------

    def _command(self, command: Callable[[Encounter], object]) -> None:
        if self.encounter is None:
            self._say(_text("no_encounter"), error=True)
            return
        try:
            command(self.encounter)
        except EncounterGone:  # prepared again or deleted elsewhere: nothing was written
            self._encounter_gone()
            return
        except GmkitError as error:  # a store failure too: what was not saved, in its words
            self._refused(error)
            return
        self._say("")

    def _encounter_gone(self) -> None:
        """The fight shown left the campaign file (a prep cell run again, or deleted). Shown
        by nobody here yet (this page wrote none of it: a preheated kernel, a tab only
        watching): the fight now of that name opens, with a note. Played here: its panels go
        and a notice says so, offering to open the new one; it is never shown as if live."""
        gone = self.encounter
        assert gone is not None
        name, written, events = gone.name, gone.written_here, gone.last_seq
        self._drop_encounter()
        names = [info.name for info in self.store.encounters()]
        self._syncing = True
        try:
            self.picker.options = names
            self.picker.value = None
        finally:
            self._syncing = False
        if name in names and not written:
            self.select_encounter(name)
            self._say(words(Message("widgets.dashboard.reopened", encounter=name)))
            return
        reopen = (lambda: self.select_encounter(name)) if name in names else None
        self._render_title()  # the campaign's name alone: no game is shown now
        self._gone = GoneNotice(name, events, reopen)
        self.left.children = [self._gone]
        self.attack_slot.children = []
        self._card = None
        self._show_sheet()
        self._say("")

    def _refused(self, error: GmkitError) -> None:
        """Show a refusal (or a store failure) under the top bar, in the GM's language."""
        self._say(error.render(LANGUAGE.value), error=True)

    def _drop_encounter(self) -> None:
        parts = (self.tracker, self.attack, self.turn_panel, self._units, self._log)  # panels
        whole = Whole([*parts, self.panes, self.inbox_panel, self.asking_line, self._gone])
        self.in_view.drop()
        if self._gone is not None:
            self._gone.close()
            self._gone = None
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self.tracker is not None:
            self.tracker.unobserve(self._on_selected, names="selected")
        self._close_editor()
        if self.panes is not None:
            self.panes.close()
            self.panes = None
        if self.inbox_panel is not None:
            self.inbox_panel.close()
            self.inbox_panel = None
        if self.asking_line is not None:
            self.asking_line.close()
            self.asking_line = None
        for part in parts:
            if part is not None:
                part.close()
                # ipywidgets closes a widget again when collecting it; a panel's close need
                # not expect that twice (AttackPanel's does not)
                part.close = _closed  # type: ignore[method-assign]
        self.tracker = self.attack = self.turn_panel = None
        self._log = self._units = None
        self.encounter = None
        whole.close(self)  # what the parts' own closes left open (_closing)
        release()  # a large fight frozen by select_encounter: handed back and collected

    def _panes(self) -> Panes:
        """The left column's panes under the tracker: the turn (shown first, and again when
        a roll falls due), the log, and the units in a game that has them."""
        assert self.turn_panel is not None
        assert self.encounter is not None
        builders: dict[str, Callable[[], widgets.Widget]] = {
            "turn": _given(self.turn_panel),
            "log": lambda: self.combat_log or _closed_pane(),
        }
        if has_units(self.encounter.game):
            builders["units"] = lambda: self.units_panel or _closed_pane()
        panes = Panes(builders)
        self._title_panes(panes)
        return panes

    def _title_panes(self, panes: Panes) -> None:
        due = len(self.encounter.due) if self.encounter is not None else 0
        turn = t("turn_pane")
        panes.set_title("turn", f"{turn} · {due}" if due else turn)
        panes.set_title("log", t("log_pane"))
        if "units" in panes.names:
            panes.set_title("units", t("units_pane"))

    def _say(self, text: str, *, error: bool = False) -> None:
        self.message = text
        css = "gmkit-error" if error else "gmkit-message"
        self.message_area.value = f"<div class='{css}'>{html.escape(text)}</div>" if text else ""

    def _on_tab(self, change: dict[str, Any]) -> None:
        if change["new"] == 1:
            self.dice  # noqa: B018 - built on first use
        elif change["new"] == 2:
            self.players  # noqa: B018 - built on first use

    def _on_pick(self, change: dict[str, Any]) -> None:
        if not self._syncing and change["new"] and change["new"] != self.encounter_name:
            self.select_encounter(str(change["new"]))

    def _on_language_pick(self, change: dict[str, Any]) -> None:
        if not self._syncing:
            self.set_language(str(change["new"]))

    def _on_language(self, _change: object) -> None:
        self._syncing = True
        try:
            self.language.value = LANGUAGE.value
        finally:
            self._syncing = False
        self._relabel()
        if self.panes is not None:
            self._title_panes(self.panes)
        self._show_sheet()
        if self._players is not None:
            self._players.render()
        if self._gone is not None:
            self._gone.relabel()

    def _relabel(self) -> None:
        self.picker.description = _text("encounter")
        for index, key in enumerate(("sheet", "dice_tray", "players")):
            self.tabs.set_title(index, t(key))
        self.edit_button.description = _text("edit")
        if self._players is not None:
            self._players.relabel()
        self._render_title()

    def _render_title(self) -> None:
        game = ""
        if self.encounter is not None:
            from gmkit.games import game as find_game

            game = words(find_game(self.encounter.game).title)
        name = html.escape(self.store.name)
        sub = f" <span class='gmkit-side'>{html.escape(game)}</span>" if game else ""
        self.title.value = f"<h1>{name}{sub}</h1>"

    def _on_change(self, encounter: Encounter) -> None:
        """After every change of the encounter: the sheet card and the players' settings
        follow the state (the attack panel follows the current actor: ``follow_actor``)."""
        self._show_sheet(keep_editor=True)
        if self._players is not None:
            self._players.render()
        if self.panes is not None:
            due = encounter.due
            if due and due != self._due_shown:  # a roll fell due: the turn pane shows it
                self.panes.show("turn")
            self._due_shown = due
            self._title_panes(self.panes)

    def _on_selected(self, _change: object) -> None:
        self._close_editor()
        self._show_sheet()
        self._act_with_selected()

    def _act_with_selected(self) -> None:
        """In a game where a whole side acts (Necromunda, WFB), picking one of that side in
        the tracker makes it the one who acts: the attacker and the turn's actor."""
        combatant = self.selected_combatant
        if combatant is None or self.encounter is None:
            return
        state = self.encounter.state
        if not state.started or state.current is not None:
            return
        if combatant.side != state.current_side or combatant.removed:
            return
        attack = self.attack
        offered = attack is not None and combatant.id in attack.form.offered.attackers
        if attack is not None and offered and attack.attacker != combatant.id:
            attack.select_attacker(combatant.id)
        if self.turn_panel is not None and self.turn_panel.form.actor != combatant.id:
            self.turn_panel.select_actor(combatant.id)

    def _show_sheet(self, *, keep_editor: bool = False) -> None:
        combatant = self.selected_combatant
        shown = (combatant.sheet if combatant is not None else None, LANGUAGE.value)
        if self._card is None or shown[0] is not self._card[0] or shown[1] != self._card[1]:
            # the card changes with the sheet (a new one after an edit) or the language
            self._card = shown
            if combatant is None:
                card = f"<p class='gmkit-message'>{html.escape(_text('no_selection'))}</p>"
            else:
                card = sheet_html(combatant.sheet)
            if self.sheet_card.value != card:
                self.sheet_card.value = card
        display = "none" if combatant is None else ""
        if self.edit_button.layout.display != display:
            self.edit_button.layout.display = display
        if (
            not keep_editor
            and self.edit_button.value
            and combatant is not None
            and self.sheet_editor is None
        ):
            self._open_editor()
        if keep_editor and self.sheet_editor is not None and combatant is not None:
            editor = self.sheet_editor
            if editor.sheet != combatant.sheet and not editor.dirty:
                self._close_editor()
                self._open_editor()

    def _on_edit(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self._open_editor()
        else:
            self._close_editor(untoggle=False)

    def _open_editor(self) -> None:
        combatant = self.selected_combatant
        if combatant is None:
            return
        if self.sheet_editor is not None:
            self.sheet_editor.close()
        self.sheet_editor = SheetEditor(combatant.sheet, on_save=self.save_sheet)
        self.editor_box.children = [self.sheet_editor]
        if not self.edit_button.value:
            self.edit_button.value = True

    def _close_editor(self, *, untoggle: bool = True) -> None:
        if self.sheet_editor is not None:
            self.sheet_editor.close()
            self.sheet_editor = None
        self.editor_box.children = []
        if untoggle and self.edit_button.value:
            self.edit_button.value = False
