"""Typed conditions through the encounter (issue 22): the permits and the resolvers read one
mapping (WFRP 2e, Necromunda); the rounds of a condition tick when its game declares, in one
place; Next passes over the declared fallen; a name in words is a note, and the GM is told so;
a log written before replays to the same state."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice
from gmkit.encounter import Condition, Encounter
from gmkit.encounter._log import EventLog
from gmkit.encounter._permits import restrictions
from gmkit.errors import RulesError
from gmkit.games import game as find_game
from gmkit.sheets.base import Sheet
from gmkit.systems._conditions import book
from gmkit.systems.base import Effect

SheetFactory = Callable[..., Sheet]
SCAVVIES = "The Sump Scavvies"


def wfrp2_fight(sheet: SheetFactory) -> Encounter:
    fight = Encounter("wfrp2")
    for name in ("Elsa Wendt", "Ungor Snitch"):
        fight.add(sheet("wfrp2", name))
    fight.roll_initiative(EnteredDice([9, 1]))
    fight.start()
    assert fight.state.current is not None
    assert fight.state.current.id == "elsa-wendt"
    return fight


def test_a_stunned_wfrp2_fighter_the_permits_and_the_resolver_agree(sheet: SheetFactory) -> None:
    fight = wfrp2_fight(sheet)
    fight.add_condition("elsa-wendt", "stunned", rounds=1)
    said = (
        "Elsa Wendt is stunned: no action of any kind, not even a free one, and no parry or "
        "dodge (002)"
    )
    # the permits: nothing, free actions included, and no reaction
    for kind in ("half", "full", "free"):
        assert str(fight.may("elsa-wendt", kind).why) == said
    assert said in str(fight.may_react("elsa-wendt", "dodge").why)
    # the resolver refuses the attack with the same reason, before any die
    source = EnteredDice([10, 5])
    with pytest.raises(RulesError) as caught:
        fight.try_attack("elsa-wendt", "Bow", "ungor-snitch", source)
    assert str(caught.value) == said
    assert source.history == []
    # one mapping: what the rules of the turn give is the game's declared book's
    held = fight.combatant("elsa-wendt")
    assert restrictions(fight.state, held) == book("wfrp2").restrictions(held.conditions)
    assert find_game("wfrp2").acting.restrictions(["stunned"]) == (
        book("wfrp2").kinds["stunned"].restrictions
    )


def test_a_wfrp2_defensive_stance_refuses_the_attack_in_both(sheet: SheetFactory) -> None:
    fight = wfrp2_fight(sheet)
    fight.add_condition("elsa-wendt", "defensive_stance", rounds=1)
    said = "Elsa Wendt is in a defensive stance: no attack this round (002)"
    assert str(fight.may_take("elsa-wendt", "standard_attack").why) == said
    assert fight.may_do("elsa-wendt", "aim").allowed  # its other actions stay open
    with pytest.raises(RulesError, match=f"^{re.escape(said)}$"):
        fight.try_attack("elsa-wendt", "Bow", "ungor-snitch", EnteredDice([10, 5]))


@pytest.fixture
def gangs() -> Encounter:
    """The demo gangs, the Scavvies in their shooting phase."""
    roster = next(r for r in demo_campaign().rosters if r.game == "necromunda")
    scavvies = [s for s in roster.sheets if s.side == SCAVVIES]
    brethren = [s for s in roster.sheets if s.side != SCAVVIES]
    fight = Encounter("necromunda")
    fight.add_many([*scavvies, *brethren])
    fight.start()
    fight.next_turn()  # shooting
    return fight


def _shot_refusals(fight: Encounter) -> str:
    try:
        fight.try_attack("rotgut", "stub gun", "mordecai", EnteredDice([5, 3]), distance=6)
    except RulesError as error:
        return str(error)
    return ""


@pytest.mark.parametrize(
    ("names", "permit", "resolver"),
    [
        (["pinned"], "Rotgut is pinned: no move, no shot this turn", "pinned: a pinned"),
        (["down"], 'Rotgut is down: it may only crawl 2"', "down: a down fighter may only crawl"),
        (["pinned", "down"], "Rotgut is down:", "down: a down fighter may only crawl"),
        (["run"], "Rotgut is running this turn: no shooting", "moved: no shooting"),
        (["failed_charge"], "short of its charge", "moved: no shooting"),
        (["engaged"], "engaged in close combat: no shot", "engaged: a fighter in close combat"),
        (["hidden"], "", ""),
        (["flesh wound", "behind the barrels"], "", ""),
    ],
)
def test_necromunda_the_permits_and_the_shot_read_one_mapping(
    gangs: Encounter, names: list[str], permit: str, resolver: str
) -> None:
    for name in names:
        gangs.add_condition("rotgut", name)
    shoot = gangs.may("rotgut", "shoot")
    refusal = _shot_refusals(gangs)
    assert shoot.allowed == (refusal == "") == (permit == "")
    assert permit in str(shoot.why or "")
    assert resolver in refusal
    if names == ["pinned", "down"]:  # the down reads first: the pin binds no more
        assert "pinned" not in str(shoot.why)
        assert "pinned" not in refusal


def test_the_rounds_tick_when_the_game_declares_them(sheet: SheetFactory) -> None:
    fight = Encounter("dark_heresy")
    tull, ban = (fight.add(sheet("dark_heresy", n)) for n in ("Sergeant Varro Tull", "Cultist Ban"))
    fight.set_initiative(tull, 30)
    fight.set_initiative(ban, 10)
    fight.start()
    # stunned in its own turn (a 40k stun counts down at the end of the bearer's turn), a
    # surprise ends with the round, an Aim at the start of the turn; a note by the encounter's rule
    fight.apply_effects(
        [
            Effect("condition", tull, condition="stunned", rounds=1),
            Effect("condition", tull, condition="surprised", rounds=1),
            Effect("condition", tull, condition="aimed: half", rounds=2),
            Effect("condition", tull, condition="stunned: by the grenade", rounds=1),
        ]
    )
    assert dict(fight.combatant(tull).conditions) == {
        "stunned": Condition("stunned", 1, "end_of_turn"),
        "surprised": Condition("surprised", 1, "end_of_round"),
        "aimed: half": Condition("aimed: half", 2, "start_of_turn"),
        "stunned: by the grenade": Condition("stunned: by the grenade", 1, "start_of_turn"),
    }
    fight.next_turn()  # Tull's turn ends: the stun goes, the surprise stays to the round's end
    assert set(fight.combatant(tull).conditions) == {
        "surprised",
        "aimed: half",
        "stunned: by the grenade",
    }
    fight.next_turn()  # the round ends, Tull's turn begins: the note and the Aim count down
    assert set(fight.combatant(tull).conditions) == {"aimed: half"}
    assert fight.combatant(tull).conditions["aimed: half"].rounds == 1


def test_next_passes_over_the_declared_fallen_only(sheet: SheetFactory) -> None:
    fight = Encounter("deathwatch")
    ids = [fight.add(sheet("deathwatch", n)) for n in ("Brother Castor", "Brother Ilarion")]
    ids.append(fight.add(sheet("deathwatch", "Nob Gritfang")))
    for ident, score in zip(ids, (30, 20, 10), strict=True):
        fight.set_initiative(ident, score)
    fight.start()
    fight.add_condition(ids[1], "dead")
    fight.next_turn()  # Ilarion is dead: passed over
    assert fight.state.current is not None
    assert fight.state.current.id == ids[2]
    fight.remove_condition(ids[1], "dead")
    fight.add_condition(ids[1], "unconscious")  # out of the fight, but its turn is played
    fight.next_turn()
    fight.next_turn()
    assert fight.state.current is not None
    assert fight.state.current.id == ids[1]
    assert "unconscious" in book("deathwatch").out  # never a default target (forms.offered)


def test_a_condition_in_words_is_a_note_and_the_gm_is_told(sheet: SheetFactory) -> None:
    fight = wfrp2_fight(sheet)
    told = fight.add_condition("elsa-wendt", "behind the pews")
    assert told is not None
    assert str(told) == (
        "'behind the pews' is no condition of this game's rules: a note, no rule reads it"
    )
    assert fight.add_condition("elsa-wendt", "aiming") is None
    assert "behind the pews" in fight.combatant("elsa-wendt").conditions  # on the chips
    assert fight.may("elsa-wendt", "full").allowed  # and no rule reads it


def _replayed(game: str, events: tuple[dict[str, Any], ...]) -> Any:
    log = EventLog(game)
    for event in events:
        log.replay(dict(event))
    return log.state


def test_a_log_written_before_replays_to_the_same_state(sheet: SheetFactory) -> None:
    fight = Encounter("dark_heresy")
    tull = fight.add(sheet("dark_heresy", "Sergeant Varro Tull"))
    ban = fight.add(sheet("dark_heresy", "Cultist Ban"))
    fight.set_initiative(tull, 30)
    fight.set_initiative(ban, 10)
    fight.start()
    fight.add_condition(tull, "aimed: at the door")  # the GM's words, kept as typed
    fight.apply_effects([Effect("jam", tull, weapon="Lasgun")])
    fight.apply_effects([Effect("condition", ban, condition="surprised", rounds=1)])
    events = list(fight.events)
    # an event as written before the declarations: the surprise ticking at the end of the
    # bearer's turn (the encounter's rule of then), its strings as they were
    old = dict(events[-1])
    old["generic"] = [{**old["generic"][0], "ticks": "end_of_turn"}]
    events[-1] = old
    state = _replayed("dark_heresy", tuple(events))
    assert dict(state.combatants[ban].conditions) == {
        "surprised": Condition("surprised", 1, "end_of_turn")  # as recorded, not as declared
    }
    assert set(state.combatants[tull].conditions) == {"aimed: at the door", "jammed: Lasgun"}
    # the log as written now replays to the encounter's own state
    assert _replayed("dark_heresy", fight.events) == fight.state
