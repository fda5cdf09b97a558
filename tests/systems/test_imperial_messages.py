"""The 40k rules speak in messages: typed options refused by name, every text in Spanish, and
catalogs that hold every message and data term of both games."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from gmkit.dice import EnteredDice
from gmkit.errors import GmkitError, RulesError
from gmkit.games import game as game_entry
from gmkit.messages import Message, catalogs, problems, render
from gmkit.messages._check import english_words
from gmkit.systems._imperial import effects as imperial_effects
from gmkit.systems._imperial.actions import actions
from gmkit.systems._imperial.circumstances import circumstances
from gmkit.systems._imperial.conditions import conditions
from gmkit.systems._imperial.criticals import critical_effect
from gmkit.systems._imperial.modifiers import attack_setup
from gmkit.systems._imperial.options import DarkHeresyOptions, DeathwatchOptions
from gmkit.systems._imperial.resolve import resolve_attack
from gmkit.systems._imperial.resolve_fire import clear_jam, overwatch_of, recover_from_pinning
from gmkit.systems.base import AttackRequest, AttackResult, Standing
from gmkit.systems.options import offered_options

GAMES = ("dark_heresy", "deathwatch")
TRAINED = ["Basic Weapon Training (Universal)", "Melee Weapon Training (Universal)"]
NAMES = ("Marr", "Vex", "Castor", "Orks")  # the characters of this file
WEAPONS = ("Lasgun", "Autogun", "Sword", "Bolter", "Chainsword", "Frag Grenade", "Flamer")


# --- typed options ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pair(veteran):
    """An attacker with a lasgun and a sword, and a foe, in ``game``."""

    def make(game: str) -> tuple[Any, Any]:
        return veteran(game, "Lasgun", "Sword", name="Marr"), veteran(game, "Sword", name="Vex")

    return make


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_option_is_refused_naming_the_nearest_and_the_valid_ones(pair, game):
    marr, vex = pair(game)
    with pytest.raises(RulesError) as refused:
        AttackRequest(marr, "Lasgun", vex, options={"reactons_left": 0})
    text = str(refused.value)
    assert text.startswith(f"{game} attack options: option 'reactons_left': unknown option")
    assert "(did you mean reactions_left?)" in text
    assert "valid options: reaction, reactions_left, parry_weapon," in text
    assert isinstance(refused.value.message, Message)  # the refusal as data, for any language
    assert "opción 'reactons_left'" in refused.value.render("es")


def test_a_wrong_type_and_an_out_of_range_value_are_refused_naming_the_option(pair):
    marr, vex = pair("deathwatch")
    with pytest.raises(
        RulesError, match=r"option 'two_weapons': must be true or false \(got 'yes'\)"
    ):
        AttackRequest(marr, "Sword", vex, options={"two_weapons": "yes"})
    with pytest.raises(RulesError, match=r"option 'reactions_left': must be at least 0 \(got -1\)"):
        AttackRequest(marr, "Lasgun", vex, options={"reactions_left": -1})
    with pytest.raises(
        RulesError, match=r"option 'size_difference': must be at most 10 \(got 11\)"
    ):
        AttackRequest(marr, "Sword", vex, options={"size_difference": 11})
    with pytest.raises(RulesError, match=r"option 'dodge_distance': must be at least 0"):
        AttackRequest(marr, "Lasgun", vex, options={"dodge_distance": -2.5})


def test_each_game_has_its_model_and_dark_heresys_house_rules_are_its_own(pair):
    assert game_entry("dark_heresy").options is DarkHeresyOptions
    assert game_entry("deathwatch").options is DeathwatchOptions
    marr, vex = pair("dark_heresy")
    request = AttackRequest(marr, "Lasgun", vex, options={"house_rules": {"untrained": False}})
    assert request.options.house_rules == {"untrained": False}
    assert request.options.reaction is None  # typed attributes, with their defaults
    watch, foe = pair("deathwatch")
    for house in ({"house_rules": {}}, {"righteous_fury_house_rule": True}):
        with pytest.raises(RulesError, match="unknown option"):
            AttackRequest(watch, "Lasgun", foe, options=house)
    offered = {info.name for info in offered_options(DarkHeresyOptions)}
    assert {
        "parry_weapon",
        "unaware_auto_hit",
        "righteous_fury_house_rule",
        "gm_override",
    } <= offered
    assert "house_rules" not in offered  # a mapping: Python's (and the campaign's), not a panel's
    assert not {"reaction", "reactions_left", "overwatch"} & offered  # set by gmkit's own parts
    assert "house_rules" not in {info.name for info in offered_options(DeathwatchOptions)}


def test_lists_become_tuples_and_the_encounter_s_keys_become_standings(pair):
    marr, vex = pair("dark_heresy")
    request = AttackRequest(
        marr,
        "Lasgun",
        vex,
        distance=60,
        circumstances={"cover": 6},
        options={"covered_locations": ["head"], "target_conditions": ["prone"]},
    )
    assert request.options.covered_locations == ("head",)
    assert request.target_standing == Standing.of(conditions=["prone"])
    changed = request.with_options(reaction="dodge")
    assert (changed.options.reaction, changed.options.covered_locations) == ("dodge", ("head",))
    with pytest.raises(RulesError, match="option 'covered_locations'"):
        request.with_options(covered_locations=["tail"])


# --- everything in Spanish -------------------------------------------------------------------


def spanish(texts: Iterable[Any]) -> list[str]:
    return [render(text, "es") for text in texts if text]


def every_text(result: AttackResult, sheet: Any = None) -> list[str]:
    """Every step, the summary, every effect's note, and what applying the effects to ``sheet``
    says (its notes and its follow-ups'), in Spanish."""
    found = [step.render("es") for step in result.steps]
    found += spanish([result.summary, *(effect.note for effect in result.effects)])
    if sheet is not None:
        applied = imperial_effects.apply_effects(sheet, result.effects)
        found += spanish([*applied.notes, *(effect.note for effect in applied.follow_up)])
    return found


def english_left(texts: Iterable[str]) -> dict[str, list[str]]:
    """Each text holding English rule words, with the words."""
    names = (*NAMES, *WEAPONS)
    return {text: words for text in texts if (words := english_words(text, names))}


@pytest.fixture(scope="module")
def cast(acolyte, marine, weapon):
    """The characters of the Spanish tour: Marr and Vex (Dark Heresy), Castor and the Orks
    (Deathwatch, a horde)."""
    return {
        "marr": acolyte("Marr", ["Lasgun", "Autogun", "Sword", "Frag Grenade", "Flamer"]),
        "vex": acolyte("Vex", ["Sword"], armour_points={"body": 4}),
        "castor": marine("Castor", ["Bolter", "Chainsword"], talents=TRAINED),
        "orks": marine("Orks", wounds=12, tier="troop", horde={"magnitude_max": 30}),
        "ork": marine("Vex", ["Chainsword"], wounds=6),
    }


def attacks(cast: dict[str, Any]) -> list[tuple[str, AttackRequest, list[int], Any]]:
    """(what it shows, the request, the dice, the sheet its effects go to)."""
    marr, vex, castor = cast["marr"], cast["vex"], cast["castor"]
    orks, ork = cast["orks"], cast["ork"]
    trained = marr.edit(talents=["Basic Weapon Training (Universal)", "Melee Weapon Training"])

    def shot(weapon: str = "Lasgun", target: Any = vex, attacker: Any = trained, **fields: Any):
        return AttackRequest(
            attacker, weapon, target, distance=fields.pop("distance", 60), **fields
        )

    def blow(weapon: str = "Sword", target: Any = vex, attacker: Any = trained, **fields: Any):
        return AttackRequest(attacker, weapon, target, **fields)

    return [
        ("a single shot that hits", shot(), [21, 9], vex),
        ("a single shot that misses", shot(), [71], vex),
        ("a jam", shot(), [97], vex),
        (
            "a semi-auto burst, extra hits",
            shot("Autogun", action="semi_auto_burst", mode="semi"),
            [5, 4, 6, 3],
            vex,
        ),
        (
            "a full auto burst, extra hits, a failed dodge",
            shot("Autogun", action="full_auto_burst", mode="full", options={"reaction": "dodge"}),
            [25, 80, 4, 6, 3, 5],
            vex,
        ),
        ("a dodge that negates the shot", shot(options={"reaction": "dodge"}), [21, 5], vex),
        (
            "an area dodge out of reach",
            shot("Frag Grenade", distance=8, options={"reaction": "dodge", "dodge_distance": 5}),
            [21, 5, 5],
            vex,
        ),
        ("a parry that fails", blow(options={"reaction": "parry"}), [30, 90, 6], vex),
        ("a parry that negates", blow(options={"reaction": "parry"}), [30, 20], vex),
        (
            "no reaction left",
            blow(options={"reaction": "dodge", "reactions_left": 0}),
            [30, 6],
            vex,
        ),
        ("Righteous Fury confirmed twice (001)", shot(), [21, 10, 30, 10, 35, 4], vex),
        ("Righteous Fury not confirmed (001)", shot(), [21, 10, 55], vex),
        ("001's house Fury", shot(options={"righteous_fury_house_rule": True}), [21, 10, 3], vex),
        (
            "Righteous Fury confirmed (004)",
            shot("Bolter", ork, castor),
            [27, 10, 1, 30, 10, 3],
            ork,
        ),
        (
            "a called shot behind cover",
            shot(action="called_shot", called_location="body", circumstances={"cover": 4}),
            [5, 9],
            vex,
        ),
        ("a stun", blow(action="stun"), [15, 8, 2], vex),
        ("a knock-down with a body blow", blow("Unarmed", action="knock_down"), [10, 60, 7], vex),
        ("a feint", blow(action="feint"), [10, 50], vex),
        ("a manoeuvre", blow(action="manoeuvre"), [10, 50], vex),
        ("a grapple begun", blow("Unarmed", options={"grapple": True}), [15], vex),
        (
            "a grapple's push",
            blow(
                "Unarmed",
                action="grapple",
                attacker_standing=Standing.of(["grappled", "grappling"]),
                options={"grapple_option": "push"},
            ),
            [5, 50],
            vex,
        ),
        (
            "overwatch declared",
            shot("Autogun", action="overwatch", mode="full", options={"overwatch_mode": "full"}),
            [],
            vex,
        ),
        (
            "suppressing fire that pins",
            shot("Autogun", action="suppressing_fire", mode="suppressing"),
            [5, 4, 95],
            vex,
        ),
        ("a flamer that sets the target on fire", shot("Flamer", distance=10), [40, 5, 95], vex),
        (
            "a horde hit by a chainsword",
            blow("Chainsword", orks, castor),
            [5],  # every damage roll would take a magnitude: none is asked
            orks,
        ),
        (
            "a critical from the table",
            shot("Bolter", ork.edit(damage=6), castor),
            [21, 2, 1],
            ork.edit(damage=6),
        ),
    ]


def test_every_text_of_every_path_reads_in_spanish(cast):
    shown: dict[str, list[str]] = {}
    for what, request, dice, sheet in attacks(cast):
        source = EnteredDice(dice)
        result = resolve_attack(request, source)
        assert source.pending == (), what
        shown[what] = every_text(result, sheet)
    # each path was taken: the steps say so
    joined = {what: "\n".join(texts) for what, texts in shown.items()}
    assert "encasquillada" in joined["a jam"]
    assert (
        "Esquiva: fallida: el ataque impacta"
        in joined["a full auto burst, extra hits, a failed dodge"]
    )
    assert "el ataque queda anulado" in joined["a dodge that negates the shot"]
    assert (
        "Furia Justiciera (impacto 1): confirmada"  # one term in both games (issue 21)
        in joined["Righteous Fury confirmed twice (001)"]
    )
    assert "no confirmada" in joined["Righteous Fury not confirmed (001)"]
    assert "de daño crítico" in joined["001's house Fury"]
    assert "Furia Justiciera (impacto 1): confirmada" in joined["Righteous Fury confirmed (004)"]
    assert "Acobardamiento (Vex): acobardado" in joined["suppressing fire that pins"]
    assert "Vigilancia" in joined["overwatch declared"]
    assert "Impactos en la horda" in joined["a horde hit by a chainsword"]
    assert "sin tirar: cualquier tirada hace daño" in joined["a horde hit by a chainsword"]
    assert "daño crítico" in joined["a critical from the table"]
    assert "cobertura 4" in joined["a called shot behind cover"]
    assert english_left(text for texts in shown.values() for text in texts) == {}


def test_the_other_rules_the_critical_tables_and_the_reminders_read_in_spanish(cast):
    marr, vex = cast["marr"], cast["vex"]
    texts = [step.render("es") for step in clear_jam(marr, "Lasgun", EnteredDice([30])).steps]
    texts += [step.render("es") for step in clear_jam(marr, "Autogun", EnteredDice([30])).steps]
    _, step, _ = recover_from_pinning(vex, EnteredDice([35]), under_fire=False)
    texts.append(step.render("es"))
    watch = overwatch_of(AttackRequest(marr, "Autogun", vex, action="overwatch", mode="full"))
    texts += spanish([watch.trigger, watch.expires])
    for game, place, kind, value in (("deathwatch", "arm", "Explosive", 5),
                                     ("dark_heresy", "arm", "Rending", 6)):  # fmt: skip
        row = critical_effect(game, place, kind, value)
        assert row is not None
        texts += spanish(effect.note for effect in row.to_effects("Marr"))
        for condition in conditions(game).values():
            texts += spanish(reminder.text for reminder in condition.reminders)
    assert "EJEMPLO" in "\n".join(texts)  # a placeholder row says so
    assert english_left(texts) == {}


def test_refusals_read_in_spanish(cast):
    marr, vex = cast["marr"], cast["vex"]
    refused = []
    for weapon, request in (
        ("Plasma gun", {}),
        ("Sword", {"action": "charge", "distance": 2}),
        ("Lasgun", {"attacker_standing": Standing.of(["jammed: Lasgun"])}),
        ("Sword", {"attacker_standing": Standing.of(["stunned"])}),
        ("Sword", {"action": "charge", "distance": 30}),
    ):
        with pytest.raises(GmkitError) as error:
            attack_setup(AttackRequest(marr, weapon, vex, **request), "dark_heresy")
        refused.append(error.value.render("es"))
    assert refused[0].startswith("campo 'arma': 'Plasma gun' no está en la hoja de Marr")
    assert refused[1] == "campo 'distancia': Cargar necesita 4 m, no 2"
    # the weapon by its Spanish name, as weapons.yaml gives it (name_es)
    assert refused[2] == "campo 'arma': Rifle láser está encasquillada: desencasquíllala primero"
    assert refused[3] == ('campo "condiciones del atacante": Marr está aturdido: sin acciones')
    assert english_left(refused) == {}


# --- the catalogs ----------------------------------------------------------------------------


def test_the_40k_catalogs_have_no_problems():
    mine = ("imperial", "dark_heresy", "deathwatch")
    assert [p for p in problems() if p.split(".")[0] in mine] == []


@pytest.mark.parametrize("game", GAMES)
def test_every_data_term_has_an_entry_whose_english_is_the_data_s(game):
    english = catalogs().english
    spanish_entries = catalogs().translations["es"]
    terms = {f"{game}.action.{item.id}": item.name for item in actions(game).values()}
    for item in actions(game).values():
        terms |= {f"{game}.action.{item.id}.{o.id}": o.name for o in item.options.values()}
    terms |= {f"{game}.circumstance.{c.id}": c.name for c in circumstances(game).values()}
    terms |= {f"{game}.condition.{c.id}": c.name for c in conditions(game).values()}
    wrong = {key: (name, english(key)) for key, name in terms.items() if english(key) != name}
    assert wrong == {}
    assert all(spanish_entries[key].translated for key in terms)
    assert len(terms) > 80


def test_a_term_a_gm_renamed_reads_in_its_own_english():
    renamed = Message.term("deathwatch.action.aim", "Take careful aim")
    assert render(renamed, "es") == "Take careful aim"
    assert render(actions("deathwatch")["aim"].label, "es") == "Apuntar"
