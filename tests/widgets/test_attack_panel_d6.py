"""The attack panel on the D6 games' demo fights: Necromunda and WFB 6e."""

from __future__ import annotations

from functools import cache

import pytest

from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.games import health
from gmkit.systems.wfb6 import Situation, UnitOnTable
from gmkit.widgets._attack import AttackPanel


@cache
def roster(game: str):
    return next(r for r in demo_campaign().rosters if r.game == game)


def fight(game: str) -> Encounter:
    encounter = Encounter(game)
    encounter.add_many(roster(game).sheets)
    return encounter


@pytest.fixture
def underhive():
    encounter = fight("necromunda")
    panel = AttackPanel(encounter, seed=3)
    yield encounter, panel
    panel.close()


@pytest.fixture
def ford():
    encounter = fight("wfb6")
    panel = AttackPanel(encounter, seed=3)
    yield encounter, panel
    panel.close()


def lost(encounter: Encounter, ident: str) -> int:
    """Wounds lost (the D6 games count them in the encounter's ``damage`` counter)."""
    combatant = encounter.combatant(ident)
    left, total = health(combatant.sheet, combatant.counters)
    return total - left


def step(panel: AttackPanel, title: str):
    assert panel.result is not None, panel.error
    return next(s for s in panel.result.steps if str(s.title) == title)


def juve_shot(panel: AttackPanel) -> None:
    panel.select_attacker("little-jeb")
    panel.select_target("scabby-tom")
    panel.set_distance(12)
    panel.set_circumstance("partial_cover", True)


# --- Necromunda -------------------------------------------------------------------------------


def test_the_juve_needs_seven_and_hits_with_six_then_four(underhive):
    encounter, panel = underhive
    juve_shot(panel)
    assert (panel.weapon, panel.mode, panel.action) == ("stub gun", "shooting", "shoot")
    assert panel.unit == "in"
    assert panel.preview is not None
    assert (panel.preview.target, panel.preview.total) == (7, -2)
    assert "7+ (D6)" in panel.preview_html.value
    panel.resolve("6 4 5 3")
    to_hit = step(panel, "To hit")
    assert (str(to_hit.outcome), to_hit.target, [r.value for r in to_hit.rolls]) == (
        "hit",
        7,
        [6, 4],
    )
    assert str(step(panel, "Pinned").outcome) == "Scabby Tom is pinned"
    assert str(step(panel, "Ammo roll").outcome) == "passed"
    assert str(step(panel, "To wound").outcome) == "no wound"
    assert "Little Jeb hits Scabby Tom: no wound" in panel.result_html.value
    before = encounter.state
    panel.apply()
    assert set(encounter.combatant("scabby-tom").conditions) == {"pinned"}
    panel.undo()
    assert encounter.state == before
    assert encounter.combatant("scabby-tom").conditions == {}


def test_each_d6_is_asked_for_in_turn(underhive):
    _, panel = underhive
    juve_shot(panel)
    panel.set_dice_mode("physical")
    panel.resolve()
    asked = []
    for value in (6, 4, 5, 4, 3):
        asked.append(panel.prompt)
        panel.enter(value)
    assert asked == [
        "to hit: roll a d6 and enter its value",
        "to hit (after the 6): roll a d6 and enter its value",
        "ammo roll: roll a d6 and enter its value",
        "to wound: roll a d6 and enter its value",
        "injury roll: roll a d6 and enter its value",
    ]
    assert panel.prompt == ""
    assert str(step(panel, "Injury roll").outcome).startswith("down")


def test_a_wound_is_applied_and_the_next_shot_reads_the_fighters_state(underhive):
    encounter, panel = underhive
    juve_shot(panel)
    panel.resolve("6 4 5 4 3")
    panel.apply()
    assert lost(encounter, "scabby-tom") == 1
    assert set(encounter.combatant("scabby-tom").conditions) == {"pinned", "down"}
    panel.set_circumstance("partial_cover", True)  # a new shot at the same fighter
    panel.resolve("6 4 5 4 6")
    assert str(step(panel, "Pinned").outcome) == "not pinned: already down"
    assert str(step(panel, "Injury roll").outcome).startswith("out of action")
    panel.apply()
    assert "out of action" in encounter.combatant("scabby-tom").conditions
    panel.resolve("6 4 5 4 6")  # the rules refuse a shot at a fighter off the table: shown
    assert "Scabby Tom is gone" in panel.error


