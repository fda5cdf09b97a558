"""Encounter simulation: seeded fights checked against answers computed exactly from the odds.

- One-against-one fights whose result the odds give exactly (a few rounds of shots that either
  slay or miss in WFB 6e, one round in the other games) agree within 4 standard errors.
- Identical sides win equally often (initiative rolled, or the first side drawn).
- The report adds up: the sides' wins and the draws are every fight; a side's combatants are
  all taken out whenever another side wins.
- The same seed gives the same report.
- Against the resolver itself, played out in plain Python: a Necromunda duel over six rounds
  (the tables' state machine: wounds, flesh wounds, down, pinned, recovery) and a Dark Heresy
  round where the first attack spends the target's reaction.
"""

from __future__ import annotations

from math import sqrt
from typing import Any

import pytest

from gmkit.demo import demo_campaign
from gmkit.dice import SeededDice
from gmkit.encounter import Encounter
from gmkit.errors import GmkitError
from gmkit.games import game as find_game
from gmkit.odds import odds
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.sheets._wfb6 import WFB6Character
from gmkit.sheets.base import Sheet
from gmkit.simulate import POLICIES, SimulationReport, simulate
from gmkit.simulate._fighters import options_of
from gmkit.systems import _choices as choices
from gmkit.systems import system
from gmkit.systems._catalogs import catalog
from gmkit.systems.base import AttackRequest
from gmkit.systems.necromunda._injuries import recovery_roll, recovery_table
from gmkit.systems.necromunda._state import FighterState
from gmkit.systems.wfb6._battlefield import Situation, UnitOnTable

GAMES = ("necromunda", "dark_heresy", "deathwatch", "wfrp2", "wfb6")


def needs_odds(game_id: str) -> None:
    """Every game of the seeds has its odds (a missing engine fails the test, never skips it)."""
    assert find_game(game_id).odds is not None


def within(value: float, exact: float, fights: int, *, sigmas: float = 4.0) -> bool:
    """``value`` (a share of ``fights``) is within ``sigmas`` standard errors of ``exact``."""
    error = sqrt(max(exact * (1 - exact), 0.0) / fights)
    return abs(value - exact) <= sigmas * error + 1e-12


def roster(game: str) -> Any:
    return next(r for r in demo_campaign().rosters if r.game == game)


def sheet_named(game: str, name: str) -> Sheet:
    return next(s for s in roster(game).sheets if s.name == name)


def two_sides(first: Sheet, second: Sheet) -> Encounter:
    fight = Encounter(first.game)
    fight.add(first, side="A")
    fight.add(second, side="B")
    return fight


# --- (a) one against one, exactly ---------------------------------------------------------


def bow_model(name: str, side: str, bs: int) -> WFB6Character:
    return WFB6Character.build(
        name=name,
        side=side,
        BS=bs,
        T=3,
        W=1,
        weapons=[{"name": "short bow", "range_cm": 40, "strength": 3}],
    )


def wfb_slay(shooter: WFB6Character, target: WFB6Character) -> float:
    """The chance one shot slays ``target`` (W 1), as the simulation asks for it."""
    distance = find_game("wfb6").simulation.distance
    unit = UnitOnTable.of([target], shooter_distance_cm=distance)
    request = AttackRequest(
        shooter,
        "short bow",
        target,
        distance=distance,
        options={"situation": Situation((unit,), distance_cm=distance)},
    )
    return float(odds(request).p("slain"))


