"""The attack panel on the 40k demo fights (while their rules are being finished)."""

from __future__ import annotations

from functools import cache

import pytest

pytest.importorskip("gmkit.systems._imperial.modifiers")

from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.games import health
from gmkit.widgets._attack import AttackPanel
from gmkit.widgets._i18n import LANGUAGE


@cache
def roster(game: str):
    return next(r for r in demo_campaign().rosters if r.game == game)


@pytest.fixture
def chapel():
    encounter = Encounter("dark_heresy")
    encounter.add_many(roster("dark_heresy").sheets)
    panel = AttackPanel(encounter, seed=5)
    yield encounter, panel
    panel.close()


def step(panel: AttackPanel, title: str):
    assert panel.result is not None, panel.error
    return next(s for s in panel.result.steps if str(s.title) == title)


def lost(encounter: Encounter, ident: str) -> int:
    """Wounds lost, whether the rules apply damage to the sheet or the encounter counts it."""
    combatant = encounter.combatant(ident)
    left, total = health(combatant.sheet, {})
    return total - left + combatant.counters.get("damage", 0)


def lasgun_at_ban(panel: AttackPanel) -> None:
    panel.select_attacker("sergeant-varro-tull")
    panel.select_target("cultist-ban")
    panel.set_distance(20)


def test_a_lasgun_shot_is_previewed_resolved_applied_and_undone(chapel):
    encounter, panel = chapel
    lasgun_at_ban(panel)
    assert (panel.weapon, panel.mode, panel.action) == ("Lasgun", "single", "standard_attack")
    assert panel.preview is not None
    shown = (str(panel.preview.base), panel.preview.total, panel.preview.target)
    assert shown == ("BS 42", 10, 52)
    assert "Short range" in panel.preview_html.value
    panel.resolve("34 7")
    test = step(panel, "Ballistic Skill test")
    assert test.target == 52
    assert str(test.outcome).startswith("hit")
    damage = [e for e in panel.result.effects if e.kind == "damage"]
    assert [(e.target, e.amount, e.location) for e in damage] == [("Cultist Ban", 7, "body")]
    before = encounter.state
    panel.apply()
    assert lost(encounter, "cultist-ban") == 7
    assert encounter.state != before
    panel.undo()
    assert encounter.state == before


def test_the_d100_then_the_d10_are_asked_for(chapel):
    _, panel = chapel
    lasgun_at_ban(panel)
    panel.set_dice_mode("physical")
    panel.resolve()
    assert panel.prompt.endswith("roll a d100 and enter its value")
    panel.enter(34)
    assert panel.prompt.endswith("roll a d10 and enter its value")
    assert panel.prompt.startswith("damage")
    panel.enter(7)
    assert panel.prompt == ""
    assert panel.result is not None


def test_fire_modes_come_from_the_rate_of_fire(chapel):
    _, panel = chapel
    lasgun_at_ban(panel)
    assert [c.id for c in panel.modes] == ["single", "semi", "melee"]
    assert "full_auto_burst" in panel.not_offered
    panel.select_mode("semi")
    assert panel.action == "semi_auto_burst"
    assert [str(m.source) for m in panel.preview.modifiers] == ["Semi-Auto Burst", "Short range"]
    panel.select_mode("full")
    assert "not offered" in panel.error
    panel.select_weapon("Knife")
    panel.select_action("called_shot")
    assert panel.locations[0] == "head"
    panel.select_location("right_arm")
    assert panel.preview.modifiers[0].value == -20


def test_the_target_may_dodge_a_shot_but_not_parry_it(chapel):
    _, panel = chapel
    lasgun_at_ban(panel)
    assert [c.id for c in panel.reactions] == ["dodge"]
    assert "melee" in panel.reactions_refused["parry"]
    panel.select_reaction("dodge")
    panel.resolve("34 10")  # Ban dodges (Ag 30): the shot is negated
    assert str(step(panel, "Dodge").outcome) == "the attack is negated"
    assert not [e for e in panel.result.effects if e.kind == "damage"]


def test_spanish_labels_come_from_the_catalogs(chapel):
    _, panel = chapel
    lasgun_at_ban(panel)
    try:
        LANGUAGE.value = "es"
        panel.refresh()
        labels = [option[0] for option in panel.action_box.options]
        assert "Ataque Estándar" in labels or "Ataque estándar" in labels
        texts = [c.description for c in panel._circumstance_controls.values()]
        assert "Oscuridad" in texts
    finally:
        LANGUAGE.value = "en"


def test_deathwatch_full_auto_against_the_mob(chapel):
    encounter = Encounter("deathwatch")
    encounter.add_many(roster("deathwatch").sheets)
    panel = AttackPanel(encounter, seed=5)
    panel.select_attacker("brother-castor")
    panel.select_target("ork-boyz-mob")
    panel.set_distance(30)
    assert [c.id for c in panel.modes] == ["single", "semi", "full", "suppressing", "melee"]
    panel.select_mode("full")
    assert [c.id for c in panel.actions] == ["full_auto_burst", "overwatch"]
    assert panel.action == "full_auto_burst"
    assert panel.reactions == ()  # hordes do not react unless the GM says so
    result = panel.resolve()
    assert result is not None, panel.error
    before = encounter.state
    panel.apply()
    assert panel.error == ""
    panel.undo()
    assert encounter.state == before
    panel.close()
