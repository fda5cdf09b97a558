"""The words a GM reads (issue 21, items 17 and 19): no English or data id left on the Spanish
page, one Spanish term per thing, plurals and possessives that agree, notes only where they
apply, one word for the GM's secret and another for Necromunda's Hide, and the combatants the
players do not see marked in the Target list."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from functools import cache

import pytest

from gmkit._forms import AttackForm
from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.encounter import _fold as fold
from gmkit.errors import GmkitError
from gmkit.messages import LANGUAGES, Message, catalogs, render
from gmkit.messages._check import english_words
from gmkit.systems._imperial.acting_actions import perform
from gmkit.systems._imperial.terms import fury
from gmkit.systems.acting import ActionRequest
from gmkit.systems.base import Standing
from gmkit.widgets._attack import AttackPanel
from gmkit.widgets._combat_log import CombatLog
from gmkit.widgets._i18n import LANGUAGE
from gmkit.widgets._player_sheet import sheet_details
from gmkit.widgets._tracker import InitiativeTracker
from gmkit.widgets._turn_panel import TurnPanel

RAW_ID = re.compile(r"\b[a-z]+_[a-z_]+\b")


@pytest.fixture
def spanish() -> Iterator[None]:
    LANGUAGE.value = "es"
    yield
    LANGUAGE.value = "en"


@cache
def roster(game: str):
    return next(r for r in demo_campaign().rosters if r.game == game)


def fight_of(game: str) -> Encounter:
    encounter = Encounter(game, name=roster(game).title)
    encounter.add_many(roster(game).sheets)
    return encounter


def labels(dropdown) -> list[str]:
    return [str(option[0]) for option in dropdown.options]


def text_of(value: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]*>", " ", value)))


# --- item 17: English left on the Spanish page ---------------------------------------------


@pytest.mark.parametrize(("game", "bare"), [("wfrp2", "Sin armas"), ("dark_heresy", "Desarmado")])
def test_the_weapon_list_names_bare_hands_in_spanish(spanish, game, bare):
    panel = AttackPanel(fight_of(game), seed=1)
    try:
        shown = labels(panel.weapon_box)
        assert bare in shown
        assert "Unarmed" not in shown
        assert [v for _, v in panel.weapon_box.options][-1] == "Unarmed"  # the rules' name
    finally:
        panel.close()


def test_condition_suggestions_are_names_in_the_pages_language(spanish):
    encounter = fight_of("deathwatch")
    InitiativeTracker(encounter, seed=5).roll_initiative()
    encounter.start()
    panel = TurnPanel(encounter, seed=3)
    try:
        panel.open_conditions()
        controls = panel.condition_controls
        assert controls is not None
        suggested = list(controls.name.options)
        assert "En llamas" in suggested
        assert "Aturdido" in suggested
        assert [s for s in suggested if RAW_ID.search(s)] == []
        who = controls.who.value
        controls.name.value = "En llamas"
        controls.rounds.value = "2"
        controls.add.click()
        assert encounter.state.combatant(who).conditions["on_fire"].rounds == 2
        assert controls.condition_key("stunned") == "stunned"  # typed in English too
        assert controls.condition_key("Mi propio estado") == "Mi propio estado"
    finally:
        panel.close()


def test_every_event_kind_of_the_log_has_words_in_both_languages():
    found = catalogs()
    missing = [
        kind
        for kind in sorted(fold._HANDLERS)
        if (english := found.english(f"widgets.log.kind.{kind}")) is None
        or found.translated(f"widgets.log.kind.{kind}", "es", english) in (None, english)
    ]
    assert missing == []


def test_the_logs_kind_filter_reads_in_spanish(spanish):
    encounter = fight_of("deathwatch")
    tracker = InitiativeTracker(encounter, seed=5)
    log = CombatLog(encounter)
    panel = TurnPanel(encounter, seed=3)
    try:
        tracker.roll_initiative()
        tracker.start()
        actor = encounter.state.current
        assert actor is not None
        panel.form.select_action("move")
        panel.form.perform()  # an "action" event
        kinds = labels(log.kind_filter)
        assert "acción" in kinds
        assert [k for k in kinds if RAW_ID.search(k) or k in ("action", "turn")] == []
    finally:
        for widget in (tracker, log, panel):
            widget.close()


def test_a_refused_reaction_is_named_not_keyed(spanish):
    form = AttackForm(fight_of("dark_heresy"))
    form.select_attacker("ilse-marr")
    form.select_target("cultist-ban")
    assert "parry" in form.offered.reactions_refused  # a shot cannot be parried
    with pytest.raises(GmkitError) as refused:
        form.select_reaction("parry")
    text = render(refused.value.message, "es")
    assert text.startswith("la reacción Parar no se ofrece"), text
    assert "parry" not in text


def test_the_called_shots_locations_are_the_games_words(spanish):
    panel = AttackPanel(fight_of("dark_heresy"), seed=1)
    try:
        panel.select_attacker("ilse-marr")
        panel.select_target("cultist-ban")
        panel.select_action("called_shot")
        shown = labels(panel.location_box)
        assert "brazo derecho" in shown
        assert "cabeza" in shown
        assert [s for s in shown if "_" in s or s in ("right arm", "head")] == []
    finally:
        panel.close()


def test_necromundas_profile_on_the_phones_has_the_spanish_books_abbreviations():
    kael = next(s for s in roster("necromunda").sheets if s.name == "Brother Kael")
    spanish = text_of(sheet_details(kael.public_view(), "es"))
    assert "Perfil M 4, HA 4, HP 4, F 3, R 3, H 1, I 4, A 1, L 8" in spanish
    assert "Armas pistola bólter, espada" in spanish
    assert english_words(spanish, {"Brother Kael"}) == []
    english = text_of(sheet_details(kael.public_view(), "en"))
    assert "Profile M 4, WS 4, BS 4, S 3, T 3, W 1, I 4, A 1, Ld 8" in english


def test_what_is_left_of_a_turn_agrees_with_its_number():
    one = Message(
        "turns.permit.pool_short",
        name="Ban",
        left=1,
        pool=Message("turns.pool.actions"),
        action_type=Message("turns.action_type.full"),
        cost=2,
    )
    assert (
        render(one, "es") == "a Ban le queda 1 este turno (acciones); la acción completa necesita 2"
    )
    assert render(one) == "Ban has 1 left this turn (actions); the full action needs 2"


def test_one_term_per_thing_wounds_and_righteous_fury():
    for state, spanish in (
        ("lightly_wounded", "herido leve"),
        ("seriously_wounded", "herido grave"),
    ):
        ids = (f"sheets.value.{state}", f"odds.term.{state}", f"wfrp2.wound_state.{state}")
        assert {render(Message(i), "es") for i in ids} == {spanish}  # seed 002's words
    assert render(fury("dark_heresy"), "es") == render(fury("deathwatch"), "es")
    assert render(fury("dark_heresy"), "es") == "Furia Justiciera"
    found = catalogs()
    assert [
        i for i, e in found.translations["es"].items() if "Furia Virtuosa" in e.translated
    ] == []


# --- item 19: notes, agreement, ids, two words, the Target list ----------------------------

PISTOLS = "with a pistol in each hand able to fire this mode, both fire with this action"
LEFT_BEHIND = "an opponent left behind gets a free Standard Attack"


def test_the_two_pistols_note_shows_only_with_a_pistol_in_each_hand():
    encounter = Encounter("dark_heresy")
    ganger = next(s for s in roster("dark_heresy").sheets if s.name == "Cultist Ban")
    one = ganger.edit(name="One", weapons=["Autopistol"], talents=["Pistol Training (SP)"])
    two = ganger.edit(name="Two", weapons=["Autopistol", "Autopistol"])
    encounter.add_many([one, two, ganger.edit(name="Target")])
    panel = AttackPanel(encounter, seed=1)
    try:
        panel.select_attacker("one")
        panel.select_target("target")
        panel.select_mode("full")
        panel.set_distance(8)
        assert panel.action == "full_auto_burst", panel.error
        assert PISTOLS not in text_of(panel.preview_html.value)  # one autopistol
        panel.select_attacker("two")
        panel.select_target("target")
        panel.select_mode("full")
        panel.set_option("two_weapons", True)
        assert PISTOLS in text_of(panel.preview_html.value)  # a pistol in each hand
    finally:
        panel.close()


def test_a_plain_move_does_not_promise_a_free_attack_but_leaving_melee_does():
    castor = next(s for s in roster("deathwatch").sheets if s.name == "Brother Castor")

    def move(conditions: tuple[str, ...]) -> str:
        request = ActionRequest(
            actor=castor, action="move", action_type="half", actor_standing=Standing(conditions)
        )
        result = perform("deathwatch", request, EnteredDice([]))
        return " ".join(render(step.detail) for step in result.steps)

    assert LEFT_BEHIND not in move(())
    assert LEFT_BEHIND in move(("engaged",))


@pytest.mark.parametrize(
    ("message", "english", "spanish"),
    [
        (Message("imperial.horde.hits", count=1), "1 hit", "1 impacto"),
        (Message("imperial.horde.hits", count=3), "3 hits", "3 impactos"),
        (Message("imperial.preview.max_hits", hits=1), "at most 1 hit", "como mucho 1 impacto"),
        (Message("imperial.stun.stunned", rounds=1), "stunned for 1 round", None),
        (Message("wfrp2.preview.attacks", attacks=1), "1 attack, each its own test", None),
        (Message("wfrp2.applied.wounds", wounds=3, left=1), "3 -> 1 wound", "3 -> 1 herida"),
    ],
)
def test_a_number_agrees_with_its_noun_in_both_languages(message, english, spanish):
    assert render(message) == english
    if spanish is not None:
        assert render(message, "es") == spanish


def test_a_plural_name_ending_in_s_takes_the_apostrophe_alone():
    turn = Message(
        "turns.permit.not_their_side", side="The Ashen Brethren", own="The Sump Scavvies"
    )
    assert render(turn) == "it is The Ashen Brethren's turn, not The Sump Scavvies'"
    position = Message(
        "necromunda.turn.position", round=1, side="The Sump Scavvies", phase="shooting"
    )
    assert "The Sump Scavvies' turn" in render(position)
    assert "Scavvies's" not in render(position)


def test_chips_read_alike_whatever_their_keys_case_and_name_no_id(spanish):
    encounter = fight_of("deathwatch")
    tracker = InitiativeTracker(encounter, seed=5)
    try:
        tracker.roll_initiative()
        tracker.start()
        castor = "brother-castor"
        encounter.add_condition(castor, "stunned", rounds=1)
        encounter.add_condition(castor, "aimed: half")  # a key with what it is of
        shown = [b.description for b in tracker.rows[castor].chip_buttons.values()]
        assert shown == ["Aturdido · 1 asalto ✕", "Apuntando (media) ✕"]
    finally:
        tracker.close()
    encounter = fight_of("necromunda")  # conditions kept by lower-case English names
    tracker = InitiativeTracker(encounter, seed=5)
    try:
        tracker.start()
        encounter.add_condition("rotgut", "pinned", rounds=1)
        encounter.add_condition("rotgut", "down")
        shown = [b.description for b in tracker.rows["rotgut"].chip_buttons.values()]
        assert shown == ["Aturdido · 1 asalto ✕", "Neutralizado ✕"]
    finally:
        tracker.close()


def test_the_gms_secret_and_necromundas_hide_are_two_words_in_both_languages():
    for language in LANGUAGES:
        secret = render(Message("widgets.hidden"), language)
        hide = render(Message("necromunda.condition.hidden"), language)
        assert secret.casefold() != hide.casefold(), language
    assert render(Message("widgets.hidden"), "es") == "secreto"
    assert render(Message("necromunda.condition.hidden"), "es") == "oculto"  # seed 000's word


def test_the_target_list_marks_the_combatants_the_players_do_not_see(spanish):
    encounter = Encounter("dark_heresy")
    sheets = roster("dark_heresy").sheets
    encounter.add_many([s for s in sheets if s.name != "Demagogue Ostrava"])
    ostrava = encounter.add(next(s for s in sheets if s.name == "Demagogue Ostrava"), hidden=True)
    panel = AttackPanel(encounter, seed=1)
    try:
        panel.select_attacker("ilse-marr")
        shown = {v: str(label) for label, v in panel.target_box.options}
        assert shown[ostrava] == "Demagogue Ostrava (Pale Throne cult) · secreto"
        assert shown["cultist-ban"] == "Cultist Ban (Pale Throne cult)"
    finally:
        panel.close()


# --- the whole dashboard of each game, read by gmkit.messages._check ------------------------


def typed_names() -> set[str]:
    """What the demo campaign names as typed: characters, sides, units, encounters, the GM's
    notes and the sheets' notes (prose a GM wrote, never translated)."""
    from gmkit.campaign import DEMO_FIGHTS
    from gmkit.demo import DEMO_NAME

    names = {DEMO_NAME, *(fight.gm_note for fight in DEMO_FIGHTS)}
    for one in demo_campaign().rosters:
        names.add(one.title)
        for sheet in one.sheets:
            names |= {sheet.name, sheet.side, sheet.notes, str(getattr(sheet, "unit", "") or "")}
    return {name for name in names if name}


