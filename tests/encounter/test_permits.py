"""One rule for "may this combatant act now": the encounter's commands, its permits and the
attack form give the same answer in every state a random fight reaches."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmkit._forms import AttackForm
from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.errors import RulesError
from gmkit.systems import _choices as choices

COMMANDS = st.lists(
    st.tuples(
        st.sampled_from(["next", "spend", "delay", "previous", "undo", "surprise"]),
        st.integers(0, 7),
        st.sampled_from(["half", "full", "free", "move", "shoot", "run"]),
    ),
    max_size=10,
)


def fresh(game: str) -> Encounter:
    roster = next(r for r in demo_campaign().rosters if r.game == game)
    encounter = Encounter(game)
    encounter.add_many(roster.sheets[:5])
    return encounter


def play(encounter: Encounter, commands: list[tuple[str, int, str]]) -> None:
    present = encounter.state.present
    for command, who, kind in commands:
        ident = present[who % len(present)].id
        try:
            if command == "next":
                encounter.next_turn()
            elif command == "previous":
                encounter.previous_turn()
            elif command == "spend":
                encounter.spend(ident, kind)
            elif command == "delay":
                encounter.delay(ident)
            elif command == "undo" and encounter.can_undo:
                encounter.undo()
            elif command == "surprise" and not encounter.state.started:
                encounter.start(surprised=[ident]) if not _initiative(encounter) else None
        except RulesError:
            pass  # a refused command changes nothing


def _initiative(encounter: Encounter) -> bool:
    return encounter.structure.kind == "initiative"


def start(encounter: Encounter, surprised: str | None) -> None:
    if _initiative(encounter):
        for place, combatant in enumerate(encounter.state.present):
            encounter.set_initiative(combatant.id, 20 - place)
    encounter.start(surprised=[surprised] if surprised else [])


def same_answers(encounter: Encounter) -> None:
    structure = encounter.structure
    for combatant in encounter.state.present:
        for kind in structure.action_costs:
            permit = encounter.may(combatant.id, kind)
            before = encounter.state
            try:
                encounter.spend(combatant.id, kind)
            except RulesError:
                assert not permit.allowed or not encounter.state.started, (combatant.name, kind)
            else:
                assert permit.allowed, (combatant.name, kind, permit.why)
                encounter.undo()
            assert encounter.state.combatants == before.combatants  # as it was
    form = AttackForm(encounter)
    try:
        for combatant in encounter.state.present:
            form.select_attacker(combatant.id)
            offered = {choice.id for choice in form.offered.actions}
            for action in [c.id for c in choices.actions(encounter.game)]:
                refused = form.offered.not_offered.get(action)
                permit = encounter.may_take(combatant.id, action)
                if action in offered:
                    assert permit.allowed, (combatant.name, action, permit.why)
                elif refused is not None and str(refused).startswith("budget"):
                    assert not permit.allowed  # the budget's refusal is the permit's
                    # its one reason: the first the rules weigh (the situation's)
                    assert str(refused) == f"budget: {permit.reasons[0]}"
                    assert (
                        encounter.situation.of(combatant.id).attacks[action] == (permit.reasons[0])
                    )
    finally:
        form.close()


@pytest.mark.parametrize("game", ["dark_heresy", "wfrp2", "necromunda"])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(commands=COMMANDS, surprised=st.booleans())
def test_commands_permits_and_the_form_agree(game, commands, surprised):
    encounter = fresh(game)
    start(encounter, encounter.state.present[-1].id if surprised else None)
    play(encounter, commands)
    same_answers(encounter)


def test_a_delayed_combatant_may_take_its_half_action_out_of_turn_and_nothing_more():
    encounter = fresh("dark_heresy")
    start(encounter, None)
    first = encounter.state.current
    assert first is not None
    encounter.delay(first.id)
    encounter.next_turn()
    assert encounter.may(first.id, "half").allowed
    full = encounter.may(first.id, "full")
    assert not full.allowed
    assert "delayed action is a half action, not a full action" in str(full.why)
    with pytest.raises(RulesError, match="delayed action is a half action"):
        encounter.spend(first.id, "full")
    encounter.spend(first.id, "half")
    assert not encounter.state.combatants[first.id].delayed
