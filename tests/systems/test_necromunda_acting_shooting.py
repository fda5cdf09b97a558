"""Necromunda shots and the turn (seed 000): the disputes at the table (the sight roll, the
cover roll-off), small and large targets refused against fighters, and the to-wound and 7+
charts as data a GM overrides (gmkit/systems/necromunda/_disputes.py, charts.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest
import yaml

from gmkit.dice import EnteredDice
from gmkit.errors import RulesError
from gmkit.odds import exhaustive
from gmkit.odds._necromunda import necromunda_odds
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.systems._catalogs import catalog
from gmkit.systems._sixes import SEVEN_PLUS, TO_WOUND
from gmkit.systems._tables import table
from gmkit.systems.base import AttackRequest
from gmkit.systems.necromunda import SYSTEM, FighterState, shot_setup
from gmkit.systems.necromunda._charts import seven_plus_chart, to_wound_chart

WEAPONS = catalog("necromunda", "weapons")
GANGER = NecromundaFighter.build(name="Mordecai", weapons=[WEAPONS["lasgun"]])  # BS 3, I 3
TOM = NecromundaFighter.build(name="Tom")


def shot(**changes) -> AttackRequest:
    fields = {"attacker": GANGER, "weapon": "lasgun", "target": TOM, "distance": 20}  # long: 0
    fields.update(changes)
    return AttackRequest(**fields)


def texts(result) -> list[str]:
    return [str(step) for step in result.steps]


@pytest.fixture
def fresh_tables():
    table.cache_clear()
    yield
    table.cache_clear()


# --- 5. small and large targets, the sight roll, the roll-off --------------------------------


@pytest.mark.parametrize("size", ["small", "large"])
def test_small_and_large_are_refused_against_a_fighter(size):
    refused = "target: enemy fighters are never small or large targets"
    with pytest.raises(RulesError, match=refused):
        SYSTEM.resolve_attack(shot(circumstances={size: True}), EnteredDice([4]))
    with pytest.raises(RulesError, match=refused):
        necromunda_odds(shot(circumstances={size: True}))


def test_a_sight_roll_of_1_to_3_means_no_shot():
    result = SYSTEM.resolve_attack(shot(options={"sight_in_doubt": True}), EnteredDice([3]))
    assert texts(result) == ["Sight roll: cannot shoot (3: 4 or more sees the target)"]
    assert (result.hits, result.effects, str(result.summary)) == (
        0,
        (),
        "Mordecai cannot shoot Tom",
    )


def test_a_sight_roll_of_4_to_6_lets_the_shot_go_on():
    result = SYSTEM.resolve_attack(shot(options={"sight_in_doubt": True}), EnteredDice([4, 5, 1]))
    assert texts(result)[0] == "Sight roll: can shoot (4: 4 or more sees the target)"
    assert result.hits == 1  # 5 against 4+; then 1 to wound


def test_the_sight_roll_halves_the_odds_of_a_hit():
    plain, doubtful = (
        necromunda_odds(shot()),
        necromunda_odds(shot(options={"sight_in_doubt": True})),
    )
    assert plain.hit == Fraction(1, 2)  # BS 3: 4+
    assert doubtful.hit == Fraction(1, 4)
    assert doubtful.p("ammo roll failed") == plain.p("ammo roll failed") / 2


def test_the_sight_rolls_odds_agree_with_the_resolver_over_every_die():
    request = shot(options={"sight_in_doubt": True})
    by_dice = exhaustive(request, lambda result: result.hits)
    assert by_dice == necromunda_odds(request).hits


def test_the_roll_offs_odds_are_the_mean_of_either_player_right():
    cover = shot(options={"disputed": "cover"}, circumstances={"partial_cover": True})
    assert necromunda_odds(cover).hit == (Fraction(1, 2) + Fraction(1, 6)) / 2  # 4+ or 6+
    hidden = {"disputed": "hidden", "target_state": FighterState(hidden=True)}
    assert necromunda_odds(shot(options=hidden)).hit == Fraction(1, 4)  # beyond 3": 1/2 shot
    near = shot(options=hidden, distance=3, weapon="lasgun")  # within I 3: always shot
    assert necromunda_odds(near).hit == Fraction(2, 3)  # short range +1: 3+


def test_a_refusal_comes_before_any_dispute_die():
    pinned = shot(options={"sight_in_doubt": True, "attacker_state": FighterState(pinned=True)})
    source = EnteredDice([4])
    with pytest.raises(RulesError, match="a pinned fighter does not shoot"):
        SYSTEM.resolve_attack(pinned, source)
    assert source.pending == (4,)


@pytest.mark.parametrize(
    ("dice", "outcome", "needed"),
    [
        (
            [2, 5],
            "Roll-off: Tom's player is right: cover (Mordecai 2 against Tom 5; 0 ties "
            "rolled again)",
            6,
        ),
        (
            [5, 2],
            "Roll-off: the shooter's player is right: not cover (Mordecai 5 against Tom "
            "2; 0 ties rolled again)",
            4,
        ),
        (
            [3, 3, 1, 6],
            "Roll-off: Tom's player is right: cover (Mordecai 1 against Tom 6; 1 tie rolled again)",
            6,
        ),
    ],
)
def test_the_cover_roll_off_the_higher_is_right_ties_roll_again(dice, outcome, needed):
    request = shot(options={"disputed": "cover"}, circumstances={"partial_cover": True})
    result = SYSTEM.resolve_attack(request, EnteredDice([*dice, 1]))  # then a 1 to hit
    assert texts(result)[0] == outcome
    to_hit = next(step for step in result.steps if str(step.title) == "To hit")
    assert to_hit.target == needed  # BS 3: 4+, in cover -2: 6+


def test_the_hiding_roll_off_upheld_beyond_the_spotting_range_is_no_shot():
    hidden = {"disputed": "hidden", "target_state": FighterState(hidden=True)}
    kept = SYSTEM.resolve_attack(shot(options=hidden), EnteredDice([2, 5]))
    assert (kept.hits, kept.effects, str(kept.summary)) == (0, (), "Mordecai cannot shoot Tom")
    lost = SYSTEM.resolve_attack(shot(options=hidden), EnteredDice([5, 2, 4, 1]))
    assert texts(lost)[0].startswith("Roll-off: the shooter's player is right: not stays hidden")
    assert lost.effects[0].kind == "remove_condition"  # Tom's hiding is lost: shot normally
    assert lost.hits == 1


def test_the_roll_off_for_hiding_through_the_encounter():
    from gmkit.demo import demo_campaign
    from gmkit.encounter import Encounter

    roster = next(r for r in demo_campaign().rosters if r.game == "necromunda")
    fight = Encounter("necromunda")
    fight.add_many(list(roster.sheets))
    fight.start()
    fight.add_condition("scabby-tom", "hidden")
    fight.next_turn()  # the first side's shooting: Brother Kael's side plays first
    shooter = fight.state.current_side
    assert shooter == "The Ashen Brethren"
    result = fight.attack(
        "brother-kael",
        "bolt pistol",
        "scabby-tom",
        EnteredDice([6, 1, 4, 1]),
        distance=8,
        options={"disputed": "hidden"},
    )
    assert texts(result)[0] == (
        "Roll-off: the shooter's player is right: not stays hidden (Brother Kael 6 against "
        "Scabby Tom 1; 0 ties rolled again)"
    )
    assert "hidden" not in fight.combatant("scabby-tom").conditions
    assert "pinned" in fight.combatant("scabby-tom").conditions


# --- 6. the charts as data --------------------------------------------------------------------


def test_the_packaged_charts_are_the_rulings():
    assert to_wound_chart() == TO_WOUND
    assert seven_plus_chart() == SEVEN_PLUS


def test_a_gm_to_wound_chart_replaces_the_packaged_one(tmp_path, monkeypatch, fresh_tables):
    (tmp_path / "necromunda").mkdir()
    rows = {1: 3, 0: 3, -1: 4, -2: 5, -3: None}  # a kinder chart
    (tmp_path / "necromunda" / "to_wound.yaml").write_text(yaml.safe_dump(rows))
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    assert shot_setup(shot()).to_wound == 3  # S 3 against T 3: 0
    assert shot_setup(shot(target=TOM.edit(T=7))).to_wound is None  # -4 reads the -3 row
    assert shot_setup(shot(target=TOM.edit(T=1))).to_wound == 3  # +2 reads the +1 row


def test_a_gm_seven_plus_chart_replaces_the_packaged_one(tmp_path, monkeypatch, fresh_tables):
    (tmp_path / "necromunda").mkdir()
    (tmp_path / "necromunda" / "to_hit_7plus.yaml").write_text(yaml.safe_dump({7: 5, 8: 6}))
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    juve = GANGER.edit(BS=2)
    request = shot(attacker=juve, circumstances={"cover": True})  # 5+, cover -2: 7+
    result = SYSTEM.resolve_attack(request, EnteredDice([6, 4, 3]))  # 6, 4: a miss; ammo 3
    assert result.hits == 0  # the GM's chart: 7 needs a 6 then 5+
    assert necromunda_odds(request).hit == Fraction(1, 6) * Fraction(2, 6)
    eight = shot(attacker=juve.edit(BS=1), circumstances={"cover": True})  # 8+: a 6 then 6
    assert necromunda_odds(eight).hit == Fraction(1, 36)
    nine = shot(attacker=juve.edit(BS=1), circumstances={"cover": True, "appearing": True})
    assert necromunda_odds(nine).hit == 0  # 9+ is not on the GM's chart: impossible
    assert SYSTEM.resolve_attack(nine, EnteredDice([6, 4])).hits == 0  # a 6 for its ammo roll


def test_a_broken_chart_is_refused(tmp_path, monkeypatch, fresh_tables):
    (tmp_path / "necromunda").mkdir()
    (tmp_path / "necromunda" / "to_wound.yaml").write_text(yaml.safe_dump({0: 7}))
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    with pytest.raises(RulesError, match=r"to_wound.yaml, row 0: 7 is not a D6 score"):
        to_wound_chart()
