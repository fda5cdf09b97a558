"""The attack options a panel offers, as the GM reads them: every offered option of every game
has a label and a help text that are messages with Spanish free of English rule words, and a
type a simple panel control asks for; every option of the five games' models has its help as a
message whose English is the model's description; the catalogs of those domains are whole."""

from __future__ import annotations

import types
import typing
from typing import Any, Literal

import annotated_types
import pytest

from gmkit.games import game, game_ids
from gmkit.messages import Message, catalogs, problems, render
from gmkit.messages._check import english_words
from gmkit.systems._imperial.options import DarkHeresyOptions, DeathwatchOptions
from gmkit.systems.necromunda._options import NecromundaOptions
from gmkit.systems.options import AttackOptions, OptionInfo, offered_options
from gmkit.systems.wfb6._options import WFB6Options
from gmkit.systems.wfrp2._options import WFRP2Options

DOMAINS = ("imperial", "wfrp2", "necromunda", "wfb6")
MODELS: dict[str, type[AttackOptions]] = {
    "dark_heresy": DarkHeresyOptions,
    "deathwatch": DeathwatchOptions,
    "necromunda": NecromundaOptions,
    "wfrp2": WFRP2Options,
    "wfb6": WFB6Options,
}
DOMAIN = {
    "dark_heresy": "imperial",
    "deathwatch": "imperial",
    "necromunda": "necromunda",
    "wfrp2": "wfrp2",
    "wfb6": "wfb6",
}


def _members(annotation: Any) -> tuple[Any, ...]:
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        return typing.get_args(annotation)
    return (annotation,)


def control(annotation: Any, metadata: list[Any]) -> str | None:
    """The simple control a panel asks ``annotation`` with, or None when there is none."""
    members = _members(annotation)
    optional = type(None) in members
    kinds = tuple(member for member in members if member is not type(None))
    literal = len(kinds) == 1 and typing.get_origin(kinds[0]) is Literal
    bounded = {type(found) for found in metadata} >= {annotated_types.Ge, annotated_types.Le}
    if kinds == (bool,):
        return "bool | None" if optional else "bool"
    if kinds == (int,) and not optional and bounded:
        return "int"
    if set(kinds) == {int, float} and optional:
        return "int | float | None"
    if kinds == (str,) and optional:
        return "str | None"
    if literal:
        return "Literal | None" if optional else "Literal"
    return None


def test_the_control_reading_refuses_what_a_simple_control_cannot_ask() -> None:
    assert control(bool, []) == "bool"
    assert control(bool | None, []) == "bool | None"
    assert control(int, [annotated_types.Ge(0), annotated_types.Le(9)]) == "int"
    assert control(int, []) is None  # an int without its bounds
    assert control(int | float | None, []) == "int | float | None"
    assert control(str | None, []) == "str | None"
    assert control(Literal["a", "b"], []) == "Literal"
    assert control(Literal["a", "b"] | None, []) == "Literal | None"
    assert control(dict[str, bool], []) is None
    assert control(tuple[str, ...] | None, []) is None
    assert control(bool | Literal["push"], []) is None


def test_the_registry_holds_the_five_games_with_their_models() -> None:
    assert set(MODELS) <= set(game_ids())
    for game_id, model in MODELS.items():
        assert game(game_id).options is model


def spanish_of(text: Any) -> str:
    assert isinstance(text, Message), text
    english = catalogs().english(text.id)
    assert english is not None, text.id
    translated = catalogs().translated(text.id, "es", english)
    assert translated, f"{text.id}: no Spanish text"
    shown = render(text, "es")
    assert shown == translated.format()  # no fields: only {{ }} to read as braces
    return shown


@pytest.mark.parametrize("game_id", game_ids())
def test_every_offered_option_has_a_spanish_label_and_help_and_a_simple_type(game_id: str) -> None:
    model = game(game_id).options
    offered = offered_options(model)
    if game_id in MODELS:
        assert offered, f"{game_id} offers no option"
    for info in offered:
        for text in (info.label, info.help):
            shown = spanish_of(text)
            assert english_words(shown) == [], (info.name, shown)
        metadata = model.model_fields[info.name].metadata
        assert control(info.annotation, metadata), (info.name, info.annotation)