@pytest.mark.parametrize("rounds_limit", [1, 4])
def test_wfb6_duel_of_bows_matches_the_exact_series(rounds_limit):
    needs_odds("wfb6")
    first, second = bow_model("Archer", "A", 4), bow_model("Goblin", "B", 3)
    a, b = wfb_slay(first, second), wfb_slay(second, first)
    assert 0 < b < a < 1
    missed = (1 - a) * (1 - b)  # a round where both miss
    series = sum(missed**k for k in range(rounds_limit))
    exact_a, exact_b, exact_draw = a * series, (1 - a) * b * series, missed**rounds_limit
    # the round the fight ends in: k + 1 with chance missed**k * (1 - missed); the limit if drawn
    exact_rounds = sum((k + 1) * missed**k * (1 - missed) for k in range(rounds_limit))
    exact_rounds += rounds_limit * exact_draw
    fights = 20_000

    report = simulate(
        two_sides(first, second),
        fights,
        seed=11,
        rounds_limit=rounds_limit,
        initiative="encounter",  # side A shoots first in every fight
    )

    assert within(report.wins["A"], exact_a, fights)
    assert within(report.wins["B"], exact_b, fights)
    assert within(report.draw, exact_draw, fights)
    assert abs(report.rounds - exact_rounds) <= 4 * report.rounds_error + 1e-12
    assert report.taken_out == pytest.approx(
        {"Archer": report.wins["B"], "Goblin": report.wins["A"]}
    )


def test_necromunda_one_round_pinned_targets_do_not_shoot_and_down_ones_roll_to_recover():
    needs_odds("necromunda")
    weapons = catalog("necromunda", "weapons")
    first = NecromundaFighter.build(name="Kal", BS=4, weapons=[weapons["lasgun"]])
    second = NecromundaFighter.build(name="Tom", BS=3, weapons=[weapons["autopistol"]])
    distance = find_game("necromunda").simulation.distance
    shot_a = odds(AttackRequest(first, "lasgun", second, distance=distance))
    shot_b = odds(AttackRequest(second, "autopistol", first, distance=distance))
    out_a, out_b = float(shot_a.p("out of action")), float(shot_b.p("out of action"))
    recovery = recovery_table()
    dies = sum(result == "out of action" for result in recovery.values()) / len(recovery)
    # A's shot takes B out, or puts B down and B's recovery roll at the end of its turn
    # takes it out; B shoots back only if A missed: any hit pins B (or worse)
    exact_a = out_a + float(shot_a.states.p("down")) * dies
    exact_b = (1 - float(shot_a.hit)) * out_b
    fights = 20_000

    report = simulate(
        two_sides(first, second), fights, seed=3, rounds_limit=1, initiative="encounter"
    )

    assert 0 < exact_b < exact_a < 1
    assert within(report.wins["A"], exact_a, fights)
    assert within(report.wins["B"], exact_b, fights)
    assert within(report.draw, 1 - exact_a - exact_b, fights)
    assert report.rounds == 1


def hurt(sheet: Sheet, left: int) -> Sheet:
    """``sheet`` with only ``left`` wounds left."""
    if sheet.game == "wfrp2":
        return sheet.edit(wounds_current=left)
    return sheet.edit(damage=sheet.wounds - left)  # type: ignore[attr-defined]


def policy_pick(
    attacker: Sheet, target: Sheet, left: int, *, reactions: bool = True
) -> tuple[AttackRequest, Any]:
    """The policy's attack on ``target`` (with ``left`` wounds left), worked out here from the
    odds alone: the target answers each attack with its reaction of the lowest expected damage
    (none first; none at all when its ``reactions`` are spent), the attacker picks the highest
    expected damage, then the higher chance to take the target out. The request (its
    ``options["reaction"]`` the target's answer) and its odds."""
    game = attacker.game
    best: tuple[tuple[float, float], AttackRequest, Any] | None = None
    for option in options_of(game, attacker):
        request = AttackRequest(
            attacker,
            option.weapon,
            target,
            action=option.action,
            mode=option.mode,
            distance=find_game(game).simulation.distance,
            options={"reaction": None, "target_reactions": {}},
        )
        try:
            answers = [(request, odds(request))]
        except GmkitError:
            continue
        usable = choices.reactions_available(game, request) if reactions else {}
        for reaction in ("dodge", "parry"):
            if usable.get(reaction) == "":
                reacted = request.with_options(reaction=reaction)
                answers.append((reacted, odds(reacted)))
        met = min(answers, key=lambda pair: pair[1].expected_damage)  # the first of the lowest
        past = met[1].damage.chance(lambda lost: lost > left)
        assert past == met[1].p("critically damaged")  # taken out: the odds' first critical
        score = (float(met[1].expected_damage), float(past))
        if best is None or score > best[0]:
            best = (score, *met)
    assert best is not None
    return best[1], best[2]


