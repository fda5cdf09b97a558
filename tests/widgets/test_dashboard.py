"""The GM's dashboard on the demo campaign file, driven through its public methods."""

from __future__ import annotations

import asyncio
import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import ipywidgets
import pytest

from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.store import CampaignStore
from gmkit.widgets._attack import AttackPanel
from gmkit.widgets._combat_log import CombatLog
from gmkit.widgets._dashboard import Dashboard
from gmkit.widgets._dice_tray import DiceTray
from gmkit.widgets._tracker import InitiativeTracker

CHAPEL = "The Chapel of the Pale Throne"
AMBUSH = "Ambush at the Sump Pipes"
INITIATIVE = "9 10 6 7 1 5 4 8"  # Marr 14, Tull 12, Kell 11, Lorn 10, Fenn 9, Ban 8, ...


pytestmark = pytest.mark.usefixtures("english")  # tests/conftest.py: English, then again


@pytest.fixture
def store(demo_copy: Path) -> Iterator[CampaignStore]:
    with CampaignStore(demo_copy) as opened:
        yield opened


@pytest.fixture
def dashboard(store: CampaignStore) -> Iterator[Dashboard]:
    made = Dashboard(store, seed=7, follow=False)
    yield made
    made.close()


def started(dashboard: Dashboard) -> Dashboard:
    assert dashboard.tracker is not None
    dashboard.tracker.roll_initiative(INITIATIVE)
    dashboard.tracker.start()
    return dashboard


def test_composes_every_panel_on_the_first_encounter(dashboard, store):
    assert dashboard.encounter_name == CHAPEL
    assert list(dashboard.picker.options) == [info.name for info in store.encounters()]
    assert isinstance(dashboard.tracker, InitiativeTracker)
    assert isinstance(dashboard.attack, AttackPanel)
    assert isinstance(dashboard.combat_log, CombatLog)
    assert isinstance(dashboard.dice, DiceTray)
    # the tracker stays in view; the turn and the log are panes under it, the turn shown
    assert list(dashboard.left.children) == [dashboard.tracker, dashboard.panes]
    assert dashboard.panes.names == ("turn", "log")  # no units in Dark Heresy
    assert list(dashboard.panes.body.children) == [dashboard.turn_panel]
    dashboard.panes.show("log")
    assert list(dashboard.panes.body.children) == [dashboard.combat_log]
    assert dashboard.panes.buttons.value == "log"
    assert list(dashboard.attack_slot.children) == [dashboard.attack]
    assert "gmkit-dark" in dashboard._dom_classes  # the dark theme, for the TV
    assert "gmkit demo campaign" in dashboard.title.value
    assert repr(dashboard) == f"Dashboard('gmkit demo campaign', {CHAPEL!r})"


def test_an_encounter_named_at_start(store):
    made = Dashboard(store, AMBUSH, follow=False)
    try:
        assert made.encounter is not None
        assert made.encounter.game == "necromunda"
        assert made.picker.value == AMBUSH
    finally:
        made.close()


def test_select_encounter_replaces_the_encounter_s_panels(dashboard):
    old_tracker, old_attack = dashboard.tracker, dashboard.attack
    dashboard.select_encounter(AMBUSH)
    assert dashboard.encounter is not None
    assert dashboard.encounter.game == "necromunda"
    assert dashboard.tracker is not old_tracker
    assert dashboard.attack is not old_attack
    assert old_tracker.comm is None  # the old panels are closed
    assert dashboard.picker.value == AMBUSH
    dashboard.picker.value = CHAPEL  # the picker does the same
    assert dashboard.encounter.game == "dark_heresy"


def test_an_unknown_encounter_is_refused_and_the_current_one_kept(dashboard):
    dashboard.select_encounter("No such fight")
    assert "No such fight" in dashboard.message
    assert dashboard.encounter_name == CHAPEL


def test_the_language_switch_relabels_every_panel(dashboard):
    dashboard.set_language("es")
    assert dashboard.tracker.next_button.description == "Siguiente"
    assert dashboard.attack.resolve_button.description == "Resolver"
    assert dashboard.tabs.get_title(1) == "Bandeja de dados"
    assert dashboard.language.value == "es"
    dashboard.language.value = "en"  # the toggle does the same
    assert dashboard.tracker.next_button.description == "Next"
    dashboard.set_language("xx")
    assert "xx" in dashboard.message


def test_the_selected_combatant_s_sheet_is_shown_with_the_gm_s_notes(dashboard):
    dashboard.select_combatant("Demagogue Ostrava")
    assert "Demagogue Ostrava" in dashboard.sheet_card.value
    assert "Knows the acolytes are coming" in dashboard.sheet_card.value  # the GM's screen
    dashboard.tracker.rows["cultist-ban"].select_button.click()  # the row's Sheet button
    assert "Cultist Ban" in dashboard.sheet_card.value


