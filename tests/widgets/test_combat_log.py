"""The combat log widget: newest first, filters through its dropdowns, physical dice marked,
CSV export, following the encounter."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import ipywidgets
import pandas as pd
import pytest

from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice, SeededDice
from gmkit.encounter import Encounter
from gmkit.sheets.base import Sheet
from gmkit.widgets._combat_log import ALL, SHOWN_ROWS, CombatLog
from gmkit.widgets._i18n import LANGUAGE

pytestmark = pytest.mark.usefixtures("english")  # tests/conftest.py: English, then again


@functools.cache
def sheets(game: str) -> tuple[Sheet, ...]:
    return next(r for r in demo_campaign().rosters if r.game == game).sheets


@pytest.fixture
def fight() -> Encounter:
    """Three acolytes of the Dark Heresy demo, physical initiative 7, 0, 2; started; one turn."""
    encounter = Encounter("dark_heresy", name="Crypt of St. Drusus")
    encounter.add_many(sheets("dark_heresy")[:3])
    encounter.roll_initiative(EnteredDice([7, 0, 2]))
    encounter.start()
    encounter.next_turn()
    return encounter


@pytest.fixture
def log(fight: Encounter) -> Iterator[CombatLog]:
    made = CombatLog(fight)
    yield made
    made.close()


def body_rows(log: CombatLog) -> list[str]:
    body = log.table.value.split("<tbody>", 1)[1]
    return [row for row in body.split("</tr>") if row.startswith("<tr")]


def test_the_table_is_newest_first(log, fight):
    frame = log.frame()
    assert frame["event"].tolist() == list(range(len(fight.effective_events), 0, -1))
    assert frame["kind"].tolist()[:3] == ["turn", "started", "initiative"]
    rows = body_rows(log)
    assert len(rows) == len(fight.effective_events)
    assert "<td class='gmkit-kind'>turn</td>" in rows[0]
    assert "<td class='gmkit-kind'>added</td>" in rows[-1]


def test_physical_rolls_are_marked(log):
    initiative = next(row for row in body_rows(log) if ">initiative<" in row)
    assert "gmkit-physical" in initiative
    assert "<b>d10=7*</b>" in initiative
    assert all("gmkit-physical" not in row for row in body_rows(log) if ">added<" in row)


def test_filters_by_round_kind_and_actor_through_the_dropdowns(log):
    assert [label for label, _ in log.round_filter.options] == ["All", "0", "1"]
    assert log.round_filter.label == "All"  # shown, not blank
    log.round_filter.value = 0
    assert set(log.frame()["round"]) == {0}
    log.kind_filter.value = "added"
    assert log.frame()["kind"].tolist() == ["added"] * 3
    assert len(body_rows(log)) == 3
    log.actor_filter.value = "Ilse Marr"
    frame = log.frame()
    assert frame["kind"].tolist() == ["added"]
    assert len(body_rows(log)) == 1
    log.kind_filter.value = ALL  # All: Ilse's other events, the initiative roll among them
    assert "initiative" in log.frame()["kind"].tolist()
    assert all("Ilse Marr" in actors for actors in log.frame()["actor"])


def test_it_follows_the_encounter_and_keeps_the_filter(log, fight):
    log.kind_filter.value = "turn"
    assert len(log.frame()) == 1
    fight.next_turn()
    fight.add_condition("ilse-marr", "stunned", rounds=1)
    assert len(log.frame()) == 2
    assert log.kind_filter.value == "turn"
    assert ("condition", "condition") in log.kind_filter.options
    fight.undo()
    fight.undo()
    assert len(log.frame()) == 1
    log.kind_filter.value = ALL
    assert log.frame()["kind"].iloc[0] == "turn"


def test_a_filter_value_that_disappears_falls_back_to_all(log, fight):
    fight.add_condition("ilse-marr", "stunned")
    log.kind_filter.value = "condition"
    fight.undo()
    assert log.kind_filter.value == ALL
    assert len(log.frame()) == len(fight.effective_events)


def test_gm_only_events_are_flagged(fight):
    fight.add(sheets("dark_heresy")[4], hidden=True, initiative=6)
    log = CombatLog(fight)
    assert "gmkit-gm" in body_rows(log)[0]
    assert log.frame()["visibility"].iloc[0] == "gm"
    log.close()


def test_export_csv_writes_what_is_shown(log, tmp_path):
    log.kind_filter.value = "added"
    path = log.export_csv(tmp_path / "log.csv")
    written = pd.read_csv(path, keep_default_na=False)
    assert written["kind"].tolist() == ["added"] * 3
    assert written["event"].tolist() == log.frame()["event"].tolist()
    assert list(written.columns) == list(log.frame().columns)


def test_the_export_button_writes_into_the_folder(fight, tmp_path):
    log = CombatLog(fight, folder=tmp_path / "exports")
    log.export_button.click()
    target = tmp_path / "exports" / "Crypt-of-St.-Drusus-log.csv"
    assert target.exists()
    assert len(pd.read_csv(target)) == len(fight.effective_events)
    assert str(target) in log.message_area.value
    log.close()


def test_an_export_that_fails_is_shown(log, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    log.folder.value = str(blocker)
    assert log.export() is None
    assert "gmkit-error" in log.message_area.value


def test_a_sides_game_log(tmp_path):
    fight = Encounter("necromunda")
    fight.add_many(sheets("necromunda")[:4])
    fight.start()
    fight.next_turn()
    log = CombatLog(fight)
    assert log.frame()["turn"].iloc[0] == fight.state.sides[0]
    assert [label for label, _ in log.round_filter.options] == ["All", "0", "1"]
    log.close()


def test_digital_rolls_are_not_marked(fight):
    fight.add(sheets("dark_heresy")[5], source=SeededDice(3))
    log = CombatLog(fight)
    assert "gmkit-physical" not in body_rows(log)[0]
    assert "d10=" in body_rows(log)[0]
    assert log.frame()["dice"].iloc[0] == "digital"
    log.close()


def test_spanish_labels(log):
    LANGUAGE.value = "es"
    assert log.round_filter.description == "Asalto"
    assert log.round_filter.options[0] == ("Todos", ALL)
    assert "<th class='gmkit-round'>Asalto</th>" in log.table.value
    assert log.export_button.description == "Exportar CSV"
    LANGUAGE.value = "en"
    assert "<th class='gmkit-round'>Round</th>" in log.table.value


def long_fight(turns: int) -> Encounter:
    """The three acolytes, ``turns`` turns on from the start."""
    encounter = Encounter("dark_heresy", name="Crypt of St. Drusus")
    encounter.add_many(sheets("dark_heresy")[:3])
    encounter.roll_initiative(EnteredDice([7, 0, 2]))
    encounter.start()
    for _ in range(turns):
        encounter.next_turn()
    return encounter


def test_the_table_shows_a_page_of_the_newest_rows():
    fight = long_fight(SHOWN_ROWS + 20)
    log = CombatLog(fight)
    try:
        log.show_turn_events(True)  # every turn on its own row: more than a page of them
        total = len(fight.effective_events)
        rows = body_rows(log)
        assert len(rows) == SHOWN_ROWS
        assert f"<td class='gmkit-event'>{total}</td>" in rows[0]  # the newest first
        assert len(log.frame()) == total  # the frame and the CSV keep every row
        assert log.pages == 2
        newer, older, where = log.pager.children
        assert f"1–{SHOWN_ROWS} of {total}" in where.value
        assert newer.disabled
        assert not older.disabled
        older.click()  # show_page(1)
        assert log.page == 1
        rows = body_rows(log)
        assert len(rows) == total - SHOWN_ROWS
        assert f"<td class='gmkit-event'>{total - SHOWN_ROWS}</td>" in rows[0]
        assert "<td class='gmkit-event'>1</td>" in rows[-1]
        newer.click()
        assert log.page == 0
        log.show_page(9)  # past the last page: the last page
        assert log.page == 1
        log.kind_filter.value = "added"  # a filter shows its first page
        assert log.page == 0
        assert len(body_rows(log)) == 3
        assert log.pager.layout.display == "none"
    finally:
        log.close()


def test_a_short_log_has_no_pager(log):
    assert log.pager is None


def test_each_event_s_row_is_made_once(log, fight, monkeypatch):
    import gmkit.widgets._combat_log as module

    made: list[int] = []
    real = module.combat_log

    def counted(events, states, **kwargs):
        made.append(len(events))
        return real(events, states, **kwargs)

    monkeypatch.setattr(module, "combat_log", counted)
    fight.next_turn()
    assert made == [1]  # the new event's row alone
    fight.undo()
    assert made == [1]  # the undone event's row dropped, none made
    fight.redo()
    assert made == [1, 1]
    log.show_turn_events(True)
    assert made == [1, 1]  # showing every turn makes no row again
    assert len(body_rows(log)) == len(fight.effective_events)


def test_a_change_that_leaves_the_table_as_it_was_sends_nothing(log, fight, monkeypatch):
    log.kind_filter.value = "added"
    sent: list[object] = []
    monkeypatch.setattr(ipywidgets.Widget, "_send", lambda w, msg, buffers=None: sent.append(w))
    fight.next_turn()  # not an "added" event: the table shows the same rows
    assert log.table not in sent
    assert log.kind_filter not in sent


# --- compact: one or two lines a row, a round's turns in one line -----------------------------


def cells(row: str) -> dict[str, str]:
    """A row's cells by class, as text."""
    import html
    import re

    found = re.findall(r"<td class='gmkit-(\w+)'[^>]*>(.*?)</td>", row)
    return {name: html.unescape(re.sub(r"<[^>]*>", "", value)) for name, value in found}


