"""Property test: the panels and the situation say the same thing in every state a random fight
of each game reaches (issue 22: one answer to "who acts now, what may each do").

Random command sequences (start, next and previous turn, spends of each action type, the
conditions each game's rules of the turn read, delay, remove and revive, undo and redo) are
played on fresh encounters of the demo rosters' sheets (test_properties' commands), with the
panels a dashboard keeps open watching (an attack form following the actor, the turn pane's
action form, the tracker). In every state:

1. the attack form names the situation's actor as its attacker whenever that actor has a
   weapon (initiative games: the current combatant); so does one opened in that state;
2. the action form's actor is the situation's actor (when there is one); so is a new one's;
3. the tracker's current row is the situation's actor's (none when there is none);
4. what the attack form offers its attacker the situation allows, and each budget refusal it
   shows is the situation's one reason (``form.budget``);
5. the situation is the one worked out from a replay of the encounter's events alone.

The situation never names a combatant removed from the fight. Two disagreements this test
found are fixed, each checked by a test below (the forms follow the situation's actor whenever
it changes; a removed current combatant leaves nobody acting until the turn passes): a removed
actor's revival, and a sides game's actor going back to an earlier fighter (his shot undone,
his pinning removed); the property skips no state for them. One case is left, pinned by a
strict xfail: WFB's shooting phase, the shooter removed and the next of his side unarmed, the
attack form goes to the first combatant present, an enemy (check 1 leaves an unarmed actor out).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmkit._forms import AttackForm
from gmkit._forms.action import ActionForm
from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.encounter._log import EventLog
from gmkit.encounter._situation import Situation, budget_left, situation_of
from gmkit.errors import RulesError
from gmkit.messages import Message
from gmkit.systems import _choices as choices
from gmkit.widgets import InitiativeTracker

from .test_properties import Table, add, execute, opening

GAMES = ("necromunda", "dark_heresy", "deathwatch", "wfrp2", "wfb6")
# the conditions each game's rules of the turn read (restrictions, fallen), and one they do not
CONDITIONS = {
    "necromunda": ("pinned", "down", "run", "charging", "failed_charge", "out of action"),
    "dark_heresy": ("stunned", "pinned", "grappled", "broken", "surprised", "dead", "on fire"),
    "deathwatch": ("stunned", "pinned", "grappled", "broken", "unconscious", "dead", "on fire"),
    "wfrp2": ("stunned", "helpless", "defensive_stance", "dead", "on fire"),
    "wfb6": ("dead", "fleeing"),
}

# a combatant by position in the encounter (past the end: nobody); -1: whoever acts now (a
# sides game: the side's first); -4: the first removed
who = st.integers(-1, 6)
seed = st.integers(0, 2**16)
command = st.one_of(
    st.tuples(st.just("start"), seed, st.lists(who, max_size=1)),
    st.tuples(st.sampled_from(["next_turn", "next_turn", "previous_turn", "undo", "redo"])),
    st.tuples(st.just("spend"), who, st.integers(0, 7), st.just(None)),
    st.tuples(st.just("spend"), st.just(-1), st.integers(0, 7), st.just(None)),
    st.tuples(st.just("add_condition"), who, st.integers(0, 6), st.sampled_from([None, 1])),
    st.tuples(st.just("remove_condition"), who, st.integers(0, 6)),
    st.tuples(st.sampled_from(["delay", "remove", "revive"]), who),
    st.tuples(st.sampled_from(["delay", "remove"]), st.just(-1)),
    st.tuples(st.just("revive"), st.just(-4)),
    st.tuples(st.just("undo")),  # a shot, a removal, a pinning taken back
)
script = st.tuples(
    st.lists(add, min_size=2, max_size=5),
    st.sampled_from([True, True, True, False]),  # roll initiative and start after the adds
    seed,
    st.lists(command, max_size=12),
)


def step_of(game: str, step: tuple[Any, ...]) -> tuple[Any, ...]:
    """``step`` as test_properties' ``execute`` takes it (a condition of ``game`` by index)."""
    kind, names = step[0], CONDITIONS[game]
    if kind == "add_condition":
        return (kind, step[1], names[step[2] % len(names)], step[3], "end_of_round")
    if kind == "remove_condition":
        return (kind, step[1], names[step[2] % len(names)])
    return step