def policy_take_out(attacker: Sheet, target: Sheet, left: int) -> float:
    """The chance the policy's attack on a fresh target takes it out (damage past ``left``)."""
    _, found = policy_pick(attacker, target, left)
    return float(found.damage.chance(lambda lost: lost > left))


@pytest.mark.parametrize(
    ("game", "first", "second"),
    [
        ("dark_heresy", "Sergeant Varro Tull", "Demagogue Ostrava"),
        ("deathwatch", "Brother Ilarion", "Nob Gritfang"),
        ("wfrp2", "Gunther Brandauer", "Gor Bloodhorn"),
    ],
)
def test_d100_one_round_matches_the_odds_of_the_policy_s_attacks(game, first, second):
    needs_odds(game)
    left = 3
    a_sheet, b_sheet = hurt(sheet_named(game, first), left), hurt(sheet_named(game, second), left)
    take_a, take_b = (
        policy_take_out(a_sheet, b_sheet, left),
        policy_take_out(b_sheet, a_sheet, left),
    )
    # A (first in the encounter's order) attacks, then B if still standing; no one is hurt
    # by their own attack, so B's chance against an unhurt A does not depend on A's blow
    exact_a, exact_b = take_a, (1 - take_a) * take_b
    fights = 20_000

    report = simulate(
        two_sides(a_sheet, b_sheet), fights, seed=5, rounds_limit=1, initiative="encounter"
    )

    assert exact_b > 0
    assert 0 < exact_a < 1
    assert within(report.wins["A"], exact_a, fights)
    assert within(report.wins["B"], exact_b, fights)
    assert within(report.draw, 1 - exact_a - exact_b, fights)


def test_the_weakest_target_is_shot_first_ties_to_the_encounter_order():
    needs_odds("wfb6")
    shooter = bow_model("Archer", "A", 4)
    sturdy = WFB6Character.build(name="Sturdy", side="B", T=3, W=3)
    frail = WFB6Character.build(name="Frail", side="B", T=3, W=1)
    twin = WFB6Character.build(name="Twin", side="B", T=3, W=1)
    slay = wfb_slay(shooter, frail)
    fights = 10_000

    first = simulate(
        {"A": [shooter], "B": [sturdy, frail]},
        fights,
        seed=2,
        rounds_limit=1,
        initiative="encounter",
    )
    tied = simulate(
        {"A": [shooter], "B": [frail, twin]}, fights, seed=2, rounds_limit=1, initiative="encounter"
    )

    assert first.taken_out["Sturdy"] == 0
    assert within(first.taken_out["Frail"], slay, fights)
    assert within(tied.taken_out["Frail"], slay, fights)
    assert tied.taken_out["Twin"] == 0
    assert first.combatants[0].attacks == {
        "Sturdy": "short bow (missile)",
        "Frail": "short bow (missile)",
    }


# --- (b) identical sides -------------------------------------------------------------------


def fighter(game: str) -> Sheet:
    """A demo combatant of ``game`` that has an attack (and, in WFB 6e, stands alone)."""
    for sheet in roster(game).sheets:
        if options_of(game, sheet) and not getattr(sheet, "is_horde", False):
            return sheet
    raise AssertionError(f"no demo combatant of {game} can attack")


@pytest.mark.parametrize("game", GAMES)
def test_identical_sides_win_equally_often(game):
    needs_odds(game)
    model = fighter(game)
    sides = {
        "Red": [model.edit(name="Red 1"), model.edit(name="Red 2")],
        "Blue": [model.edit(name="Blue 1"), model.edit(name="Blue 2")],
    }
    fights = 20_000

    report = simulate(sides, fights, seed=17)

    red, blue = report.wins["Red"], report.wins["Blue"]
    decided = red + blue
    assert decided > 0.5
    # the difference of two shares of one multinomial: variance (r + b - (r - b)^2) / n
    assert abs(red - blue) <= 4 * sqrt((red + blue - (red - blue) ** 2) / fights)
    assert within(red, decided / 2, fights)


