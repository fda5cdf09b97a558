"""Property tests: random command sequences in every game, on the demo rosters' sheets.

Refused commands are fine; each must leave the state and the log unchanged. Then:

(a) every accepted command is one event, undo gives exactly the state before it and redo the
    state after it, and undoing everything gives the initial state;
(b) replaying the stored log (``Encounter.open`` on a second connection, and a reader that
    follows with ``refresh``) rebuilds exactly the live state;
(c) the player projection never holds a GM-only value: no hidden combatant's name, no sheet
    notes, no GM note text, no ``notes`` field.

Names and secrets carry a unique ``[n]`` so that one can never be a substring of another.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from gmkit.demo import demo_campaign
from gmkit.dice import SeededDice
from gmkit.encounter import Encounter, EncounterState
from gmkit.errors import RulesError
from gmkit.sheets.base import Sheet
from gmkit.store import CampaignStore
from gmkit.systems.base import Effect
from gmkit.systems.turns import turn_structure

SHEETS: dict[str, tuple[Sheet, ...]] = {
    roster.game: tuple(roster.sheets) for roster in demo_campaign().rosters
}
GAMES = tuple(SHEETS)
CONDITIONS = ("stunned", "on fire", "all_out_attack", "defensive_stance", "pinned")
TICKS = ("start_of_turn", "end_of_turn", "end_of_round", "never", "sometimes")
SETTINGS: tuple[tuple[str, Any], ...] = (
    ("enemy_wounds", "exact"),
    ("enemy_wounds", "band"),
    ("enemy_wounds", "hidden"),
    ("enemy_wounds", "vague"),  # refused
    ("player_sides", "SIDE"),  # the side of a combatant, filled in when run
    ("player_sides", "SIDES"),  # every side, as a tuple (the log keeps a list)
    ("player_sides", []),
    ("house rule", {"cap": 60}),
)

# a combatant by position (past the end: someone not in the fight); -1: whoever acts now;
# -2, -3: the first and second delayed; -4: the first removed
who = st.integers(-4, 9)
seed = st.integers(0, 2**16)
override = st.sampled_from([None, None, "", "GM's ruling"])

add = st.tuples(
    st.just("add"),
    st.integers(0, 20),
    st.booleans(),
    st.sampled_from(["", "", "gang", "mob"]),
    st.one_of(st.none(), st.integers(1, 60)),
    seed,
)
command = st.one_of(
    add,
    st.tuples(st.sampled_from(["remove", "revive", "rename", "reveal", "delay"]), who),
    st.tuples(st.just("rename"), who, st.just(" ")),  # refused: a blank name
    st.tuples(st.just("roll_initiative"), seed, st.booleans(), st.booleans()),
    st.tuples(st.just("set_initiative"), who, st.integers(-5, 60)),
    st.tuples(st.just("start"), seed, st.lists(who, max_size=2)),
    st.tuples(st.sampled_from(["next_turn", "next_turn", "previous_turn", "undo", "redo"])),
    st.tuples(st.just("next_turn")),
    st.tuples(st.just("spend"), who, st.integers(0, 7), override),
    st.tuples(st.just("spend"), st.sampled_from([-1, -2]), st.integers(0, 7), st.none()),
    st.tuples(st.sampled_from(["delay", "delay", "revive"]), st.sampled_from([-1, -4])),
    st.tuples(st.just("delayed_first"), st.just(-2), st.just(-3), seed),
    st.tuples(st.just("react"), who, st.sampled_from(["dodge", "parry", "duck"]), override),
    st.tuples(
        st.just("add_condition"),
        who,
        st.sampled_from(CONDITIONS),
        st.one_of(st.none(), st.integers(0, 3)),
        st.sampled_from(TICKS),
    ),
    st.tuples(st.just("remove_condition"), who, st.sampled_from(CONDITIONS)),
    st.tuples(st.just("delayed_first"), who, who, seed),
    st.tuples(
        st.just("declare_trigger"),
        who,
        st.sampled_from(["overwatch", "ready"]),
        st.one_of(st.none(), st.integers(0, 2)),
    ),
    st.tuples(st.sampled_from(["fire_trigger", "cancel_trigger"]), st.integers(0, 2)),
    st.tuples(st.just("note"), st.booleans()),
    st.tuples(st.just("set"), st.integers(0, len(SETTINGS) - 1)),
    st.tuples(
        st.just("apply_effects"), who, st.sampled_from(["condition", "ammo", "jam", "reaction"])
    ),
)
script = st.tuples(
    st.sampled_from(GAMES),
    st.lists(add, min_size=1, max_size=5),
    st.sampled_from([True, True, True, False]),  # roll initiative and start after the adds
    seed,
    st.lists(command, min_size=5, max_size=30),
)


@dataclass
class Table:
    """The fight under test and the secrets the players must never see."""

    fight: Encounter
    count: int = 0
    secrets: list[str] = field(default_factory=list)

    def tag(self, text: str) -> str:
        self.count += 1
        return f"{text} [{self.count}]"

    def ident(self, position: int) -> str:
        state = self.fight.state
        if position < 0:
            acting = [c for c in state.present if c.side == state.current_side]
            delayed = [c for c in state.present if c.delayed]
            removed = [c for c in state.combatants.values() if c.removed]
            found = {
                -1: [state.current] if state.current else acting,
                -2: delayed[:1],
                -3: delayed[1:2],
                -4: removed[:1],
            }[position]
            return found[0].id if found else "nobody"
        ids = list(state.combatants)
        position %= len(ids) + 1
        return ids[position] if position < len(ids) else "nobody"


def execute(table: Table, step: tuple[Any, ...]) -> None:
    fight, kind, args = table.fight, step[0], step[1:]
    structure = turn_structure(fight.game)
    match kind:
        case "add":
            index, hidden, group, initiative, number = args
            base = SHEETS[fight.game][index % len(SHEETS[fight.game])]
            secret = table.tag("Sheet secret")
            table.secrets.append(secret)
            sheet = base.edit(name=table.tag(base.name), notes=secret)
            fight.add(
                sheet, hidden=hidden, group=group, initiative=initiative, source=SeededDice(number)
            )
        case "remove" | "revive" | "reveal" | "delay":
            getattr(fight, kind)(table.ident(args[0]))
        case "rename":
            name = args[1] if len(args) > 1 else table.tag("Renamed")
            fight.rename(table.ident(args[0]), name)
        case "roll_initiative":
            number, by_group, some = args
            ids = list(fight.state.combatants)[:2] if some else None
            fight.roll_initiative(SeededDice(number), ids=ids, by_group=by_group)
        case "set_initiative":
            fight.set_initiative(table.ident(args[0]), args[1])
        case "start":
            fight.start(SeededDice(args[0]), surprised=[table.ident(p) for p in args[1]])
        case "next_turn" | "previous_turn" | "undo" | "redo":
            getattr(fight, kind)()
        case "spend":
            types = [*structure.action_costs, "sprint"]
            fight.spend(table.ident(args[0]), types[args[1] % len(types)], override=args[2])
        case "react":
            fight.react(table.ident(args[0]), args[1], override=args[2])
        case "add_condition":
            position, name, rounds, ticks = args
            fight.add_condition(
                table.ident(position), name, rounds=rounds, ticks=ticks, reminder=f"mind {name}"
            )
        case "remove_condition":
            fight.remove_condition(table.ident(args[0]), args[1])
        case "delayed_first":
            fight.delayed_first(table.ident(args[0]), table.ident(args[1]), SeededDice(args[2]))
        case "declare_trigger":
            fight.declare_trigger(table.ident(args[0]), args[1], rounds=args[2])
        case "fire_trigger" | "cancel_trigger":
            getattr(fight, kind)(args[0])
        case "note":
            text = table.tag("GM note" if args[0] else "Table note")
            if args[0]:
                table.secrets.append(text)
            fight.note(text, gm_only=args[0])
        case "set":
            key, value = SETTINGS[args[0]]
            sides = sorted({c.side for c in fight.state.combatants.values()})
            if value == "SIDE":
                value = sides[:1]
            elif value == "SIDES":
                value = tuple(sides)
            fight.set(key, value)
        case "apply_effects":
            target = table.ident(args[0])
            effect = Effect(args[1], target, amount=1, weapon="gun", condition="prone", rounds=1)
            fight.apply_effects([effect])
        case _:
            raise AssertionError(f"unknown step {kind}")


def check_view(table: Table) -> None:
    """(c): nothing the GM keeps from the players is in the player projection."""
    view = table.fight.player_view()
    text = json.dumps(view, ensure_ascii=False)
    for combatant in table.fight.state.combatants.values():
        if combatant.hidden:
            assert combatant.name not in text
    for secret in table.secrets:
        assert secret not in text
    for entry in view["combatants"]:
        assert "notes" not in entry["sheet"]


def check_rolls(fight: Encounter) -> None:
    """Every roll in the log says it was digital (the dice here are all SeededDice); the log
    and summary frames have a row per effective event and per combatant."""
    for logged in fight.effective_events:
        rolls = list(logged.get("rolls", []))
        rolls += [e["roll"] for e in logged.get("entries", []) if e.get("roll")]
        assert all(roll["physical"] is False for roll in rolls)
    log = fight.log_frame()
    assert len(log) == len(fight.effective_events)
    assert set(log["dice"]) <= {"", "digital"}
    assert len(fight.summary_frame()) == len(fight.state.combatants)


def play(
    table: Table, steps: list[tuple[Any, ...]], *, each: Callable[[Table], None] | None = None
) -> int:
    """Run ``steps``; a refused one must change nothing. Returns how many were accepted."""
    accepted = 0
    for step in steps:
        fight = table.fight
        before, events = fight.state, fight.events
        try:
            execute(table, step)
        except RulesError:
            assert fight.state is before
            assert fight.events == events
            event(f"refused: {step[0]}")
            continue
        event(f"accepted: {step[0]}")
        accepted += 1
        assert len(fight.events) == len(events) + 1  # one command, one event
        if each is not None and step[0] not in ("undo", "redo"):
            each(table)
            after = fight.state
            assert fight.undo() == before
            assert fight.redo() == after
        check_view(table)
    return accepted


def opening(table: Table, adds: list[tuple[Any, ...]], begin: bool, number: int) -> list:
    steps: list[tuple[Any, ...]] = list(adds)
    if begin and turn_structure(table.fight.game).kind == "initiative":
        steps.append(("roll_initiative", number, False, False))
    if begin:
        steps.append(("start", number, []))
    return steps


@settings(
    derandomize=True,
    max_examples=800,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(script)
def test_random_commands_undo_to_the_initial_state(case):
    game, adds, begin, number, steps = case
    table = Table(Encounter(game))
    play(table, [*opening(table, adds, begin, number), *steps], each=lambda _: None)
    check_rolls(table.fight)
    while table.fight.effective_events:  # the preparation too (Encounter.undo allows it)
        table.fight.undo()
        check_view(table)
    assert table.fight.state == EncounterState(game)
    assert table.fight.effective_events == ()


@settings(
    derandomize=True,
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(script)
def test_random_commands_replay_from_the_store_exactly(tmp_path_factory, case):
    game, adds, begin, number, steps = case
    path = tmp_path_factory.mktemp("replay") / "campaign.gmkit"
    with CampaignStore(path, create=True) as store, CampaignStore(path) as second:
        table = Table(Encounter.create(store, "fight", game))
        reader = Encounter.open(second, "fight")
        half = len(steps) // 2
        play(table, opening(table, adds, begin, number) + steps[:half])
        reader.refresh()
        assert reader.state == table.fight.state
        play(table, steps[half:])
        live = table.fight
        assert [e.payload for e in store.events(live.encounter_id)] == list(live.events)
        with CampaignStore(path, readonly=True) as third:
            opened = Encounter.open(third, "fight")
            assert opened.state == live.state
            assert opened.events == live.events
            assert opened.effective_events == live.effective_events
        reader.refresh()
        assert reader.state == live.state
        assert reader.player_view() == live.player_view()