def test_a_round_s_turns_fold_into_one_line_and_the_toggle_shows_each():
    fight = long_fight(5)  # round 1: Start and two turns, round 2: three
    log = CombatLog(fight)
    try:
        turns = [row for row in body_rows(log) if ">turn<" in row]
        assert len(turns) == 2  # one line per round
        assert all("gmkit-folded" in row for row in turns)
        newest, first = cells(turns[0]), cells(turns[1])
        assert (newest["round"], first["round"]) == ("2", "1")
        order = [fight.combatant(ident).name for ident in fight.state.order]
        assert first["outcome"] == f"Turns: {order[1]} and {order[2]}"  # the first: Start's
        assert newest["outcome"] == f"Turns: {order[0]}, {order[1]} and {order[2]}"
        assert len(body_rows(log)) == len(fight.effective_events) - 3  # 5 turns in 2 lines
        log.turns_toggle.value = True  # the toggle: show_turn_events(True)
        assert log.show_turns
        assert len(body_rows(log)) == len(fight.effective_events)
        assert cells(body_rows(log)[0])["outcome"].startswith("Turn")
        log.show_turn_events(False)
        assert not log.turns_toggle.value
        log.kind_filter.value = "turn"  # asking for turns shows each
        assert len(body_rows(log)) == 5
        LANGUAGE.value = "es"
        log.kind_filter.value = ALL
        spanish = f"Turnos: {order[0]}, {order[1]} y {order[2]}"
        assert cells(body_rows(log)[0])["outcome"] == spanish
        assert log.turns_toggle.description == "Cada turno"
    finally:
        LANGUAGE.value = "en"
        log.close()