# --- (c) the report adds up ------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_report_adds_up(game):
    needs_odds(game)
    fights = 2_000

    report = simulate(roster(game), fights, seed=1)

    assert isinstance(report, SimulationReport)
    assert sum(report.win_counts.values()) + report.draw_count == fights
    assert sum(report.wins.values()) + report.draw == pytest.approx(1, abs=1e-12)
    assert 1 <= report.rounds <= report.rounds_limit
    for combatant in report.combatants:
        assert 0 <= combatant.taken_out <= 1
        others = sum(chance for side, chance in report.wins.items() if side != combatant.side)
        assert combatant.taken_out >= others - 1e-12  # another side won: all of this one fell
    frame = report.frame()
    assert list(frame["taken_out"]) == [c.taken_out for c in report.combatants]
    assert report.policy.startswith("weakest: ")
    assert report.policy.endswith(POLICIES["weakest"])
    assert any("fixed distance" in text for text in report.simplifications)
    shown = report.to_html()
    for side in report.sides:
        assert side in shown


# --- (d) the same seed, the same report --------------------------------------------------------


@pytest.mark.parametrize("game", ["necromunda", "dark_heresy"])
def test_the_same_seed_gives_the_same_report(game):
    needs_odds(game)
    fight = roster(game)

    once = simulate(fight, 2_000, seed="the same seed")
    again = simulate(fight, 2_000, seed="the same seed")
    other = simulate(fight, 2_000, seed=99)

    assert once == again
    assert once.summary() == again.summary()
    assert once.summary() != other.summary()


def test_progress_runs_from_zero_to_one():
    needs_odds("wfb6")
    heard: list[float] = []

    simulate(roster("wfb6"), 500, seed=1, progress=heard.append)

    assert heard[0] == 0.0
    assert heard[-1] == 1.0
    assert heard == sorted(heard)


def test_an_encounter_s_wounds_and_removed_combatants_count():
    needs_odds("wfb6")
    fight = Encounter("wfb6")
    archer = fight.add(bow_model("Archer", "A", 4))
    fight.add(bow_model("Goblin", "B", 3))
    gone = fight.add(bow_model("Gone", "B", 3))
    fight.remove(gone)

    report = simulate(fight, 1_000, seed=4)
    assert [c.name for c in report.combatants] == ["Archer", "Goblin"]

    fight.edit_sheet(archer, W=2)
    hurt_fight = simulate(fight, 1_000, seed=4)
    assert hurt_fight.taken_out["Archer"] < report.taken_out["Archer"]


def test_refusals_name_what_is_wrong():
    needs_odds("wfb6")
    sides = {"A": [bow_model("Archer", "A", 4)], "B": [bow_model("Goblin", "B", 3)]}
    with pytest.raises(GmkitError, match="policy"):
        simulate(sides, 10, seed=1, policy="bravest")
    with pytest.raises(GmkitError, match="fights"):
        simulate(sides, 0, seed=1)
    with pytest.raises(GmkitError, match="two sides"):
        simulate({"A": [bow_model("Archer", "A", 4)]}, 10, seed=1)
    with pytest.raises(GmkitError, match="initiative"):
        simulate(sides, 10, seed=1, initiative="alphabetical")


# --- against the resolver: the tables' state machine and the reaction pools -------------------


def share_error(share: float, fights: int) -> float:
    return sqrt(max(share * (1 - share), 1.0 / fights) / fights)