def test_a_sheet_edit_is_saved_as_the_encounter_command_edit_sheet(dashboard):
    dashboard.select_combatant("Jessa Kell")
    dashboard.edit_button.value = True
    editor = dashboard.sheet_editor
    assert editor is not None
    assert editor.character == "Jessa Kell"
    assert editor.set_value("fatigue", "1")
    assert editor.save() is not None
    event = dashboard.encounter.events[-1]
    assert event["kind"] == "sheet_edited"
    assert event["changes"] == {"fatigue": 1}
    assert dashboard.encounter.combatant("Jessa Kell").sheet.fatigue == 1
    assert dashboard.combat_log.frame().iloc[0]["kind"] == "sheet_edited"
    # a refused value is shown by the editor and saves nothing
    assert not editor.set_value("wounds", "many")
    assert editor.save() is None
    assert dashboard.encounter.events[-1] is event or dashboard.encounter.events[-1] == event


def test_save_sheet_without_a_change_writes_nothing(dashboard):
    dashboard.select_combatant("Ilse Marr")
    before = len(dashboard.encounter.events)
    assert dashboard.save_sheet(dashboard.selected_combatant.sheet)
    assert len(dashboard.encounter.events) == before


def test_the_attacker_follows_the_current_actor(dashboard):
    started(dashboard)
    assert dashboard.attack.attacker == "ilse-marr"
    dashboard.tracker.next_turn()
    assert dashboard.attack.attacker == "sergeant-varro-tull"


def test_an_attack_through_the_dashboard_panels(dashboard):
    started(dashboard)
    attack = dashboard.attack
    attack.select_target("cultist-ban")
    attack.resolve("20 3")
    assert attack.result is not None
    assert "2 damage" in str(attack.result.summary)
    attack.apply()
    assert dashboard.encounter.combatant("Cultist Ban").sheet.wounds_remaining == 6
    assert "hits Cultist Ban" in dashboard.combat_log.table.value
    assert "6/8" in dashboard.tracker.rows["cultist-ban"].html.value
    attack.undo()
    assert dashboard.encounter.combatant("Cultist Ban").sheet.wounds_remaining == 8


def test_the_buttons_work_clicked_from_a_subshell_thread(dashboard, in_fresh_thread):
    """JupyterLab 4.4+ sends widget messages to ipykernel 7 on a subshell thread: Next and
    Apply said "the file is damaged" there (the connection belonged to the main thread)."""
    tracker, attack = dashboard.tracker, dashboard.attack
    tracker.dice_values.value = INITIATIVE  # the table's d10s, typed
    in_fresh_thread(lambda: tracker.roll_button.click())
    in_fresh_thread(lambda: tracker.start_button.click())
    for _ in range(3):
        in_fresh_thread(lambda: tracker.next_button.click())
        assert tracker.message == ""
    assert dashboard.encounter.state.current.name == "Cultist Lorn"  # Marr, Tull, Kell, Lorn
    attack.select_target("cultist-ban")
    in_fresh_thread(lambda: attack.resolve("20 3"))
    assert attack.error == ""
    assert attack.result is not None
    in_fresh_thread(lambda: attack.apply_button.click())
    assert attack.error == ""
    assert attack.form.applied
    last = dashboard.encounter.last_seq
    in_fresh_thread(lambda: attack.undo_button.click())
    assert dashboard.encounter.last_seq == last + 1
    assert dashboard.encounter.events[-1]["kind"] == "undo"
    with CampaignStore(dashboard.encounter.store.path, readonly=True) as reader:
        assert Encounter.open(reader, CHAPEL).last_seq == last + 1


def test_the_players_tab_sets_what_the_players_see(dashboard):
    assert dashboard.wounds_picker.value == "band"
    assert dashboard.sides_picker.value == ("Acolytes",)
    dashboard.set_enemy_wounds("exact")
    assert dashboard.encounter.state.settings["enemy_wounds"] == "exact"
    assert dashboard.wounds_picker.value == "exact"
    dashboard.wounds_picker.value = "hidden"  # the toggle does the same
    assert dashboard.encounter.state.settings["enemy_wounds"] == "hidden"
    dashboard.sides_picker.value = ("Acolytes", "Pale Throne cult")
    assert dashboard.encounter.state.settings["player_sides"] == ["Acolytes", "Pale Throne cult"]
    dashboard.set_enemy_wounds("most")
    assert "most" in dashboard.message


def test_reveal_shows_a_hidden_combatant_to_the_players(dashboard):
    assert [label for label, _ in dashboard.reveal_picker.options] == ["Demagogue Ostrava"]
    dashboard.reveal_button.click()
    assert not dashboard.encounter.combatant("Demagogue Ostrava").hidden
    assert dashboard.reveal_picker.options == ()
    assert dashboard.reveal_button.disabled
    dashboard.reveal("")
    assert dashboard.message