def test_every_row_says_what_happened_and_keeps_the_cells_the_pages_read(log, fight):
    rows = [cells(row) for row in body_rows(log)]
    assert all(row["outcome"] for row in rows), rows  # the narration where no summary
    added = next(row for row in rows if row["kind"] == "added")
    assert "Ilse Marr" in added["outcome"] or added["actor"]
    for row in body_rows(log):
        for name in ("kind", "outcome", "rolls", "dice", "event", "round", "actor"):
            assert f"<td class='gmkit-{name}'" in row
    initiative = next(row for row in body_rows(log) if ">initiative<" in row)
    assert "title='d10=7* d10=10* d10=2*'" in initiative  # every die on hover (0 is 10)
    assert cells(initiative)["dice"] == "physical"
    assert log.frame()["outcome"].iloc[-1] == ""  # the frame and the CSV as they were


def test_the_columns_fit_a_narrow_column():
    """Shown: round, actor, what happened (two lines at most), the dice in a line; the other
    cells are kept hidden; the table is laid out to its column's width."""
    from gmkit.widgets._combat_log_rows import HIDDEN, STYLE

    assert set(HIDDEN) == {"event", "turn", "kind", "target", "dice", "visibility"}
    assert "table-layout: fixed" in STYLE
    assert "-webkit-line-clamp: 2" in STYLE
    assert "tr:hover td.gmkit-outcome > div { -webkit-line-clamp: unset; }" in STYLE
