"""The message catalogs as a whole: every message has its Spanish, every id the code names is in
a catalog, translations keep their fields, and the renderer's own rules hold."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from gmkit.messages import Message, MessageError, catalogs, from_json, problems, render
from gmkit.messages._catalog import fields_of
from gmkit.messages._check import english_words

PACKAGE = Path(__file__).resolve().parent.parent / "gmkit"


def test_every_message_has_a_spanish_text_made_from_its_english():
    assert problems() == []
    assert len(catalogs().templates) > 2000


def named_ids() -> dict[str, str]:
    """Every literal id the package's code passes to ``Message(...)``, with where."""
    found: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            named = isinstance(func, ast.Name) and func.id == "Message"
            if not named:
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.setdefault(first.value, f"{path.relative_to(PACKAGE)}:{node.lineno}")
    return found


def test_every_id_the_code_names_is_in_a_catalog():
    ids = named_ids()
    assert len(ids) > 900
    missing = {key: where for key, where in ids.items() if catalogs().english(key) is None}
    assert missing == {}


def test_a_message_refuses_what_it_does_not_know():
    with pytest.raises(MessageError, match=r"unknown message id 'no\.such'"):
        Message("no.such")
    with pytest.raises(MessageError, match="parameters missing needed"):
        Message("sixes.against_success", value=3)
    with pytest.raises(MessageError, match="unknown extra"):
        Message("sixes.against_success", value=3, needed=4, extra=1)
    with pytest.raises(MessageError, match="is a bool"):
        Message("sixes.against_success", value=True, needed=4)
    with pytest.raises(MessageError, match="is a dict"):
        Message("sixes.against_success", value={}, needed=4)


def test_the_renderer_fills_fields_in_each_language():
    shot = Message("sixes.against_success", value=5, needed=4)
    assert render(shot) == "5 against 4+: success"
    assert render(shot, "es") == "5 contra 4+: éxito"
    assert render(shot, "fr") == render(shot)  # an unknown language reads English
    listed = Message("common.list", items=(Message("percentile.location.head"), "x"))
    assert render(listed, "es") == "cabeza, x"
    test = Message(
        "percentile.test_success",
        characteristic=Message("percentile.characteristic.BS"),
        base=43,
        modifier=10,
        target=53,
        modifiers=Message("common.no_modifiers"),
        value=34,
        degrees=1,
    )
    assert render(test) == "BS 43 +10 = 53 [no modifiers]; rolled 34: success, 1 degree of success"
    assert render(test, "es").startswith("HP 43 +10 = 53 [sin modificadores]; sacó 34")
    assert render(test, "es").endswith("1 grado de éxito")


def test_a_stored_message_reads_back_and_an_old_one_never_fails():
    shot = Message("sixes.against_success", value=5, needed=4)
    assert from_json(shot.to_json()) == shot
    assert from_json("an old log's English") == "an old log's English"
    dropped = from_json({"id": "gone.since", "params": {"n": 3}})
    assert render(dropped) == "gone.since (n=3)"  # shown, never raised


def test_every_translation_keeps_the_fields_of_its_english():
    spanish = catalogs().translations["es"]
    for key, entry in catalogs().templates.items():
        assert fields_of(spanish[key].translated) == fields_of(entry.english), key


CODE_WORDS = {
    # refusals naming what a GM types into a data file or Python: a field, a key, a value the
    # code reads (parry, dodge, melee...), a file (criticals.yaml), a talent as sheets spell it
    "encounter.enemy_wounds_choice",
    "imperial.circumstance.terrain",
    "imperial.handling.mixed_weapons",
    "imperial.condition.reminder_when",
    "imperial.data.bad_effect_when",
    "imperial.request.melee_mode",
    "imperial.request.needs_two_weapon_wielder",
    "imperial.request.needs_multiple_attacks",
    "imperial.setup.location_needs_called_shot",
    "imperial.setup.bad_reaction",
    "imperial.odds.fury_depth",
    "necromunda.move.use_charge",
    "sheets.reload_shape",
    "sheets.weapon_needs_range_bands",
    "sheets.more_than_short_range",
    "wfb6.modifier.missing",
    "wfb6.situation.reading",
    "wfrp2.critical.placeholder",
    "wfrp2.critical.no_row",
    "wfrp2.critical.no_effect",
    "wfrp2.critical.no_result",
    "wfrp2.refusal.not_an_attack",
    "wfrp2.refusal.reaction_kind",
    "wfrp2.refusal.unknown_reaction",
    "wfrp2.refusal.is_an_attack",
    "wfrp2.catalog.attack",
    "wfrp2.catalog.attacks",
    "wfrp2.catalog.reactions",
    "wfrp2.catalog.bearer",
    "wfrp2.catalog.damage_dice",
    "wfrp2.odds.fury_depth",
    "wfrp2.action_note.disengage",
}


def test_no_spanish_text_is_left_in_english():
    spanish = catalogs().translations["es"]
    kept = {"common.verbatim", "common.join", "common.list", "common.modifier", *CODE_WORDS}
    leftovers = {}
    for key, entry in spanish.items():
        if key in kept or key.startswith("games.title."):
            continue
        words = english_words(re.sub(r"\{[^}]*\}", " ", entry.translated))
        if words:
            leftovers[key] = words
    assert leftovers == {}
