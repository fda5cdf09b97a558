"""WFRP 2e's typed options and its texts as messages: refusals by name, Spanish renderings
without English rule words, every catalog entry in place (data terms with the YAML's English)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from gmkit.dice import EnteredDice
from gmkit.errors import GmkitError, RulesError
from gmkit.games import game
from gmkit.messages import Message, Text, catalogs, problems, render
from gmkit.messages._check import english_words
from gmkit.sheets._wfrp2 import GROUPS, WFRP2Character
from gmkit.systems._tables import table
from gmkit.systems.base import AttackRequest, AttackResult, Effect, Standing
from gmkit.systems.options import offered_options
from gmkit.systems.wfrp2 import SYSTEM, apply_effects, perform_action, turn_problems
from gmkit.systems.wfrp2._catalogs import quality_label
from gmkit.systems.wfrp2._damage import result_id
from gmkit.systems.wfrp2._offers import OFFERS
from gmkit.systems.wfrp2._options import WFRP2Options
from gmkit.systems.wfrp2._terms import slug, weapon_group

PROFILE = {"WS": 41, "BS": 35, "S": 38, "T": 42, "Ag": 33, "Int": 30, "WP": 30, "Fel": 30}
HAND = {"name": "Hand Weapon", "damage": "SB"}
BOW = {"name": "Bow", "damage": "3", "range_short": 24, "range_long": 48, "reload": "Half"}
SHIELD = {"name": "Shield", "damage": "SB-2", "qualities": ["Defensive", "Pummelling"]}
GREAT = {"name": "Great Weapon", "group": "Two-handed", "damage": "SB", "qualities": ["Impact"]}
FOIL = {"name": "Foil", "group": "Fencing", "damage": "SB-2", "qualities": ["Fast", "Precise"]}
RAPIER = {"name": "Rapier", "group": "Fencing", "damage": "SB-1", "qualities": ["Fast"]}
MAIL = [{"name": "Mail Shirt", "kind": "mail", "points": {"body": 2}}]
STANCE = {"target_parry_stance": True}
NAMES = (
    "Gunther",
    "Gor",
    "Ungor",
    "Hand Weapon",
    "Bow",
    "Shield",
    "Great Weapon",
    "Foil",
    "Rapier",
    "Halberd",
    "criticals.yaml",
)


def character(name: str, **fields: Any) -> WFRP2Character:
    """WS 41, BS 35, SB 3, TB 4, W 12, Ag 33 with Dodge Blow; a hand weapon, a bow, a shield."""
    data: dict[str, Any] = {
        "name": name,
        "characteristics": {**PROFILE, **fields.pop("characteristics", {})},
        "secondary": {"A": 1, "W": 12, **fields.pop("secondary", {})},
        "weapons": [HAND, BOW, SHIELD, GREAT, FOIL],
        "skills": ["Dodge Blow"],
        "talents": ["Specialist Weapon Group (Two-handed)", "Specialist Weapon Group (Fencing)"],
    }
    return WFRP2Character.build({**data, **fields})


def request(weapon: str = "Hand Weapon", **fields: Any) -> AttackRequest:
    attacker = fields.pop("attacker", None) or character("Gunther")
    target = fields.pop("target", None) or character("Gor")
    return AttackRequest(attacker=attacker, weapon=weapon, target=target, **fields)


def attack(dice: list[int | str], weapon: str = "Hand Weapon", **fields: Any) -> AttackResult:
    source = EnteredDice(dice)
    result = SYSTEM.resolve_attack(request(weapon, **fields), source)
    assert source.pending == ()
    return result


def spanish(texts: Iterable[Text]) -> list[str]:
    return [render(text, "es") for text in texts]


def result_texts(result: AttackResult) -> list[str]:
    """Every text of a result in Spanish: steps, summary, effect notes, modifiers, dice."""
    found = [step.render("es") for step in result.steps]
    found += spanish([result.summary])
    found += spanish(effect.note for effect in result.effects if effect.note)
    found += [m.render("es") for step in result.steps for m in step.modifiers]
    found += spanish(roll.purpose for roll in result.rolls)
    return found


def assert_spanish(texts: Iterable[str], names: Iterable[str] = NAMES) -> None:
    listed = list(texts)
    assert listed
    named = tuple(names)
    leftover = {text: english_words(text, named) for text in listed}
    assert {text: words for text, words in leftover.items() if words} == {}


# --- the options: declared, typed, refused by name -------------------------------------------


def test_the_registry_declares_the_wfrp2_options():
    assert game("wfrp2").options is WFRP2Options
    assert list(WFRP2Options.model_fields) == [
        "reaction",
        "parry_weapon",
        "ulrics_fury",
        "critical_table",
    ]
    assert [info.name for info in offered_options(WFRP2Options)] == [
        "parry_weapon",
        "ulrics_fury",
        "critical_table",
    ]
    made = request(options={"reaction": "parry", "ulrics_fury": False})
    assert isinstance(made.options, WFRP2Options)
    assert (made.options.reaction, made.options.parry_weapon, made.options.ulrics_fury) == (
        "parry",
        None,
        False,
    )


@pytest.mark.parametrize(
    ("given", "read"),
    [
        (None, None),
        ("", None),
        ("none", None),
        ("dodge", "dodge"),
        (["parry", None, "none"], ("parry", None, None)),
        (("dodge", "parry"), ("dodge", "parry")),
    ],
)
def test_a_reaction_is_one_choice_or_one_per_attack(given, read):
    assert request(options={"reaction": given}).options.reaction == read


def test_an_unknown_option_is_refused_naming_it_and_the_nearest_valid_one():
    with pytest.raises(RulesError) as refused:
        request(options={"ulric_fury": False})
    text = str(refused.value)
    assert text == (
        "wfrp2 attack options: option 'ulric_fury': unknown option (did you mean "
        "ulrics_fury?); valid options: reaction, parry_weapon, ulrics_fury, critical_table"
    )
    assert "opción desconocida" in refused.value.render("es")


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"ulrics_fury": "yes"}, "option 'ulrics_fury': must be true or false (got 'yes')"),
        ({"parry_weapon": 3}, "option 'parry_weapon': must be a text (got 3)"),
        ({"reaction": "block"}, "option 'reaction': must be one of parry, dodge (got 'block')"),
        ({"reaction": 5}, "option 'reaction': must be one of parry, dodge (got 5)"),
        (
            {"reaction": ["parry", "block"]},
            "option 'reaction': must be one of parry, dodge (got ['parry', 'block'])",
        ),
    ],
)
def test_a_wrong_type_is_refused_naming_the_option_and_the_problem(options, expected):
    with pytest.raises(RulesError) as refused:
        request(options=options)
    assert str(refused.value) == f"wfrp2 attack options: {expected}"


def test_options_change_validated_and_are_read_as_attributes():
    made = request(options={"reaction": "parry"})
    changed = made.with_options(ulrics_fury=False)
    assert (changed.options.reaction, changed.options.ulrics_fury) == ("parry", False)
    with pytest.raises(RulesError, match="parry_weapon"):
        made.with_options(parry_weapon=["Shield"])
    off = attack([20, 10], options={"ulrics_fury": False})
    assert [str(s.title) for s in off.steps if "Fury" in str(s.title)] == []


def test_the_encounter_standings_set_the_circumstances():
    stunned = attack([55, 5], target_standing=Standing.of(conditions=["stunned"]))
    test = next(s for s in stunned.steps if str(s.title) == "WS test")
    assert (test.target, [str(m) for m in test.modifiers]) == (61, ["Target is stunned +20"])
    parried = attack(
        [20, 5],
        circumstances=STANCE,
        options={"reaction": "parry"},
        target_standing=Standing.of(reactions={"parry": 1}),
    )
    assert str(next(s for s in parried.steps if str(s.title) == "Parry").outcome) == (
        "not possible: Target has parried this round"
    )
    aiming = attack([99], attacker_standing=Standing.of(conditions=["aiming"]))
    assert next(s for s in aiming.steps if str(s.title) == "WS test").target == 51


# --- every path in Spanish -------------------------------------------------------------------

ATTACKS: list[tuple[str, list[int | str], dict[str, Any]]] = [
    ("melee hit", [20, 5], {}),
    ("melee miss", [90], {}),
    ("ranged", [33, 4], {"weapon": "Bow", "mode": "ranged", "distance": 30}),
    ("parry taken", [20, 30], {"circumstances": STANCE, "options": {"reaction": "parry"}}),
    ("parry failed", [20, 90, 5], {"circumstances": STANCE, "options": {"reaction": "parry"}}),
    ("dodge taken", [20, 10], {"options": {"reaction": "dodge"}}),
    ("dodge failed", [20, 90, 5], {"options": {"reaction": "dodge"}}),
    ("parry impossible", [20, 5], {"options": {"reaction": "parry"}}),
    (
        "swift attack",
        [20, 10, 30, 20, 14, 6],
        {
            "attacker": character("Gunther", secondary={"A": 3}),
            "action": "swift_attack",
            "circumstances": STANCE,
            "options": {"reaction": ["parry", "dodge", "parry"]},
        },
    ),
    (
        "swift ranged",
        [99, 99],
        {
            "attacker": character("Gunther", secondary={"A": 2}),
            "weapon": "Bow",
            "action": "swift_attack",
            "mode": "ranged",
        },
    ),
    ("all out", [20, 5], {"action": "all_out_attack"}),
    ("charge", [51, 5], {"action": "charge_attack", "distance": 10}),
    ("cautious", [20, 5], {"action": "cautious_attack"}),
    ("critical", [26, 8], {"target": character("Gor", wounds_current=2)}),
    ("critical, no row", [20, 8], {"target": character("Gor", wounds_current=5)}),
    ("fury confirmed", [20, 10, 30, 10, 4], {}),
    ("fury unconfirmed", [20, 10, 42], {}),
    ("impact", [20, 3, 8], {"weapon": "Great Weapon"}),
    ("precise", [20, 5], {"weapon": "Foil", "target": character("Gor", wounds_current=0)}),
    ("soak", [26, 9], {"target": character("Gor", armour=MAIL)}),
    ("unarmed", [26, 9], {"weapon": "Unarmed", "target": character("Gor", armour=MAIL)}),
    (
        "two weapons",
        [20, 30],
        {
            "circumstances": {"target_second_weapon": True, "off_hand": True},
            "options": {"reaction": "parry", "parry_weapon": "Hand Weapon"},
        },
    ),
    ("helpless", [99, 10, 7, 5], {"circumstances": {"target_helpless": True}}),
    ("uncovered quality", [20, 5], {"weapon": "Shield"}),
    (
        "untrained",
        [20, 5],
        {"weapon": "Rapier", "attacker": character("Gunther", weapons=[RAPIER], talents=[])},
    ),
    (
        "tiring",
        [20, 3],
        {
            "weapon": "Flail",
            "attacker": character(
                "Gunther",
                weapons=[
                    {
                        "name": "Flail",
                        "group": "Flail",
                        "damage": "SB+1",
                        "qualities": ["Impact", "Tiring"],
                    }
                ],
                talents=["Specialist Weapon Group (Flail)"],
            ),
        },
    ),
    ("gm modifier", [20, 5], {"circumstances": {"gm_modifier": -10, "aimed": True}}),
]


@pytest.mark.parametrize(("case", "dice", "fields"), ATTACKS, ids=[a[0] for a in ATTACKS])
def test_every_attack_path_renders_in_spanish(case, dice, fields):
    fields = dict(fields)
    weapon = fields.pop("weapon", "Hand Weapon")
    result = attack(dice, weapon, **fields)
    assert_spanish(result_texts(result), [*NAMES, "Flail"])
    assert result.explain("es") != result.explain()


def test_the_spanish_uses_the_seeds_terms():
    charge = attack([51, 5], action="charge_attack", distance=10)
    assert charge.explain("es").splitlines()[0] == (
        "Acción: Ataque de carga (acción completa), cuerpo a cuerpo, Arma de mano (1 ataque)"
    )
    test = next(s for s in charge.steps if str(s.title) == "WS test")
    assert test.render("es") == (
        "Tirada de HA: impacto (HA 41 +10 = 51 [Ataque de carga +10]; sacó 51: éxito, "
        "0 grados de éxito)"
    )
    where = next(s for s in charge.steps if str(s.title) == "Hit location")
    assert where.render("es") == "Localización del impacto: cabeza (51 invertido: 15)"
    assert render(charge.summary, "es") == (
        "Gunther (Ataque de carga, Arma de mano): 1 de 1 impacto; "
        "Gor pierde 4 heridas (le quedan 8)"
    )
    fury = attack([20, 10, 30, 6])
    assert "Furia de Ulric: +6 (6)" in fury.explain("es")
    soaked = next(s for s in fury.steps if str(s.title) == "Soak")
    assert soaked.render("es") == "Absorción: 4 (BR 4 + armadura 0 en cabeza)"


def test_the_round_and_the_effects_render_in_spanish():
    fighters = [character("Gunther"), character("Gor"), character("Ungor", characteristics={})]
    rolled = SYSTEM.initiative(fighters, EnteredDice([5, 5, 1, 3, 9, 2]), surprised=["Gor"])
    texts = [step.render("es") for step in rolled.steps]
    texts += spanish(roll.purpose for step in rolled.steps for roll in step.rolls)
    for action, target in [
        ("move", None),
        ("run", None),
        ("parry_stance", None),
        ("delay", None),
        ("feint", character("Gor")),
        ("manoeuvre", character("Gor")),
    ]:
        done = perform_action(action, character("Gunther"), EnteredDice([5, 99]), target=target)
        texts.append(done.explain("es"))
        texts += spanish(effect.note for effect in done.effects if effect.note)
    applied = apply_effects(character("Gor"), [Effect("damage", "Gor", 15, "head")])
    texts.append(applied.explain("es"))
    texts += spanish(effect.note for effect in applied.outstanding)
    texts += spanish(turn_problems(["run", "jump", "move", "move", "aim"]))
    assert_spanish(texts)


REFUSALS: list[tuple[str, dict[str, Any]]] = [
    ("no weapon", {"weapon": "Halberd"}),
    ("weapon mode", {"mode": "ranged"}),
    ("action mode", {"weapon": "Bow", "action": "charge_attack"}),
    ("beyond range", {"weapon": "Bow", "distance": 49.5}),
    ("called shot", {"called_location": "head"}),
    ("too close", {"action": "charge_attack", "distance": 3}),
    ("beyond the move", {"action": "charge_attack", "distance": 17}),
    ("whole number", {"circumstances": {"gm_modifier": "a lot"}}),
    (
        "no attacks",
        {"action": "swift_attack", "attacker": character("Gunther", secondary={"A": 0})},
    ),
    (
        "cannot parry with",
        {"circumstances": STANCE, "options": {"parry_weapon": "Bow", "reaction": "parry"}},
    ),
    ("reactions per attack", {"options": {"reaction": ["parry", "dodge"]}}),
]


@pytest.mark.parametrize(("case", "fields"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_refusals_render_in_spanish(case, fields):
    fields = dict(fields)
    weapon = fields.pop("weapon", "Hand Weapon")
    with pytest.raises(RulesError) as refused:
        SYSTEM.resolve_attack(request(weapon, **fields), EnteredDice([1, 1, 1]))
    assert isinstance(refused.value.message, Message)
    assert_spanish([refused.value.render("es")])


def test_option_refusals_render_in_spanish():
    for options in ({"ulric_fury": False}, {"ulrics_fury": "yes"}, {"reaction": "block"}):
        with pytest.raises(RulesError) as refused:
            request(options=options)
        names = [*NAMES, *WFRP2Options.model_fields, "ulric_fury", "wfrp2", "block", "yes"]
        names += ["parry", "dodge"]  # the option's values, as typed
        assert_spanish([refused.value.render("es")], names)


def test_the_panel_offers_render_in_spanish():
    ids = [*(c.id for c in OFFERS.actions()), *(c.id for c in OFFERS.circumstances(None))]
    texts = spanish(c.label for c in OFFERS.actions())
    texts += spanish(c.help for c in OFFERS.actions())
    texts += spanish(c.label for c in OFFERS.circumstances(None))
    texts += spanish(c.help for c in OFFERS.circumstances(None))
    preview = OFFERS.preview(
        request(circumstances={"target_helpless": True, "aimed": True}, action="standard_attack")
    )
    texts += spanish([preview.title, preview.base, *preview.notes])
    texts += spanish(OFFERS.reactions_available(request()).values())
    refused = OFFERS.refusal(character("Gunther"), "Bow", "melee", "standard_attack", {})
    texts += spanish([refused])
    assert_spanish(texts, [*NAMES, *ids])
    assert render(preview.base, "es") == "HA 41"


# --- the catalogs ----------------------------------------------------------------------------


def test_the_wfrp2_catalog_has_no_problems():
    assert [p for p in problems() if p.startswith("wfrp2.")] == []


def _terms() -> list[tuple[str, str]]:
    """Every data term of the packaged YAML catalogs: (message id, the YAML's English)."""
    found: list[tuple[str, str]] = []
    for entry in table("wfrp2", "actions"):
        found.append((f"wfrp2.action.{entry['id']}", entry["name"]))
        if entry.get("note"):
            found.append((f"wfrp2.action_note.{entry['id']}", entry["note"]))
        won = entry.get("on_win")
        if isinstance(won, dict) and "note" in won:
            found.append((f"wfrp2.action_win.{entry['id']}", won["note"]))
    for entry in table("wfrp2", "circumstances"):
        found.append((f"wfrp2.circumstance.{entry['id']}", entry["name"]))
    for entry in table("wfrp2", "qualities"):
        found.append((f"wfrp2.quality.{slug(entry['name'])}", entry["name"]))
    for row in table("wfrp2", "criticals")["results"]:
        entry_id = result_id(row["result"], row["location"])
        found.append((entry_id, row["text"]))
        for index, effect in enumerate(row.get("effects") or [], start=1):
            if "note" in effect:
                found.append((f"{entry_id}_note_{index}", effect["note"]))
    found += [(f"wfrp2.weapon_group.{slug(group)}", group) for group in GROUPS]
    return found


def test_every_data_term_has_an_entry_with_the_yaml_english_and_a_spanish_text():
    found = catalogs()
    terms = _terms()
    assert len(terms) > 80
    for message_id, english in terms:
        assert found.english(message_id) == english, message_id
        assert found.translated(message_id, "es", english), message_id
    assert render(quality_label("Armour Piercing"), "es") == "Perforante"
    assert render(weapon_group("Two-handed"), "es") == "A dos manos"


def _conditions() -> set[str]:
    """Every condition the packaged data and the round give a combatant."""
    found = {"surprised"}
    for entry in table("wfrp2", "actions"):
        found |= {grant["condition"] for grant in entry.get("grants") or ()}
        won = entry.get("on_win")
        if isinstance(won, dict) and "condition" in won:
            found.add(won["condition"])
    found |= {c["condition"] for c in table("wfrp2", "circumstances") if c.get("condition")}
    for row in table("wfrp2", "criticals")["results"]:
        found |= {e["condition"] for e in row.get("effects") or () if e.get("condition")}
    return found


def test_every_condition_has_its_term_for_the_encounter():
    conditions = _conditions()
    assert {"stunned", "helpless", "dead", "all_out_attack", "aiming", "feint"} <= conditions
    for key in sorted(conditions):
        term = Message.term(f"wfrp2.condition.{key}", key)
        assert render(term) == key
        assert english_words(render(term, "es")) == [], key
        assert render(term, "es") != key, key


def test_a_gm_renamed_term_reads_in_its_own_english():
    renamed = Message.term("wfrp2.action.standard_attack", "Plain Attack")
    assert (render(renamed), render(renamed, "es")) == ("Plain Attack", "Plain Attack")


def test_a_refused_data_file_renders_in_spanish(tmp_path, monkeypatch):
    (tmp_path / "wfrp2").mkdir()
    (tmp_path / "wfrp2" / "actions.yaml").write_text("- {id: nap, type: long}\n")
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    table.cache_clear()
    try:
        with pytest.raises(GmkitError) as refused:
            SYSTEM.actions()
    finally:
        table.cache_clear()
    assert str(refused.value).startswith("wfrp2/actions.yaml entry 'nap': type must be one of")
    assert refused.value.render("es").startswith("wfrp2/actions.yaml, entrada 'nap': type debe")