@pytest.mark.parametrize("game", ["dark_heresy", "necromunda", "deathwatch", "wfrp2", "wfb6"])
def test_the_dashboard_of_each_game_reads_in_spanish(spanish, demo_file, tmp_path, game):
    """The tracker, the attack panel with its editors open and a result shown, the turn and log
    panes, a combatant's sheet and its editor: no English rule word, no data id."""
    from gmkit.store import CampaignStore
    from gmkit.widgets._dashboard import Dashboard

    from .test_spanish_table import shown_text

    copy = tmp_path / "campaign.gmk"
    copy.write_bytes(demo_file.read_bytes())
    names = typed_names()
    with CampaignStore(copy) as store:
        name = next(info.name for info in store.encounters() if info.game == game)
        dashboard = Dashboard(store, seed=7, follow=False)
        try:
            dashboard.select_encounter(name)
            names.add(name)
            encounter, tracker = dashboard.encounter, dashboard.tracker
            assert encounter is not None
            assert tracker is not None
            if encounter.structure.kind == "initiative":
                tracker.roll_initiative()
            tracker.start()
            attack = dashboard.attack
            attack.edit_circumstances(True)
            attack.edit_options(True)
            attack.set_distance(8)
            attack.resolve()
            dashboard.select_combatant(encounter.state.present[0].id)
            dashboard.edit_button.value = True  # the sheet editor, its labels and names
            for pane in dashboard.panes.names:
                dashboard.panes.show(pane)
                text = shown_text(dashboard)
                assert english_words(text, names) == [], (pane, text[:3000])
                assert RAW_ID.findall(text) == [], (pane, RAW_ID.findall(text))
        finally:
            dashboard.close()