class Panels:
    """The panels a dashboard keeps open on the fight, following it."""

    def __init__(self, fight: Encounter) -> None:
        self.attack = AttackForm(fight, follow_actor=True)
        self.action = ActionForm(fight)
        self.tracker = InitiativeTracker(fight)

    def close(self) -> None:
        self.attack.close()
        self.action.close()
        self.tracker.close()


def armed(fight: Encounter, ident: str) -> bool:
    return bool(choices.weapons(fight.game, fight.state.combatants[ident].sheet))


def check_attacker(fight: Encounter, situation: Situation, form: AttackForm) -> None:
    """1: the form attacks with the situation's actor (when armed)."""
    actor = situation.actor
    current = fight.state.current
    if current is not None:  # an initiative game: the current combatant (none while removed)
        assert actor == (None if current.removed else current.id)
    if actor is not None and armed(fight, actor):
        assert form.attacker == actor


def check_offers(fight: Encounter, situation: Situation, form: AttackForm) -> None:
    """4: what the form offers its attacker, and why not, is the situation's word."""
    if form.attacker not in fight.state.combatants:
        return
    footing = situation.of(form.attacker)
    for choice in form.offered.actions:
        assert footing.attacks[choice.id] is None, (form.attacker, choice.id)
    for action, why in form.offered.not_offered.items():
        if isinstance(why, Message) and why.id == "form.budget":
            expected = Message("form.budget", why=footing.attacks[action])
            assert str(why) == str(expected), (form.attacker, action)
    if form.mode:  # every refusal of the budget or a condition is shown as such
        for action, reason in footing.attacks.items():
            if reason is not None:
                shown = form.offered.not_offered.get(action)
                assert str(shown) == str(Message("form.budget", why=reason)), (
                    form.attacker,
                    action,
                )
    combatant = fight.state.combatants[form.attacker]
    assert dict(footing.budget) == budget_left(fight.structure, fight.state, combatant)


def check_default(fight: Encounter, situation: Situation, form: AttackForm) -> None:
    """1 and 3: a form opened now shows the situation's default attack of its attacker: its
    choices, its very request and preview (worked out once), never a target the rules refuse,
    or no target and the reason."""
    if form.attacker not in fight.state.combatants or fight.state.combatants[form.attacker].removed:
        return
    default = situation.default_attack_of(form.attacker)
    assert (form.weapon, form.mode, form.action) == (default.weapon, default.mode, default.action)
    if not default.action:
        assert default.refusal
        return
    assert form.target == default.target
    if default.target:
        assert default.request is not None
        assert not choices.target_refusal(fight.game, default.request)
        if not default.needs:
            assert form.request is default.request
            assert form.preview is default.preview
    else:
        assert default.refusal
        assert str(form.problem) == str(default.refusal)


def same_situation(replayed: Situation, live: Situation) -> None:
    """5: the situation from the replayed events alone is the live one."""
    for name in ("actor", "phase", "side", "acted", "round", "started", "events", "due"):
        assert getattr(replayed, name) == getattr(live, name), name
    assert dict(replayed.footings) == dict(live.footings)


def check(fight: Encounter, panels: Panels, replay: EventLog) -> None:
    situation = fight.situation
    actor = situation.actor
    if actor is not None:  # someone in the fight; a sides game: of the side in play
        assert not fight.state.combatants[actor].removed
        assert situation.side in (None, fight.state.combatants[actor].side)
    # 1 and 4: the panel kept open, and one opened now
    check_attacker(fight, situation, panels.attack)
    check_offers(fight, situation, panels.attack)
    opened = AttackForm(fight, follow_actor=True)
    try:
        check_attacker(fight, situation, opened)
        check_offers(fight, situation, opened)
        check_default(fight, situation, opened)
    finally:
        opened.close()
    # 2: the turn pane's actor, kept and new
    if actor is not None:
        assert panels.action.actor == actor
    new = ActionForm(fight)
    try:
        if actor is not None:
            assert new.actor == actor
    finally:
        new.close()
    # 3: the tracker's current row
    rows = panels.tracker.rows.items()
    current = [ident for ident, row in rows if "gmkit-current" in row._dom_classes]
    assert current == ([actor] if actor is not None else [])
    # 4b: the players' view names the same actor (or "an enemy acts" while it is hidden; a
    # sides game: the side)
    view = fight.player_view()
    acting = fight.state.combatants[actor] if actor and situation.side is None else None
    assert view["current"] == (acting.name if acting and not acting.hidden else None)
    assert view["hidden_turn"] == bool(acting and acting.hidden)
    seen = [c for c in fight.state.present if not c.hidden]
    assert view["acted"] == [c.name for c in seen if c.id in situation.acted]
    # 5: the same from the events alone (the log read again, as a second reader would)
    for logged in fight.events[len(replay.raw) :]:
        replay.replay(logged)
    assert replay.state == fight.state
    same_situation(situation_of(replay.state), situation)


