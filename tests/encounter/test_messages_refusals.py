"""Every refusal of the encounter's fold, effects and log carries its message: the English is
what it always said (tests elsewhere match it), the Spanish holds no English rule word; a
wrapped error keeps the original's message."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import gmkit.encounter._effects as effects_module
from gmkit.encounter import Encounter, EncounterState
from gmkit.encounter._effects import application, apply_common, as_effect
from gmkit.encounter._fold import TICKS, fold
from gmkit.encounter._settings import WOUNDS_SHOWN
from gmkit.encounter._state import evolve
from gmkit.errors import GmkitError, RulesError, SheetError
from gmkit.messages import Message, render
from gmkit.messages._check import english_words
from gmkit.systems.acting import Due
from gmkit.systems.base import Effect

ENCOUNTER = Path(__file__).parents[2] / "gmkit" / "encounter"
NAMES = [
    "Sergeant Varro Tull",
    "Cultist Ban",
    "Brother Kael",
    "Rotgut",
    "Elsa Wendt",
    "nobody",
    "dark_heresy",
    "wfrp2",
    "necromunda",
    "enemy_wounds",
    "player_sides",
    "enemy_wound",  # a misspelt setting, quoted back as typed
    "skip_fallen",
    "stunned",  # a condition's key, shown as the state names it
    *WOUNDS_SHOWN,
    *TICKS,
]


def chapel(demo_sheets, *, started: bool = True) -> Encounter:
    """Tull and Ban in a Dark Heresy fight, Tull first."""
    fight = Encounter("dark_heresy")
    sheets = {s.name: s for s in demo_sheets["dark_heresy"]}
    fight.add(sheets["Sergeant Varro Tull"], ident="tull")
    fight.add(sheets["Cultist Ban"], ident="ban")
    fight.set_initiative("tull", 20)
    fight.set_initiative("ban", 10)
    if started:
        fight.start()
    return fight


def sump(demo_sheets) -> Encounter:
    fight = Encounter("necromunda")
    sheets = {s.name: s for s in demo_sheets["necromunda"]}
    fight.add(sheets["Brother Kael"], ident="kael")
    fight.add(sheets["Rotgut"], ident="rotgut")
    fight.start()
    return fight


def sheet_json(demo_sheets, game: str, index: int = 0) -> dict[str, Any]:
    return dict(demo_sheets[game][index].model_dump(mode="json"))


class Rules:
    """A stand-in for a game's ``apply_effect``, for refusals no real rules give."""

    def __init__(self, answer: Callable[[Any, Effect], Any]) -> None:
        self.answer = answer

    def __call__(self, sheet: Any, effect: Effect) -> Any:
        return self.answer(sheet, effect)


def with_rules(monkeypatch, answer: Callable[[Any, Effect], Any]) -> None:
    monkeypatch.setattr(effects_module, "rules_apply", lambda game: Rules(answer))


def endless(sheet: Any, effect: Effect) -> Any:
    """Rules whose follow-ups never end: a fatigue brings a critical, a critical a fatigue."""
    kind = "critical" if effect.kind == "fatigue" else "fatigue"
    return sheet, (Effect(kind, effect.target, 1),)


def raising(error: Exception) -> Callable[[Any, Effect], Any]:
    def answer(sheet: Any, effect: Effect) -> Any:
        raise error

    return answer


# each case: (message id, English as it always read, the command that is refused)
Case = tuple[str, str, Callable[[Any, Any], object]]


def _removed_tull(d: Any) -> EncounterState:
    fight = chapel(d)
    fight.remove("tull")
    return fight.state


def _nobody_can_act(d: Any) -> EncounterState:
    state = _removed_tull(d)
    return fold(state, {"kind": "removed", "id": "ban"})


def _delayed_tull(d: Any) -> EncounterState:
    fight = chapel(d)
    fight.delay("tull")
    return fight.state


def _tull_owes_a_roll(d: Any) -> EncounterState:
    state = chapel(d).state
    due = Due("on_fire", Message("encounter.due_none", index=0), (10,), bearer="tull")
    return evolve(state, due=(due,))