@pytest.mark.parametrize("game", ["dark_heresy", "necromunda", "deathwatch", "wfrp2", "wfb6"])
def test_the_sheet_editor_speaks_spanish_and_reads_back_what_it_shows(spanish, game):
    """Every demo sheet: labels, records' keys and words, names in Spanish, no English rule
    word; what is shown reads back to the very sheet (nothing to save)."""
    from gmkit.widgets._sheet_editor import SheetEditor

    from .test_spanish_table import shown_text

    for sheet in roster(game).sheets:
        editor = SheetEditor(sheet)
        try:
            assert editor.valid
            assert not editor.dirty
            assert editor.candidate == sheet
            typed = {sheet.name, sheet.side, sheet.notes, str(getattr(sheet, "unit", "") or "")}
            text = shown_text(editor)
            assert english_words(text, typed) == [], (sheet.name, text[:3000])
            assert RAW_ID.findall(text) == [], (sheet.name, RAW_ID.findall(text))
        finally:
            editor.close()


def test_a_record_typed_in_spanish_is_saved_in_the_sheets_own_terms(spanish):
    from gmkit.widgets._sheet_editor import SheetEditor

    tull = next(s for s in roster("dark_heresy").sheets if s.name == "Sergeant Varro Tull")
    editor = SheetEditor(tull)
    try:
        assert "alcance: 100" in editor.value("weapons")
        typed = (
            "- nombre: Espada\n  clase de arma: cuerpo a cuerpo\n  daño: 1d10\n"
            "  tipo de daño: Desgarrador\n  cualidades: [Equilibrada]\n"
            "- Rifle láser\n"
        )
        editor.set_value("weapons", typed)
        assert editor.valid, editor.errors
        saved = editor.save()
        assert saved is not None
        sword, lasgun = saved.weapons  # type: ignore[attr-defined]
        assert (sword.name, sword.weapon_class, sword.damage_type) == ("Sword", "melee", "Rending")
        assert sword.qualities == ["Balanced"]
        assert lasgun.name == "Lasgun"
        LANGUAGE.value = "en"
        assert "range: 100" in editor.value("weapons")  # the saved values, in English now
    finally:
        editor.close()


def test_the_options_line_names_a_chosen_value_in_words(spanish):
    panel = AttackPanel(fight_of("deathwatch"), seed=1)
    try:
        panel.set_option("overwatch_mode", "full")
        line = text_of(panel._options.line.value)
        assert "Ráfaga automática" in line, line
        assert "full" not in line
    finally:
        panel.close()