def test_a_fighter_without_a_shooting_weapon_is_told_why(underhive):
    _, panel = underhive
    panel.select_attacker("mange")
    assert panel.weapons == ()
    assert panel.actions == ()
    assert "no weapon this game's rules use" in panel.offered_html.value
    assert panel.resolve() is None
    assert "Mange has no weapon this game's rules use" in panel.error  # why, not "choose..."


def test_the_sides_take_turns(underhive):
    encounter, panel = underhive
    encounter.start()
    encounter.next_turn()  # the shooting phase
    panel.select_attacker("scabby-tom")
    assert panel.actions == ()
    assert "it is The Ashen Brethren's turn" in panel.not_offered["shoot"]
    juve_shot(panel)
    assert [c.id for c in panel.actions] == ["shoot"]
    panel.resolve("6 4 5 3")
    panel.apply()
    assert encounter.combatant("little-jeb").spent == {"shoot": 1}
    assert panel.actions == ()
    assert "0 left this turn (shoot)" in panel.not_offered["shoot"]


def test_gmkit_rolls_the_shot_from_its_seed(underhive):
    _, panel = underhive
    juve_shot(panel)
    panel.set_seed(5)
    first = panel.resolve()
    panel.set_seed(5)
    second = panel.resolve()
    assert first is not None
    assert second is not None
    assert [str(s) for s in first.steps] == [str(s) for s in second.steps]
    assert not any(roll.physical for roll in second.rolls)
    assert step(panel, "To hit").target == 7


def test_no_reaction_is_offered_in_the_d6_games(underhive):
    _, panel = underhive
    juve_shot(panel)
    assert panel.reactions == ()
    assert panel.reaction_box.layout.display == "none"


# --- WFB 6e -----------------------------------------------------------------------------------


def test_a_goblin_shoots_the_lone_priest(ford):
    encounter, panel = ford
    panel.select_attacker("night-goblin-archer")
    panel.select_target("father-anselm")
    panel.set_distance(28)
    assert (panel.weapon, panel.mode, panel.action) == ("short bow", "missile", "shoot")
    assert panel.unit == "cm"
    assert panel.preview is None  # the target's modifiers come with the targeting: after the dice
    assert "shown from the steps once resolved" in panel.preview_html.value
    panel.resolve("6 6 1")
    assert str(step(panel, "Target Father Anselm").outcome) == "may be targeted"
    to_hit = step(panel, "To hit")
    assert (str(to_hit.outcome), to_hit.target) == ("1 hit of 1 shot", 6)
    assert [str(m) for m in to_hit.modifiers] == ["Lone infantry character -1", "Long range -1"]
    assert "Lone infantry character -1" in panel.preview_html.value
    assert str(step(panel, "To wound Father Anselm").outcome) == "1 wound of 1 hit"
    assert str(step(panel, "Armour save Father Anselm").outcome) == "0 of 1 saved"
    before = encounter.state
    panel.apply()
    assert lost(encounter, "father-anselm") == 1
    panel.undo()
    assert encounter.state == before


def test_a_character_in_a_unit_needs_the_situation(ford):
    encounter, panel = ford
    panel.select_attacker("night-goblin-archer")
    panel.select_target("captain-ottilie-hals")
    panel.set_distance(30)
    assert panel.resolve("5") is None
    assert "list it in the situation" in panel.error
    empire = [c.sheet for c in encounter.state.present if c.side == "Empire"][:3]
    unit = UnitOnTable.of(empire, rank_and_file=15, shooter_distance_cm=30)
    panel.set_option("situation", Situation((unit,), distance_cm=30))
    # refused means refused (issue 22): the reason, no roll, nothing to apply
    assert panel.resolve() is None
    assert "Captain Ottilie Hals may not be targeted" in panel.error
    assert panel.result is None
    assert panel.apply_button.disabled


def test_wfb_circumstances_are_the_shooting_catalogs(ford):
    _, panel = ford
    panel.select_attacker("night-goblin-archer")
    assert [c.id for c in panel.circumstance_choices] == [
        "moved",
        "stand_and_shoot",
        "soft_cover",
        "hard_cover",
        "gm",
    ]
    panel.select_target("father-anselm")
    panel.set_distance(10)
    panel.set_circumstance("hard_cover", True)
    panel.set_circumstance("gm", -1)
    panel.resolve("6 6 1")
    modifiers = [str(m) for m in step(panel, "To hit").modifiers]
    assert modifiers == ["Lone infantry character -1", "Hard cover -2", "GM's modifier -1"]
