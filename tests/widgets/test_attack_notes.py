"""The notes an attack shows: only those that apply to it (the rules decide, from the data's
``effect_when``), each by its message in the GM's language, after the steps that decide the
attack; and no raw data id in any game's attack text."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from functools import cache

import ipywidgets as widgets
import pytest

from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.sheets._deathwatch import DeathwatchCharacter
from gmkit.widgets._attack import AttackPanel
from gmkit.widgets._i18n import LANGUAGE

GAMES = ("dark_heresy", "deathwatch", "wfrp2", "necromunda", "wfb6")
PISTOLS = {
    "en": "with a pistol in each hand able to fire this mode, both fire with this action",
    "es": "con una pistola en cada mano capaz de este modo de fuego, ambas disparan con esta "
    "acción",
}
SCATTER = {
    "en": "a Scatter weapon at point blank adds its own extra hits separately",
    "es": "un arma de Dispersión a bocajarro suma aparte sus propios impactos extra",
}
EXTRA_HITS = {
    "en": "extra hits may strike other targets within 2 m, none harder to hit",
    "es": "los impactos extra pueden alcanzar a otros objetivos a 2 m o menos, ninguno más "
    "difícil de impactar",
}
RAW_ID = re.compile(r"\b[a-z]+_[a-z_]+\b")


@pytest.fixture(params=["en", "es"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    LANGUAGE.value = request.param
    yield request.param
    LANGUAGE.value = "en"


@cache
def roster(game: str):
    return next(r for r in demo_campaign().rosters if r.game == game)


def text_of(value: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]*>", " ", value)))


def step_rows(value: str) -> list[str]:
    """The step table's rows, as text, in the order shown."""
    table = value.split("gmkit-steps", 1)[1].split("</table>", 1)[0]
    return [text_of("<tr" + row).strip() for row in table.split("<tr")[2:]]


def bolter_burst(panel: AttackPanel) -> None:
    panel.select_attacker("brother-castor")
    panel.select_target("ork-boyz-mob")
    panel.select_mode("full")
    panel.set_distance(8)


def test_a_bolter_burst_shows_only_the_notes_that_apply_after_its_steps(language):
    encounter = Encounter("deathwatch")
    encounter.add_many(roster("deathwatch").sheets)
    panel = AttackPanel(encounter, seed=11)
    try:
        bolter_burst(panel)
        assert (panel.weapon, panel.action) == ("Astartes Bolter (Godwyn)", "full_auto_burst")
        preview = text_of(panel.preview_html.value)
        assert EXTRA_HITS[language] in preview  # a burst's own note
        panel.resolve()
        shown = text_of(panel.result_html.value)
        for text in (preview, shown):
            assert PISTOLS[language] not in text
            assert SCATTER[language] not in text
        rows = step_rows(panel.result_html.value)
        note = "Note" if language == "en" else "Nota"
        test = "Ballistic Skill test" if language == "en" else "Tirada de Habilidad de Proyectiles"
        assert rows[0].startswith(test), rows[0]
        notes = [i for i, row in enumerate(rows) if row.startswith(note)]
        assert notes
        assert notes == list(range(len(rows) - len(notes), len(rows)))
        assert any(EXTRA_HITS[language] in rows[i] for i in notes)
    finally:
        panel.close()


def test_a_scatter_weapon_at_point_blank_shows_its_note_by_name(language):
    shotgun = {
        "name": "Astartes Shotgun",
        "weapon_class": "basic",
        "group": "SP",
        "range": 30,
        "rof": "S/2/-",
        "damage": "2d10+3",
        "damage_type": "I",
        "clip": 18,
        "reload": "Full",
        "qualities": ["Reliable", "Scatter"],
    }
    chars = dict(WS=44, BS=47, S=45, T=43, Ag=40, Int=38, Per=41, WP=42, Fel=35)
    marine = DeathwatchCharacter.build(
        {"name": "Castor", "characteristics": chars, "wounds": 20, "weapons": [shotgun]}
    )
    nob = next(s for s in roster("deathwatch").sheets if s.name == "Nob Gritfang")
    encounter = Encounter("deathwatch")
    encounter.add_many([marine, nob])
    panel = AttackPanel(encounter, seed=3)
    try:
        panel.select_attacker("castor")
        panel.select_target("nob-gritfang")
        panel.select_mode("semi")
        panel.set_distance(1)
        assert panel.action == "semi_auto_burst", panel.error
        assert SCATTER[language] in text_of(panel.preview_html.value)
        assert PISTOLS[language] not in text_of(panel.preview_html.value)
        panel.set_distance(8)  # not point blank: the note goes
        assert SCATTER[language] not in text_of(panel.preview_html.value)
    finally:
        panel.close()


def html_of(root: widgets.Widget) -> str:
    """The HTML values of a widget tree (the odds view is a box of charts and cards)."""
    parts, todo = [], [root]
    while todo:
        part = todo.pop()
        todo.extend(getattr(part, "children", ()))
        if isinstance(part, widgets.HTML):
            parts.append(re.sub(r"<style.*?</style>", " ", part.value, flags=re.S))
    return "\n".join(parts)


def names_of(encounter: Encounter) -> set[str]:
    found: set[str] = set()
    for combatant in encounter.state.combatants.values():
        found |= {combatant.name, combatant.id, combatant.side}
        found |= {weapon.name for weapon in getattr(combatant.sheet, "weapons", ())}
    return found


def without(text: str, names: set[str]) -> str:
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return text


@pytest.mark.parametrize("game", GAMES)
def test_no_game_shows_a_raw_id_in_its_demo_attacks(game, language):
    """Every attacker of the demo fight, with each weapon and mode offered, at its first
    target: the odds, the preview and the result hold no ``word_word`` data id."""
    encounter = Encounter(game)
    encounter.add_many(roster(game).sheets)
    panel = AttackPanel(encounter, seed=7)
    names = names_of(encounter)
    seen = 0
    try:
        for attacker in [c.id for c in encounter.state.present]:
            panel.select_attacker(attacker)
            for weapon in panel.weapons:
                panel.select_weapon(weapon)
                for mode in [m.id for m in panel.modes]:
                    panel.select_mode(mode)
                    panel.set_distance(1 if mode == "melee" else 6)
                    panel.resolve()
                    if panel.result is None:
                        continue
                    seen += 1
                    for part in (panel.preview_html, panel.result_html, panel.odds_view):
                        shown = text_of(html_of(part))
                        found = RAW_ID.findall(without(shown, names))
                        assert found == [], (attacker, weapon, mode, found, shown[:2000])
        assert seen >= (1 if game == "wfb6" else 3)  # the WFB demo has one unit that shoots
    finally:
        panel.close()
