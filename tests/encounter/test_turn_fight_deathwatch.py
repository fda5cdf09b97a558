"""A scripted Deathwatch fight through the Encounter API, every die typed (issue 11).

The demo's Breach at Vaxanide with two changes: Brother Ilarion has Swift Attack, and the nob
starts a wound from his last (24 of 25 taken), so that the chainsword's hits go to critical
damage. What it shows, by the seeds' numbers:

- the ork horde: its size bonus by current magnitude (the seeds' README: 30+ +10) among the
  attack's modifiers, its flak counting as its armour (AP 2), the magnitude it loses, and the
  odds' ``magnitude_lost``;
- Swift Attack (004): each attack's own degrees of success as its damage die's minimum;
- a critical without a GM's table (the seeds' README): the GM's prompt (total, location, damage
  type), answered by the GM;
- a stunned marine refused an action (004: stunned, no actions).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter
from gmkit.messages import from_json
from gmkit.odds._imperial import imperial_odds
from gmkit.store import CampaignStore
from gmkit.systems._imperial.criticals import CriticalPrompt
from gmkit.systems.base import Effect


def step(result, title: str) -> str:
    return str(next(s for s in result.steps if str(s.title) == title))


@pytest.fixture
def fight(tmp_path, demo_sheets):
    sheets = {sheet.name: sheet for sheet in demo_sheets["deathwatch"]}
    ilarion = sheets["Brother Ilarion"]
    sheets["Brother Ilarion"] = ilarion.edit(talents=[*ilarion.talents, "Swift Attack"])
    sheets["Nob Gritfang"] = sheets["Nob Gritfang"].edit(damage=24)
    with CampaignStore(tmp_path / "campaign.gmkit", create=True) as store:
        found = Encounter.create(store, "breach", "deathwatch")
        found.add_many(list(sheets.values()))
        # 1d10 + Agility Bonus (Unnatural Agility counted), typed
        assert found.roll_initiative(EnteredDice([9, 8, 5, 2, 1])) == {
            "brother-castor": 13,
            "brother-ilarion": 12,
            "brother-varek": 8,
            "ork-boyz-mob": 5,
            "nob-gritfang": 4,
        }
        found.start()
        yield found


def test_a_horde_a_swift_attack_a_critical_and_a_stunned_marine(fight, refused):
    # --- Castor's bolter into the ork mob (magnitude 30: +10 for its size) -------------------
    assert fight.state.current.id == "brother-castor"
    bolter = "Astartes Bolter (Godwyn)"
    request = fight.attack_request("brother-castor", bolter, "ork-boyz-mob", distance=30)
    odds = imperial_odds(request)
    assert odds.hit == Fraction(67, 100)  # BS 47 +10 short range +10 horde size
    assert odds.expected_damage == 0  # a horde loses magnitude, not wounds...
    assert odds.magnitude_lost is not None  # ...and the odds say how much
    assert odds.hit < odds.expected_magnitude_lost < 2 * odds.hit  # Explosive: a hit more
    # 13: 5 degrees; 2d10+5 Tearing, its lowest kept die reading at least 5: at least
    # 5 + 1 + 5 = 11 against AP 2 (the flak, Pen 5 leaves 0) and TB 8: any roll damages, so
    # none is asked (004: any damage costs one magnitude); the Explosive hit [5, 5, ~~5~~] +5
    # = 15: 7; two damaging hits
    shot = fight.attack(
        "brother-castor", bolter, "ork-boyz-mob", EnteredDice([13, 5, 5, 5]), distance=30
    )
    assert step(shot, "Ballistic Skill test") == (
        "Ballistic Skill test: hit, 5 degrees of success (BS 47 +20 = 67 [Short range +10, "
        "Horde size (magnitude 30) +10]; rolled 13: success, 5 degrees of success)"
    )
    assert step(shot, "Damage (hit 1)") == (
        "Damage (hit 1): not rolled: any roll deals damage (at least 3 after armour and "
        "Toughness) (a horde loses one magnitude to any damage, however much (004))"
    )
    assert step(shot, "Soak (hit 2)") == (
        "Soak (hit 2): 7 damage taken (15 damage - AP 2 (Pen 5: 0) - TB 8 = 7)"
    )
    assert str(shot.summary) == (
        "Brother Castor hits Ork Boyz mob 2 times with Astartes Bolter (Godwyn): magnitude -2"
    )
    assert fight.combatant("ork-boyz-mob").sheet.horde.magnitude == 28
    # below 30 now: no size bonus for the next shot
    after = imperial_odds(fight.attack_request("brother-castor", bolter, "ork-boyz-mob"))
    assert after.hit == Fraction(47, 100)

    # --- Ilarion's Swift Attack on the nob: each attack its own degrees -----------------------
    fight.next_turn()
    assert fight.state.current.id == "brother-ilarion"
    swift = fight.attack(
        "brother-ilarion",
        "Astartes Chainsword",
        "nob-gritfang",
        EnteredDice([18, 1, 2, 27, 1, 1]),
        action="multiple_attacks",
        mode="melee",
        spend=True,
    )
    # 18: 3 degrees, [~~1~~, 2->3] +3 +SB 8 = 14; 27: 2 degrees, [1->2, ~~1~~] +11 = 13
    assert step(swift, "Damage (hit 1)") == (
        "Damage (hit 1): 14 at right leg (1d10+3+SB: [~~1~~, 2->3] +11 = 14)"
    )
    assert step(swift, "Damage (hit 2)") == (
        "Damage (hit 2): 13 at right leg (1d10+3+SB: [1->2, ~~1~~] +11 = 13)"
    )
    assert [e.amount for e in swift.effects if e.kind == "damage"] == [4, 3]  # TB 10, no AP
    nob = fight.combatant("nob-gritfang")
    assert (nob.sheet.damage, nob.sheet.critical_damage) == (25, 6)  # 1 wound, then 3 + 3

    # --- the criticals: no table provided, the GM is asked -------------------------------------
    follow_ups = fight.effective_events[-1]["follow_ups"]
    assert [str(from_json(e["note"])) for e in follow_ups] == [
        "3 critical damage (Rending, right leg): no critical table provided: the GM decides "
        "the effect",
        "6 critical damage (Rending, right leg): no critical table provided: the GM decides "
        "the effect",
    ]
    last = follow_ups[-1]
    prompt = CriticalPrompt.from_effect(
        Effect(
            "note",
            last["target"],
            last["amount"],
            last["location"],
            last["damage_type"],
            note=from_json(last["note"]),
        ),
        "deathwatch",
    )
    assert prompt == CriticalPrompt("deathwatch", "nob-gritfang", 6, "right_leg", "Rending", 8)
    assert not prompt.may_kill  # 004: death usually from 8
    # the two are decisions the GM owes, listed with the rolls due until marked decided
    owed = [(due.rule, due.bearer, due.dice, due.optional) for due in fight.due]
    assert owed[-2:] == [("critical", "nob-gritfang", (), True)] * 2
    assert str(fight.due[-1].text) == str(from_json(last["note"]))
    fight.apply_effects(list(prompt.answer("the leg buckles", [("prone", None)])), note="GM")
    assert "prone" in fight.combatant("nob-gritfang").conditions
    for _ in range(2):
        fight.dismiss_due(len(fight.due) - 1, "decided")
    assert [due.rule for due in fight.due if due.rule == "critical"] == []

    # --- Varek, stunned, may not act ------------------------------------------------------------
    stunned = Effect("condition", "brother-varek", condition="stunned", rounds=1)
    fight.apply_effects([stunned], note="a stikkbomb's blast")
    fight.next_turn()
    assert fight.state.current.id == "brother-varek"
    permit = fight.may_do("brother-varek", "aim")
    assert not permit.allowed
    assert str(permit.why) == "Brother Varek is stunned: no actions"
    refused(fight, lambda: fight.act("brother-varek", "aim"), "stunned")
