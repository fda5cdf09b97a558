"""Undo and Redo at the table, through the Encounter: one unit both ways (an attack and the
action it spent are one event: one undo takes both back, one redo puts both back, exactly),
labelled with what they take back (``undo_text`` / ``redo_text``, from the event's own log
line, in English and Spanish), and not live before the GM did anything at the table (the
preparation: combatants added, settings and notes). Also the "acted" ids the tracker marks."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gmkit.dice import EnteredDice, SeededDice
from gmkit.encounter import Encounter
from gmkit.encounter._core import PREPARATION
from gmkit.messages import render


def prepared(game: str, demo_sheets) -> Encounter:
    """The demo's fight as prep leaves it: the roster added, a setting and the set-up note."""
    fight = Encounter(game)
    fight.add_many(demo_sheets[game])
    fight.set("enemy_wounds", "band")
    fight.note("The cult gathers in the chapel")
    return fight


def begun(game: str, demo_sheets) -> Encounter:
    fight = prepared(game, demo_sheets)
    if game in ("necromunda", "wfb6"):
        fight.start()
    else:
        fight.roll_initiative(SeededDice(11))
        fight.start(SeededDice(12))
    return fight


def first_of(fight: Encounter, side: str) -> str:
    return next(c.id for c in fight.state.present if c.side == side)


# each game's attack by whoever may act now, as the table makes it (its action spent with it)
ATTACKS: dict[str, Callable[[Encounter], object]] = {
    "dark_heresy": lambda f: f.attack(
        f.state.current.id, f.state.current.sheet.weapons[0].name, "cultist-ban",
        SeededDice(3), distance=10, spend=True,
    ),
    "deathwatch": lambda f: f.attack(
        f.state.current.id, f.state.current.sheet.weapons[0].name, "nob-gritfang",
        SeededDice(3), distance=10, spend=True,
    ),
    "wfrp2": lambda f: f.attack(
        f.state.current.id, f.state.current.sheet.weapons[0].name,
        next(c.id for c in f.state.present if c.side != f.state.current.side),
        SeededDice(3), distance=10, spend=True,
    ),
}  # fmt: skip


def attack_now(game: str, fight: Encounter) -> None:
    if game in ATTACKS:
        ATTACKS[game](fight)
    elif game == "necromunda":  # the shooting phase: Mordecai's lasgun at Rotgut
        fight.next_turn()
        fight.attack("mordecai", "lasgun", "rotgut", EnteredDice([4, 5, 3]), distance=10,
                     spend=True)  # fmt: skip
    else:  # WFB: the shooting phase of the side in play, its captain's handgun at an archer
        fight.next_turn()
        fight.next_turn()
        assert fight.state.current_side == "Empire"
        fight.attack("captain-ottilie-hals", "handgun", "night-goblin-archer",
                     EnteredDice([6, 6]), distance=10, spend=True)  # fmt: skip


GAMES = ["dark_heresy", "deathwatch", "wfrp2", "necromunda", "wfb6"]


@pytest.mark.parametrize("game", GAMES)
def test_an_attack_with_its_action_is_one_unit_both_ways(game, demo_sheets):
    fight = begun(game, demo_sheets)
    before, effective, raw = fight.state, fight.effective_events, len(fight.events)
    attack_now(game, fight)
    events = fight.effective_events[len(effective) :]
    if game in ("necromunda", "wfb6"):  # the phase change, then the attack
        assert [e["kind"] for e in events][-1] == "attack"
        before = fight._log.states[-2]
        effective = fight.effective_events[:-1]
    attack = fight.effective_events[-1]
    assert attack["kind"] == "attack"
    assert attack["spent"]["id"] == attack["attacker"]  # the action is in the same event
    after = fight.state
    who = after.combatants[attack["attacker"]]
    assert who.spent != before.combatants[attack["attacker"]].spent
    raw = len(fight.events)
    target = after.combatants[attack["target"]].name
    said = f"{who.name} attacks {target}: {attack['weapon']}"
    assert render(fight.undo_text, "en") == f"Undo: {said}"

    fight.undo()  # one undo: the attack and its action
    assert render(fight.redo_text, "en") == f"Redo: {said}"
    assert fight.state == before
    assert fight.effective_events == effective
    assert fight.state.combatants[attack["attacker"]].spent == before.combatants[who.id].spent
    fight.redo()  # one redo: both back, exactly the state the undo took
    assert fight.state is after
    assert fight.effective_events[-1] == attack
    assert [e["kind"] for e in fight.events[raw:]] == ["undo", "redo"]
    assert not fight.can_redo