def test_necromunda_duel_over_rounds_agrees_with_the_resolver_played_out():
    """Six rounds of a W 2 fighter against a W 1 one: the simulation's tables against the
    resolver itself, turn by turn (pinned fighters skip a turn and stand up at its end, down
    ones roll to recover), in plain Python."""
    needs_odds("necromunda")
    weapons = catalog("necromunda", "weapons")
    first = NecromundaFighter.build(name="Kal", BS=3, WS=3, W=2, weapons=[weapons["lasgun"]])
    second = NecromundaFighter.build(name="Tom", BS=3, WS=2, weapons=[weapons["autopistol"]])
    rounds, fights, played = 6, 20_000, 3_000
    report = simulate(
        {"A": [first], "B": [second]}, fights, seed=2, rounds_limit=rounds, initiative="encounter"
    )

    dice = SeededDice(9)
    rules = system("necromunda")

    def shot(shooter: Sheet, own: FighterState, target: Sheet, aimed: FighterState) -> Any:
        request = AttackRequest(
            shooter,
            shooter.weapons[0].name,  # type: ignore[attr-defined]
            target,
            distance=find_game("necromunda").simulation.distance,
            options={
                "attacker_state": FighterState(flesh_wounds=own.flesh(shooter)),
                "target_state": aimed,
            },
        )
        effects = rules.resolve_attack(request, dice).effects
        injuries = [e.condition for e in effects if e.kind == "injury"]
        down = aimed.down or "down" in injuries
        out = "out of action" in injuries
        return aimed.with_changes(
            wounds_left=aimed.wounds(target) - sum(e.amount for e in effects if e.kind == "damage"),
            flesh_wounds=aimed.flesh(target) + injuries.count("flesh wound"),
            down=down and not out,
            out_of_action=out,
            pinned=(aimed.pinned or any(e.kind == "pinned" for e in effects)) and not down,
        )

    wins = {"A": 0, "B": 0}
    for _ in range(played):
        states = {"A": FighterState(), "B": FighterState()}
        sheets = {"A": first, "B": second}
        for _round in range(rounds):
            for me, foe in (("A", "B"), ("B", "A")):
                own = states[me]
                if not (own.down or own.pinned or own.out_of_action or states[foe].out_of_action):
                    states[foe] = shot(sheets[me], own, sheets[foe], states[foe])
                own = states[me].with_changes(pinned=False)
                if own.down:
                    own = recovery_roll(sheets[me], own, dice).state  # type: ignore[arg-type]
                states[me] = own
            fallen = [side for side, state in states.items() if state.out_of_action]
            if fallen:
                wins["B" if fallen == ["A"] else "A"] += 1
                break
        dice.history.clear()

    for side in ("A", "B"):
        simulated, resolved = report.wins[side], wins[side] / played
        allowed = 4 * sqrt(share_error(simulated, fights) ** 2 + share_error(resolved, played) ** 2)
        assert abs(simulated - resolved) <= allowed, (side, simulated, resolved)


def test_dark_heresy_reaction_spent_by_the_first_attack_agrees_with_the_resolver():
    """Two acolytes attack one hurt foe in one round: the first meets its best reaction, the
    second finds it spent when the first attack's test succeeded (the resolver's own
    ``reaction`` effect says when)."""
    needs_odds("dark_heresy")
    left = 6
    target = hurt(sheet_named("dark_heresy", "Demagogue Ostrava"), left)
    first = sheet_named("dark_heresy", "Sergeant Varro Tull")
    second = sheet_named("dark_heresy", "Ilse Marr")
    fights, played = 20_000, 2_000
    report = simulate(
        {"A": [first, second], "B": [target]},
        fights,
        seed=1,
        rounds_limit=1,
        initiative="encounter",
    )

    opening, _ = policy_pick(first, target, left)
    fresh, _ = policy_pick(second, target, left)
    spent, _ = policy_pick(second, target, left, reactions=False)
    resolve = system("dark_heresy").resolve_attack
    dice = SeededDice(5)
    taken = 0
    for _ in range(played):
        effects = resolve(opening, dice).effects
        lost = sum(e.amount for e in effects if e.kind == "damage")
        reacted = any(e.kind == "reaction" for e in effects)
        if lost <= left:
            follow = resolve(spent if reacted else fresh, dice).effects
            lost += sum(e.amount for e in follow if e.kind == "damage")
        taken += lost > left
        dice.history.clear()

    simulated, resolved = report.taken_out["Demagogue Ostrava"], taken / played
    allowed = 4 * sqrt(share_error(simulated, fights) ** 2 + share_error(resolved, played) ** 2)
    assert abs(simulated - resolved) <= allowed