def test_poll_reads_what_another_kernel_wrote(dashboard, store):
    other = CampaignStore(store.path)
    try:
        elsewhere = Encounter.open(other, CHAPEL)
        elsewhere.roll_initiative(EnteredDice([9, 10, 6, 7, 1, 5, 4, 8]))
        elsewhere.start()
    finally:
        other.close()
    assert dashboard.poll() == 2
    assert dashboard.tracker.encounter.state.current.name == "Ilse Marr"
    assert "Ilse Marr" in dashboard.tracker.header.value
    dashboard.tracker.next_turn()  # and the dashboard writes on after it
    assert dashboard.encounter.state.current.name == "Sergeant Varro Tull"


def test_the_dashboard_follows_the_file_on_the_kernel_s_loop(store, in_fresh_thread):
    async def scenario() -> str:
        made = Dashboard(CampaignStore(store.path), interval=0.05)  # this thread's connection
        assert made.follower.running
        writer = CampaignStore(store.path)
        try:
            elsewhere = Encounter.open(writer, CHAPEL)
            elsewhere.roll_initiative(EnteredDice([9, 10, 6, 7, 1, 5, 4, 8]))
            elsewhere.start()
        finally:
            writer.close()
        for _ in range(100):
            await asyncio.sleep(0.05)
            if made.encounter.state.started:
                break
        header = made.tracker.header.value
        made.close()
        return header

    assert "Ilse Marr" in in_fresh_thread(scenario)


def test_a_campaign_without_encounters_says_so(tmp_path):
    with CampaignStore(tmp_path / "empty.gmk", create=True) as empty:
        made = Dashboard(empty, follow=False)
        try:
            assert made.encounter is None
            assert "no encounter" in made.message
            made.set_enemy_wounds("exact")
            assert "no encounter" in made.message
        finally:
            made.close()


def test_close_is_idempotent(store):
    made = Dashboard(store, follow=False)
    made.close()
    made.close()
    assert made.tracker is None


def test_the_dice_tray_is_built_when_its_tab_is_opened(dashboard):
    assert dashboard._dice is None
    assert dashboard.dice_slot.children == ()
    dashboard.tabs.selected_index = 1
    (tray,) = dashboard.dice_slot.children
    assert isinstance(tray, DiceTray)
    assert dashboard.dice is tray
    assert tray.roll("2d6") is not None


def models() -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # deprecated name, same registry
        return len(ipywidgets.Widget.widgets)


def test_the_dashboard_is_few_widget_models(store):
    before = models()
    made = Dashboard(store, seed=7, follow=False)
    try:
        # the page builds each one at load (was 200; the tracker's rows now carry an
        # initiative box each, and the keyboard and the dice boxes are widgets)
        assert models() - before <= 240
        attack = made.attack
        assert attack.circumstance_grid is None  # built when the GM opens them
        assert made._players is None  # the players' tab: built when opened
        made.tabs.selected_index = 2
        assert made.wounds_picker in made.players.children
    finally:
        made.close()