CASES: list[Case] = [
    (
        "encounter.due_none",
        "no roll due at position 0",
        lambda d, m: fold(
            chapel(d).state, {"kind": "due_rolled", "index": 0, "id": "tull", "rule": "on_fire"}
        ),
    ),
    (
        "encounter.due_changed",
        "the roll due at position 0 is no longer the one chosen: choose again",
        lambda d, m: fold(
            _tull_owes_a_roll(d),
            {"kind": "due_dismissed", "index": 0, "id": "ban", "rule": "on_fire"},
        ),
    ),
    (
        "encounter.unknown_event",
        "event 'teleport' is not an encounter event",
        lambda d, m: fold(chapel(d).state, {"kind": "teleport"}),
    ),
    (
        "encounter.no_id",
        "combatant: no one with id 'nobody' in this encounter",
        lambda d, m: fold(chapel(d).state, {"kind": "removed", "id": "nobody"}),
    ),
    (
        "encounter.removed",
        "combatant: Sergeant Varro Tull has been removed from the fight",
        lambda d, m: fold(_removed_tull(d), {"kind": "removed", "id": "tull"}),
    ),
    (
        "encounter.id_taken",
        "id: 'tull' is already in this encounter",
        lambda d, m: fold(
            chapel(d).state,
            {"kind": "added", "id": "tull", "sheet": sheet_json(d, "dark_heresy")},
        ),
    ),
    (
        "encounter.sheet_of_other_game",
        "sheet: Elsa Wendt is a wfrp2 sheet, not dark_heresy",
        lambda d, m: fold(
            chapel(d).state, {"kind": "added", "id": "elsa", "sheet": sheet_json(d, "wfrp2", 1)}
        ),
    ),
    (
        "encounter.still_in_fight",
        "revive: Sergeant Varro Tull is still in the fight",
        lambda d, m: chapel(d).revive("tull"),
    ),
    (
        "encounter.not_hidden",
        "reveal: Sergeant Varro Tull is not secret",
        lambda d, m: chapel(d).reveal("tull"),
    ),
    (
        "encounter.sheet_stays",
        "game: Sergeant Varro Tull's sheet stays a dark_heresy sheet",
        lambda d, m: chapel(d).edit_sheet("tull", game="wfrp2"),
    ),
    (
        "encounter.setting_blank",
        "setting: the key is blank",
        lambda d, m: chapel(d).set("", 1),
    ),
    (
        "encounter.enemy_wounds_choice",
        "enemy_wounds: 'all' is not one of exact, band, hidden",
        lambda d, m: chapel(d).set("enemy_wounds", "all"),
    ),
    (
        "encounter.unknown_setting",
        "no setting 'enemy_wound' (did you mean enemy_wounds?); the settings: enemy_wounds, "
        "player_sides, skip_fallen",
        lambda d, m: chapel(d).set("enemy_wound", "band"),
    ),
    (
        "encounter.unknown_setting_far",
        "no setting 'initiative'; the settings: enemy_wounds, player_sides, skip_fallen",
        lambda d, m: chapel(d).set("initiative", 1),
    ),
    (
        "encounter.setting_true_false",
        "skip_fallen: must be true or false (got 'no')",
        lambda d, m: chapel(d).set("skip_fallen", "no"),
    ),
    (
        "encounter.player_sides_list",
        "player_sides: must be a list of side names (got 'Acolytes')",
        lambda d, m: chapel(d).set("player_sides", "Acolytes"),
    ),
    (
        "encounter.initiative_by_sides",
        "initiative: necromunda plays by sides, not initiative",
        lambda d, m: fold(
            sump(d).state, {"kind": "initiative", "entries": [{"id": "kael", "score": 3}]}
        ),
    ),
    (
        "encounter.initiative_no_one",
        "initiative: no one to roll for",
        lambda d, m: fold(chapel(d).state, {"kind": "initiative", "entries": []}),
    ),
    (
        "encounter.started_already",
        "the encounter has started already",
        lambda d, m: fold(chapel(d).state, {"kind": "started", "order": ["tull", "ban"]}),
    ),
    (
        "encounter.start_no_one",
        "start: there is no one in the fight",
        lambda d, m: fold(EncounterState("dark_heresy"), {"kind": "started", "order": []}),
    ),
    (
        "encounter.not_started",
        "the encounter has not started: roll initiative and start it",
        lambda d, m: chapel(d, started=False).next_turn(),
    ),
    (
        "encounter.turn_no_one",
        "turn: no one in the initiative order can act",
        lambda d, m: fold(_nobody_can_act(d), {"kind": "turn", "direction": 1}),
    ),
    (
        "encounter.turn_before_first",
        "turn: there is no turn before the first one of round 1",
        lambda d, m: chapel(d).previous_turn(),
    ),
    (
        "encounter.turn_no_earlier",
        "turn: no earlier turn to go back to",
        lambda d, m: fold(
            evolve(_nobody_can_act(d), round=3, turn=1), {"kind": "turn", "direction": -1}
        ),
    ),
    (
        "encounter.phase_before_first",
        "turn: there is no phase before the first one of round 1",
        lambda d, m: sump(d).previous_turn(),
    ),
    (
        "encounter.spend_not_started",
        "spend: the encounter has not started",
        lambda d, m: fold(
            chapel(d, started=False).state,
            {"kind": "spent", "id": "tull", "type": "half", "pools": {"actions": 1}},
        ),
    ),
    (
        "encounter.delay_not_waiting",
        "delay: Cultist Ban has no delayed action waiting",
        lambda d, m: fold(
            chapel(d).state, {"kind": "spent", "id": "ban", "type": "half", "delayed_action": 1}
        ),
    ),
    (
        "encounter.delay_not_turn",
        "delay: it is not Cultist Ban's turn",
        lambda d, m: fold(chapel(d).state, {"kind": "delayed", "id": "ban", "waiting": True}),
    ),
    (
        "encounter.trigger_blank",
        "trigger: the kind of trigger is blank",
        lambda d, m: chapel(d).declare_trigger("tull", " "),
    ),
    (
        "encounter.trigger_expires_early",
        "rounds: the trigger would expire before it is declared (0)",
        lambda d, m: fold(
            chapel(d).state,
            {"kind": "trigger", "id": "tull", "trigger": "overwatch", "expires_round": 0},
        ),
    ),
    (
        "encounter.trigger_none",
        "trigger: there is no trigger 3",
        lambda d, m: chapel(d).fire_trigger(3),
    ),
    (
        "encounter.condition_blank",
        "condition: the name is blank",
        lambda d, m: chapel(d).add_condition("tull", "  "),
    ),
    (
        "encounter.rounds_at_least_one",
        "rounds: must be 1 or more (got 0)",
        lambda d, m: fold(
            chapel(d).state, {"kind": "condition", "id": "tull", "name": "stunned", "rounds": 0}
        ),
    ),
    (
        "encounter.ticks_choice",
        "ticks: 'sometimes' is not one of start_of_turn, end_of_turn, end_of_round, never",
        lambda d, m: apply_common(
            "dark_heresy",
            chapel(d).combatant("tull"),
            Effect("condition", "tull", condition="stunned"),
            "sometimes",  # type: ignore[arg-type]
        ),
    ),
    (
        "encounter.condition_absent",
        "condition: Sergeant Varro Tull is not Stunned",
        lambda d, m: chapel(d).remove_condition("tull", "stunned"),
    ),
    (
        "encounter.effect_problem",
        "effect: Effect.__init__() got an unexpected keyword argument 'colour'",
        lambda d, m: as_effect({"kind": "damage", "target": "tull", "colour": "red"}),
    ),
    (
        "encounter.effect_problem",
        "effect: no combatant 'nobody'",
        lambda d, m: application(chapel(d).state, [Effect("damage", "nobody", 1)]),
    ),
    (
        "encounter.effects_limit",
        "effects: more than 500 in one application (follow-ups loop?)",
        lambda d, m: (
            with_rules(m, endless),
            application(chapel(d).state, [Effect("fatigue", "tull", 1)]),
        ),
    ),
    (
        "encounter.rules_gave_other_game",
        "effect: the rules gave a wfrp2 sheet in a dark_heresy fight",
        lambda d, m: (
            with_rules(m, lambda sheet, effect: (d["wfrp2"][0], ())),
            application(chapel(d).state, [Effect("fatigue", "tull", 1)]),
        ),
    ),
    (
        "encounter.kind_problem",
        "fatigue: character 'Tull': field 'fatigue': too tired",
        lambda d, m: (
            with_rules(m, raising(SheetError("Tull", [("fatigue", "too tired")]))),
            application(chapel(d).state, [Effect("fatigue", "tull", 1)]),
        ),
    ),
    (
        "encounter.rules_gave_no_sheet",
        "effect fatigue: the rules gave no sheet (str)",
        lambda d, m: (
            with_rules(m, lambda sheet, effect: ("a sheet", ())),
            application(chapel(d).state, [Effect("fatigue", "tull", 1)]),
        ),
    ),
    (
        "encounter.no_id",
        "combatant: no one with id 'nobody' in this encounter",
        lambda d, m: fold(
            chapel(d).state,
            {"kind": "effects", "changes": [{"id": "nobody", "sheet": sheet_json(d, "wfrp2")}]},
        ),
    ),
    (
        "encounter.sheet_of_other_game",
        "sheet: Gunther Brandauer is a wfrp2 sheet, not dark_heresy",
        lambda d, m: fold(
            chapel(d).state,
            {"kind": "effects", "changes": [{"id": "tull", "sheet": sheet_json(d, "wfrp2")}]},
        ),
    ),
    (
        "encounter.nothing_to_undo",
        "undo: there is nothing to undo",
        lambda d, m: Encounter("wfrp2").undo(),
    ),
    (
        "encounter.nothing_to_redo",
        "redo: there is nothing to redo",
        lambda d, m: chapel(d).redo(),
    ),
]