def test_undo_and_redo_say_what_they_take_back(demo_sheets):
    fight = begun("deathwatch", demo_sheets)
    assert fight.redo_text is None
    assert render(fight.undo_text, "en") == "Undo: The fight begins; order: " + ", ".join(
        fight.state.combatants[i].name for i in fight.state.order
    )
    actor = fight.state.current
    fight.attack(actor.id, "Astartes Bolt Pistol", "ork-boyz-mob", EnteredDice([95]),
                 distance=10, spend=True)  # fmt: skip
    line = f"{actor.name} attacks Ork Boyz mob: Astartes Bolt Pistol"  # who, whom, with what
    assert render(fight.undo_text, "en") == f"Undo: {line}"
    assert render(fight.undo_text, "es") == (
        f"Deshacer: {actor.name} ataca a Ork Boyz mob: Pistola bólter Astartes"
    )
    fight.undo()
    assert render(fight.redo_text, "en") == f"Redo: {line}"
    assert (
        render(fight.redo_text, "es")
        == f"Rehacer: {actor.name} ataca a Ork Boyz mob: Pistola bólter Astartes"
    )
    assert render(fight.undo_text, "en").startswith("Undo: The fight begins")
    fight.redo()
    assert fight.redo_text is None
    assert render(fight.undo_text, "en") == f"Undo: {line}"


def test_a_turn_change_is_named_with_the_turn_it_began(demo_sheets):
    fight = begun("dark_heresy", demo_sheets)
    fight.next_turn()
    now = fight.state.current
    assert render(fight.undo_text, "en") == f"Undo: Turn: round 1, {now.name}"
    fight.undo()
    assert render(fight.redo_text, "en") == f"Redo: Turn: round 1, {now.name}"


@pytest.mark.parametrize("game", GAMES)
def test_the_preparation_is_not_undoable_from_the_table(game, demo_sheets):
    fight = prepared(game, demo_sheets)
    assert {e["kind"] for e in fight.effective_events} <= set(PREPARATION)
    assert not fight.can_undo
    assert fight.undo_text is None
    if game in ("necromunda", "wfb6"):
        fight.start()
        assert render(fight.undo_text, "en").startswith("Undo: The fight begins")
    else:
        fight.roll_initiative(SeededDice(1))  # the first table command: Undo takes it back
        assert render(fight.undo_text, "en").startswith("Undo: Initiative rolled: ")
    assert fight.can_undo
    fight.undo()
    assert not fight.can_undo
    assert fight.can_redo


def test_after_the_first_table_command_a_note_or_an_added_combatant_is_undoable(demo_sheets):
    fight = Encounter("dark_heresy")
    fight.add_many(demo_sheets["dark_heresy"][:2])
    fight.set_initiative("ilse-marr", 12)  # a table command
    fight.note("the lights go out")
    assert render(fight.undo_text, "en") == "Undo: the lights go out"
    fight.undo()
    fight.add(demo_sheets["dark_heresy"][2])
    assert fight.can_undo
    fight.undo()
    fight.undo()  # the typed initiative
    assert not fight.can_undo
    fight.undo()  # a prep tool may still take back the preparation
    assert len(fight.state.present) == 1


# --- who has acted (the tracker's mark) ---------------------------------------------------


def test_acted_in_an_initiative_game_is_whose_turn_this_round_is_over(demo_sheets):
    fight = begun("dark_heresy", demo_sheets)
    order = fight.state.order
    assert fight.acted == frozenset()
    fight.next_turn()
    assert fight.acted == {order[0]}
    current = fight.state.current.id
    fight.spend(current, "full")  # all the turn's actions: done before Next
    assert fight.acted == {order[0], current}
    fight.next_turn()
    fight.delay(fight.state.current.id)  # waiting: not acted
    assert fight.acted == set(order[:2])
    fight.undo()
    fight.undo()
    fight.undo()
    assert fight.acted == {order[0]}


@pytest.mark.parametrize(
    ("game", "phase_pools"),
    [("necromunda", ["move", "shoot"]), ("wfb6", ["move", "shoot"])],
)
def test_acted_in_a_sides_game_is_who_spent_in_this_phase(game, phase_pools, demo_sheets):
    fight = begun(game, demo_sheets)
    side, other = fight.state.sides
    first = first_of(fight, side)
    assert fight.acted == frozenset()
    fight.spend(first, "move", override="moved on the table")
    assert fight.acted == {first}  # the movement phase: who moved
    fight.next_turn()  # the next phase: the move is not a shot
    assert fight.acted == frozenset()
    while fight.state.current_side == side:
        fight.next_turn()
    assert fight.acted == {c.id for c in fight.state.present if c.side == side}  # turn over
    assert not any(c.side == other for c in fight.state.present if c.id in fight.acted)