def declared(model: type[AttackOptions]) -> dict[str, dict[str, Any]]:
    found = {}
    for name, info in model.model_fields.items():
        extra = info.json_schema_extra
        assert isinstance(extra, dict), name
        found[name] = {**extra, "description": info.description}
    return found


@pytest.mark.parametrize("game_id", sorted(MODELS))
def test_every_option_has_its_help_as_a_message_whose_english_is_the_description(
    game_id: str,
) -> None:
    domain = DOMAIN[game_id]
    for name, extra in declared(MODELS[game_id]).items():
        help_text = extra["help"]
        assert isinstance(help_text, Message), name
        assert help_text.id == f"{domain}.option.{name}"
        assert render(help_text) == extra["description"]
        spanish_of(help_text)
        label = extra["label"]
        if extra["offered"]:
            assert isinstance(label, Message), name
            assert label.id == f"{domain}.option_label.{name}"
        else:
            assert label == "", name  # a label only for what a panel shows


def test_the_panel_shows_the_labels_and_helps_in_the_gms_language() -> None:
    def shown(model: type[AttackOptions]) -> dict[str, OptionInfo]:
        return {info.name: info for info in offered_options(model)}

    wfrp2, necromunda = shown(WFRP2Options), shown(NecromundaOptions)
    imperial, wfb6 = shown(DarkHeresyOptions), shown(WFB6Options)
    assert [render(wfrp2["parry_weapon"].label, lang) for lang in ("en", "es")] == [
        "Parry weapon",
        "Arma con la que para",
    ]
    assert [render(wfrp2["ulrics_fury"].label, lang) for lang in ("en", "es")] == [
        "Ulric's Fury",
        "Furia de Ulric",
    ]
    for gm in (necromunda, wfb6):
        assert render(gm["gm_allows_shot"].label) == "GM allows the shot"
        assert render(gm["gm_allows_shot"].label, "es") == "El DJ permite el disparo"
    assert render(imperial["righteous_fury_house_rule"].label, "es") == (
        "Furia Justiciera (regla de la casa)"
    )
    assert render(imperial["parry_weapon"].help) == (
        "The target's melee weapon that parries (else its first melee weapon)"
    )
    assert render(imperial["parry_weapon"].help, "es") == (
        "El arma cuerpo a cuerpo con la que para el objetivo (si no, su primera arma cuerpo a "
        "cuerpo)"
    )
    assert render(necromunda["in_arc"].help, "es") == (
        "El objetivo está dentro del ángulo de visión frontal de 90° del tirador."
    )


def test_mappings_and_tuples_stay_declared_but_are_not_offered() -> None:
    kept: dict[type[AttackOptions], set[str]] = {
        DarkHeresyOptions: {"prepared", "house_rules", "covered_locations", "grapple"},
        DeathwatchOptions: {"prepared", "covered_locations", "grapple"},
        NecromundaOptions: {"other_targets", "attacker_state", "target_state"},
        WFB6Options: {"situation"},
        WFRP2Options: {"reaction"},
    }
    for model, names in kept.items():
        assert names <= set(model.model_fields), model
        assert not names & {info.name for info in offered_options(model)}, model
    described = DarkHeresyOptions.model_fields["reaction_modifiers"].description
    assert described == "Modifiers the GM adds to the target's Dodge or Parry, {source: value}"
    assert render(Message("imperial.option.house_rules"), "es") == (
        "Activa o desactiva las reglas de la casa de la semilla 001: "
        "{id de la regla de la casa: true o false} (house_rules.yaml)"
    )


def test_the_catalogs_of_the_option_domains_have_no_problem() -> None:
    assert [p for p in problems() if p.split(".")[0] in DOMAINS] == []