@pytest.mark.parametrize(("message_id", "english", "command"), CASES, ids=[c[0] for c in CASES])
def test_each_refusal_is_a_message_in_english_and_spanish(
    demo_sheets, monkeypatch, message_id, english, command
):
    with pytest.raises(RulesError) as caught:
        command(demo_sheets, monkeypatch)
    error = caught.value
    assert isinstance(error.message, Message)
    assert error.message.id == message_id
    assert str(error) == english
    spanish = error.render("es")
    assert spanish != english
    assert english_words(spanish, NAMES) == [], spanish


def test_every_refusal_of_the_encounters_files_has_a_case():
    """A refusal added to fold, effects or log without its case here fails this test."""
    used = set()
    for name in ("_fold.py", "_rounds.py", "_effects.py", "_log.py", "_settings.py"):
        source = (ENCOUNTER / name).read_text(encoding="utf-8")
        assert "RulesError(f" not in source
        assert 'RulesError("' not in source
        used |= set(re.findall(r'RulesError\(\s*Message\(\s*"([\w.]+)"', source))
    assert used == {case[0] for case in CASES}


def test_a_wrapped_sheet_error_keeps_its_own_message(demo_sheets):
    fight = chapel(demo_sheets)
    with pytest.raises(RulesError) as caught:
        fight.edit_sheet("tull", damage="a lot")
    error = caught.value
    assert isinstance(error.message, Message)
    assert error.message.id.startswith("sheets.")  # the sheet's own message, not a copy
    assert "damage" in str(error)


def test_a_gmkit_error_of_the_rules_keeps_its_message_after_the_effects_kind(
    demo_sheets, monkeypatch
):
    problem = Message("encounter.no_combatant", target="'X'")
    with_rules(monkeypatch, raising(GmkitError(problem)))
    with pytest.raises(RulesError) as caught:
        application(chapel(demo_sheets).state, [Effect("damage", "tull", 1)])
    error = caught.value
    assert str(error) == "damage: no combatant 'X'"
    assert error.render("es") == "daño: no hay ningún combatiente 'X'"
    assert render(error.message.arguments["problem"]) == "no combatant 'X'"