@pytest.mark.parametrize("game", GAMES)
@settings(
    max_examples=int(__import__("os").environ.get("N", "8")),  # N=50 for a longer search
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(case=script)
def test_the_panels_and_a_replay_say_what_the_situation_says(game, case):
    adds, begin, number, steps = case
    fight = Encounter(game)
    table = Table(fight)
    panels = Panels(fight)
    replay = EventLog(game)
    try:
        check(fight, panels, replay)
        for step in [*opening(table, adds, begin, number), *steps]:
            if fight.structure.kind == "initiative" and step[0] == "start":
                try:  # whoever has no initiative yet rolls it first
                    execute(table, ("roll_initiative", step[1], False, False))
                except RulesError:
                    pass
                else:
                    check(fight, panels, replay)
            try:
                execute(table, step_of(game, step))
            except RulesError:
                continue  # refused: nothing changed
            check(fight, panels, replay)
    finally:
        panels.close()


@pytest.mark.parametrize(
    ("game", "picks", "phase"),
    [
        ("dark_heresy", (0, 1, 5), "any"),
        ("deathwatch", (0, 1, 3), "any"),
        ("wfrp2", (0, 1, 3), "any"),
        ("wfb6", (4, 0), "any"),
        ("necromunda", (0, 5, 1), "shooting"),
        ("wfb6", (0, 4, 5, 2), "shooting"),  # the next of the side is unarmed
    ],
)
def test_removing_the_combatant_whose_turn_it_is(game, picks, phase):
    roster = next(r for r in demo_campaign().rosters if r.game == game)
    fight = Encounter(game)
    panels = Panels(fight)
    try:
        fight.add_many([roster.sheets[pick] for pick in picks])
        if fight.structure.kind == "initiative":
            for place, combatant in enumerate(fight.state.present):
                fight.set_initiative(combatant.id, 20 - place)
        fight.start()
        while phase == "shooting" and not fight.may(fight.situation.actor or "", "shoot").allowed:
            fight.next_turn()
        actor = fight.situation.actor
        assert actor is not None
        for command in (fight.remove, fight.revive):
            command(actor)
            now = fight.situation.actor
            assert (panels.attack.attacker, panels.action.actor) == (now, now) or now is None
    finally:
        panels.close()


@pytest.mark.parametrize(
    ("game", "picks", "back"),
    [
        ("necromunda", (0, 1, 5), "undo"),
        ("necromunda", (0, 1, 5), "pinned"),
        ("wfb6", (4, 5, 0), "undo"),
    ],
)
def test_the_actor_going_back_to_a_fighter_before_the_attackers(game, picks, back):
    roster = next(r for r in demo_campaign().rosters if r.game == game)
    fight = Encounter(game)
    panels = Panels(fight)
    try:
        fight.add_many([roster.sheets[pick] for pick in picks])
        fight.start()
        while not fight.may(fight.situation.actor or "", "shoot").allowed:
            fight.next_turn()  # to the shooting phase of the side first
        first = fight.situation.actor
        assert first is not None
        if back == "undo":
            fight.spend(first, "shoot")
        else:
            fight.add_condition(first, back)
        assert fight.situation.actor != first
        assert panels.attack.attacker == fight.situation.actor  # the next fighter
        if back == "undo":
            fight.undo()
        else:
            fight.remove_condition(first, back)
        assert fight.situation.actor == first
        assert panels.action.actor == first
        assert panels.attack.attacker == first
    finally:
        panels.close()