class Page:
    """What the page was sent: every widget's state, kept up to date by each update."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.updates: list[tuple[str, dict[str, object]]] = []
        self.state: dict[str, dict[str, object]] = {}
        real = ipywidgets.Widget._send

        def send(widget: ipywidgets.Widget, msg: dict, buffers: object = None) -> None:
            if msg.get("method") == "update":
                self.updates.append((widget.model_id, json.loads(json.dumps(msg["state"]))))
            return real(widget, msg, buffers)

        monkeypatch.setattr(ipywidgets.Widget, "_send", send)

    def shown(self, root: ipywidgets.Widget) -> None:
        """The page shows ``root``: every model it refers to, with its state."""
        todo = [root]
        while todo:
            widget = todo.pop()
            if widget.model_id in self.state:
                continue
            self.state[widget.model_id] = json.loads(json.dumps(widget.get_state(), default=str))
            for name in widget.keys:
                value = getattr(widget, name)
                for part in value if isinstance(value, list | tuple) else [value]:
                    if isinstance(part, ipywidgets.Widget):
                        todo.append(part)
        self.updates.clear()

    def redundant(self) -> list[tuple[str, dict[str, object]]]:
        """Updates that changed nothing the page had (each applied in turn)."""
        found = []
        for ident, state in self.updates:
            known = self.state.setdefault(ident, {})
            if all(known.get(key) == value for key, value in state.items()):
                found.append((ident, state))
            known.update(state)
        return found


def test_a_turn_sends_only_what_changed(dashboard, monkeypatch):
    started(dashboard)
    page = Page(monkeypatch)
    page.shown(dashboard)
    header = dashboard.tracker.header.model_id
    for _ in range(16):  # twice round the table
        before = len(page.updates)
        dashboard.tracker.next_turn()
        turn = page.updates[before:]
        assert turn[0][0] == header  # whose turn it is, first
        # a message for each part that changed (was 24 to 31; now also the Undo button's
        # label and the turn pane's actor)
        assert len(turn) <= 22
    assert page.redundant() == []


def test_in_a_sides_game_picking_a_fighter_of_the_side_makes_it_the_one_who_acts(dashboard):
    """Necromunda: the whole side acts; the GM picks who in the tracker (its Sheet button),
    and the attack panel and the turn's actions follow; one of the other side does not."""
    dashboard.select_encounter("Ambush at the Sump Pipes")
    fight = dashboard.encounter
    assert fight is not None
    assert dashboard.tracker is not None
    assert dashboard.attack is not None
    dashboard.tracker.start()
    side = fight.state.current_side
    mine = [c for c in fight.state.present if c.side == side]
    other = next(c for c in fight.state.present if c.side != side)
    assert len(mine) >= 2
    assert dashboard.attack.attacker == mine[0].id  # the first of the side, by default
    dashboard.select_combatant(mine[1].id)
    assert dashboard.attack.attacker == mine[1].id
    assert dashboard.turn_panel is not None
    assert dashboard.turn_panel.form.actor == mine[1].id
    dashboard.select_combatant(other.id)  # only its sheet is shown
    assert dashboard.attack.attacker == mine[1].id
    assert dashboard.selected_combatant.id == other.id


def test_the_keyboard_shortcuts_do_what_their_buttons_do(dashboard):
    """N, R, A, U, Shift+U: the Shortcuts widget's actions call the buttons' methods, and do
    nothing while the button is disabled (Apply before a result)."""
    started(dashboard)
    fight, attack = dashboard.encounter, dashboard.attack
    assert fight is not None
    assert attack is not None
    first = fight.state.current
    events = len(fight.effective_events)
    dashboard.shortcuts.press("apply")  # no result yet: Apply is disabled, nothing happens
    assert len(fight.effective_events) == events
    dashboard.shortcuts.press("resolve")
    assert attack.result is not None
    dashboard.shortcuts.press("apply")
    assert len(fight.effective_events) == events + 1
    assert fight.effective_events[-1]["kind"] == "attack"
    dashboard.shortcuts.press("undo")
    assert len(fight.effective_events) == events
    dashboard.shortcuts.press("redo")
    assert len(fight.effective_events) == events + 1
    dashboard.shortcuts.press("next")
    assert fight.state.current is not None
    assert fight.state.current.id != first.id
    with pytest.raises(ValueError, match="not one of"):
        dashboard.shortcuts.press("fire")


def test_each_turn_change_scrolls_the_actors_row_into_view(dashboard):
    """Issue 21 items 9 and 10: the actor's row is asked into view on each turn change (its
    class, fixed for the row), the Remove question under its row when it is asked, Do it and
    Add condition when their forms open."""
    started(dashboard)
    fight, tracker, keys = dashboard.encounter, dashboard.tracker, dashboard.shortcuts
    assert fight is not None
    assert tracker is not None

    def actor_row() -> str:
        assert fight.state.current is not None
        return f".gmkit-tracker .{tracker.rows[fight.state.current.id].css_class}"

    assert keys.revealed == actor_row()
    seen = {keys.revealed}
    for _ in range(8):  # round the table: each actor's row in turn
        dashboard.press("next")
        assert keys.revealed == actor_row()
        seen.add(keys.revealed)
    assert len(seen) == len(fight.state.present)
    tracker.remove(fight.state.present[-1].id)
    assert keys.revealed == ".gmkit-tracker .gmkit-confirm"
    tracker.cancel_remove()
    panel = dashboard.turn_panel  # the turn's forms: what the GM presses next
    assert panel is not None
    panel.open_conditions()
    assert keys.revealed == ".gmkit-turn-panel .gmkit-add-condition"
    panel.open_actions()
    assert keys.revealed == ".gmkit-turn-panel .gmkit-do-line"  # Do it (anyway)
    keys.revealed = ""
    panel.select_action("move")
    assert keys.revealed == ".gmkit-turn-panel .gmkit-do-line"
    dashboard.select_encounter(AMBUSH)  # a side acts: its first fighter's row
    assert dashboard.tracker is not None
    dashboard.tracker.start()
    side = dashboard.encounter.state.current_side
    first = next(c for c in dashboard.encounter.state.present if c.side == side)
    assert keys.revealed == f".gmkit-tracker .{dashboard.tracker.rows[first.id].css_class}"
