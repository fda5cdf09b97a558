"""A 40k attack, from the test to the effects (Dark Heresy 001, Deathwatch 004).

``resolve_attack(request, source, setup=None)`` follows 004's five steps: the test of the
modified characteristic (modifiers capped at +/-60), the target's reaction, the hit location,
the damage (degrees of success, Righteous Fury), and the soak (cover, armour, Toughness). It
never changes a sheet: it returns the explained steps and the effects for the encounter.
``setup`` (:class:`~gmkit.systems._imperial.setup.AttackSetup`) is what the action and the
circumstances make of the attack; without one, ``modifiers.attack_setup`` builds it.

``resolve_attack(request, EnteredDice([34, 7]), AttackSetup("BS", (), "single", rounds=1))``
rolls a to-hit of 34 and a damage d10 of 7 (a worked example: ``gmkit.systems.dark_heresy``).
Special attacks go by the setup's mode or the request's action: stun, knock_down, feint,
manoeuvre, grapple (and ``grapple_<option>``, or the option ``grapple``), overwatch (declared;
the option ``overwatch`` marks the attack it triggers).

Rules as the seeds and their README give them: a ranged attack jams on a natural roll at or
above ``setup.jam_from`` (96, or 94 for semi and full auto) and fails; semi-auto scores one
more hit per two degrees of success, full auto one per degree, never beyond ``setup.max_hits``;
suppressing fire one per two degrees (004); the first hit's location reverses the roll (or is
the called one), the rest follow the Multiple Hits rows. Cover is ``cover``'s rule (armour at
the covered locations against ranged attacks, each beating hit wearing it down); the
target's reaction, with the modifiers its conditions give it and the reactions it has left this
round, is ``resolve_reactions``'. The state the action leaves on the attacker (actions.yaml
``gains``: All Out Attack, Guarded Attack, Overwatch...) is an effect of every attack made with
it, hit or miss (``with_gains``): ``Effect("condition", attacker, condition=id, rounds=1)``
for a state lasting until the start of the attacker's next turn; ``action_gains`` gives those
of the actions that are no attack (Defensive Stance, Run...).

Choices where the texts are silent:

- Melee with ``setup.max_hits`` above 1 (Swift Attack, two weapons as the setup caps them) is
  that many separate attacks, each with its own test, location and degrees (004: "resolve each
  attack separately"); a ranged attack is one test whose degrees buy extra hits.
- A jammed attack spends no ammunition (what clearing the jam loses is ``clear_jam``'s). An
  attack with fewer rounds loaded than it needs fires what is loaded, one hit at most per round.
- An automatic hit (``setup.auto_hit``: helpless targets, flame) has no degrees of success; its
  location is a d100 rolled for the purpose.
- A setup's automatic failure (``setup.auto_fail``: a blinded shooter) rolls no test and
  misses; the rounds are spent all the same (the shot is fired blind).
- A hit from a Flame weapon that lands on a character (not a horde) calls for a Challenging (+0)
  Agility test against catching fire (004, Fire).
- Hordes have no locations (004); each hit that deals damage costs one magnitude, and the
  attack ends with one ``Effect(kind="magnitude")`` for the total.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from gmkit.dice import DiceSource, DieRoll
from gmkit.errors import GmkitError
from gmkit.messages import Message
from gmkit.sheets._deathwatch import HordeRules
from gmkit.systems._imperial import hordes, melee, resolve_fire, resolve_special
from gmkit.systems._imperial.actions import action, actions
from gmkit.systems._imperial.conditions import (
    condition,
    conditions,
    gain,
    lose,
    split_names,
    standing_names,
)
from gmkit.systems._imperial.cover import Cover, cover_of
from gmkit.systems._imperial.kinds import book
from gmkit.systems._imperial.modifiers import attack_setup
from gmkit.systems._imperial.resolve_hit import Strike, find_weapon, resolve_hit
from gmkit.systems._imperial.resolve_reactions import react, reactions_left, restrictions
from gmkit.systems._imperial.resolve_test import Shot, finish, take_shot
from gmkit.systems._imperial.setup import AttackSetup
from gmkit.systems._percentile import (
    LOCATIONS,
    hit_location,
    location_name,
    multiple_hit_locations,
    reverse_digits,
    roll_test,
)
from gmkit.systems.base import AttackRequest, AttackResult, Effect, Step

Special = Callable[[AttackRequest, AttackSetup, DiceSource], AttackResult]
SPECIAL: dict[str, Special] = {
    "stun": resolve_special.stun,
    "knock_down": resolve_special.knock_down,
    "feint": resolve_special.feint,
    "grapple": resolve_special.grapple,
    "manoeuvre": resolve_special.manoeuvre,
    "overwatch": resolve_fire.declare_overwatch,
}
ALIASES = {"knockdown": "knock_down", "takedown": "knock_down", "maneuver": "manoeuvre"}
# what ends when its bearer attacks or reacts: only an Aim does (conditions.yaml ``ends``)
AIM_USED = Message("imperial.acting.aim_used")
AIM_LOST = Message("imperial.acting.aim_lost_reaction")


def special_attack(name: str) -> Special | None:
    """The special attack named ``name`` (a mode or an action), if it is one."""
    key = name.strip().casefold().replace("-", "_").replace(" ", "_")
    if key.startswith("grapple_"):  # a grapple option as the setup names it: grapple_push
        key = "grapple"
    return SPECIAL.get(ALIASES.get(key, key))


def resolve_attack(
    request: AttackRequest, source: DiceSource, setup: AttackSetup | None = None
) -> AttackResult:
    """Resolve ``request`` with dice from ``source`` (see the module's docstring)."""
    if setup is None:
        setup = attack_setup(request, request.attacker.game)
    fired_overwatch = request.options.overwatch
    special = special_attack(setup.mode) or special_attack(request.action)
    if special is None and request.options.grapple:  # an unarmed attack may grapple
        special = resolve_special.grapple
    if special is not None and not (special is resolve_fire.declare_overwatch and fired_overwatch):
        result = special(request, setup, source)
    else:
        weapon, unarmed = find_weapon(request.attacker, request.weapon)  # type: ignore[arg-type]
        result = attack(Strike(request, setup, source, weapon, unarmed))
    return with_turn_effects(with_gains(result, setup, fired_overwatch), setup)


def with_turn_effects(result: AttackResult, setup: AttackSetup) -> AttackResult:
    """``result`` with what the attack ends of the turn's states, as the game's condition book
    says (its ``ended``): the attacker's (its Aim, ``"aimed: <type>"``, read as the option
    ``prepared``), the target's if it reacted (a Dodge or a Parry ends its Aim: 004), and what
    melee does (``_in_melee``)."""
    request = result.request
    game = request.attacker.game
    added = [
        Effect("remove_condition", request.attacker.name, condition=name, note=AIM_USED)
        for name in book(game).ended(request.attacker_standing.conditions, "attack", request.action)
    ]
    reacted = any(e.kind == "reaction" and e.target == request.target.name for e in result.effects)
    if reacted:
        added += [
            Effect("remove_condition", request.target.name, condition=name, note=AIM_LOST)
            for name in book(game).ended(request.target_standing.conditions, "reaction")
        ]
    added += _in_melee(request, setup)
    return replace(result, effects=(*result.effects, *added)) if added else result


def _in_melee(request: AttackRequest, setup: AttackSetup) -> list[Effect]:
    """A melee attack engages both (and a shot the GM says is made engaged in melee, its
    attacker): their conditions flagged ``ends_in_melee`` end (pinned: 001, 004). A Charge
    (a melee attack that moves) leaves both ``engaged``, as a Move into melee does."""
    game = request.attacker.game
    in_melee = setup.characteristic != "BS"
    sides = [("attacker", request.attacker), ("target", request.target)]
    if not in_melee:
        engaged = bool(request.circumstances.get("engaged_in_melee"))
        sides = sides[:1] if engaged else []
    chosen = actions(game).get(request.action)
    charge = in_melee and chosen is not None and "movement" in chosen.subtypes
    found: list[Effect] = []
    for side, sheet in sides:
        ids, _ = split_names(game, standing_names(request, side))
        found += [
            lose(game, sheet.name, key)
            for key in ids
            if "ends_in_melee" in condition(game, key).flags
        ]
        if charge and melee.ENGAGED not in ids and melee.ENGAGED in conditions(game):
            found.append(gain(game, sheet.name, melee.ENGAGED))
    return found


def with_gains(result: AttackResult, setup: AttackSetup, fired_overwatch: bool) -> AttackResult:
    """``result`` with the conditions the action leaves on the attacker (``setup.gains``: All
    Out Attack, Guarded Attack, Overwatch...) as effects, whether the attack hit or not: a state
    lasting until the start of the attacker's next turn has ``rounds=1`` (the encounter ends it
    when that turn begins), one lasting until removed (braced) None. An overwatch that fires
    gains no new overwatch; an effect the attack gave already is not given twice."""
    attacker = result.request.attacker
    added = [
        effect
        for effect in gained(attacker.game, attacker.name, setup.gains)
        if not (fired_overwatch and effect.condition == "overwatch")
        and not any(
            e.kind == "condition" and e.condition == effect.condition and e.target == attacker.name
            for e in result.effects
        )
    ]
    return replace(result, effects=(*result.effects, *added)) if added else result


def gained(game: str, actor: str, condition_ids: Iterable[str]) -> tuple[Effect, ...]:
    """The effects giving ``actor`` the states ``condition_ids`` an action leaves on it: until
    the start of its next turn (``rounds=1``), or until removed (braced)."""
    found = []
    for condition_id in condition_ids:
        duration = condition(game, condition_id, "gains").duration
        rounds = 1 if duration == "until_next_turn" else None
        note = Message(
            "imperial.gains.until_next_turn" if rounds == 1 else "imperial.gains.until_removed"
        )
        found.append(gain(game, actor, condition_id, rounds, note=note))
    return tuple(found)


def action_gains(game: str, action_id: str, actor: str) -> tuple[Effect, ...]:
    """The effects of the state taking ``action_id`` leaves on ``actor`` (actions.yaml
    ``gains``), for the actions that are no attack (Defensive Stance, Run, Tactical Advance,
    Brace Heavy Weapon): the encounter applies them with ``apply_effects`` (an attack's come
    with its result)."""
    chosen = action(game, action_id)
    return gained(game, actor, [str(value) for key, value in chosen.effects if key == "gains"])


def locations(strike: Strike, shot: Shot, hits: int) -> tuple[list[str | None], Step | None]:
    """Where ``hits`` hits of ``shot`` land (None for each hit on a horde)."""
    if strike.is_horde:
        return [None] * hits, None
    called = strike.setup.called_location or strike.request.called_location
    rolls: tuple[DieRoll, ...] = ()
    if called:
        if called not in LOCATIONS:
            raise GmkitError(called_location_refused(called))
        first = called
        detail = Message("imperial.location.called")
    else:
        value = shot.roll
        if value is None:
            rolled = strike.source.roll_die(100, Message("imperial.location.die"))
            rolls, value = (rolled,), rolled.value
        first = hit_location(value, strike.game)
        detail = Message("imperial.location.reversed", roll=value, reads=reverse_digits(value))
    spots = multiple_hit_locations(first, hits)
    shown = Message("common.list", items=tuple(location_name(spot) for spot in spots))
    if hits > 1:
        detail = Message("imperial.location.multiple", first=detail)
    return list(spots), Step(Message("imperial.location.title"), shown, detail, rolls)


def called_location_refused(called: str) -> Message:
    """Why a called location is refused: it is none of the six."""
    return Message("imperial.location.bad_called", called=repr(called), known=LOCATIONS)


@dataclass
class Tally:
    """The running count of one attack's hits, with the cover they wear down."""

    cover: Cover
    reactions_left: int = 1
    hits: int = 0
    damaging: int = 0
    shown_restrictions: bool = False

    def land(
        self,
        strike: Strike,
        shot: Shot,
        rules: HordeRules | None,
        steps: list[Step],
        effects: list[Effect],
    ) -> None:
        """A shot that hit: hits on a horde, the reaction, the locations, each hit's damage."""
        if not self.shown_restrictions:
            steps.extend(restrictions(strike))
            self.shown_restrictions = True
        count = shot.hits
        if rules is not None:
            melee = strike.setup.characteristic != "BS"
            found = hordes.horde_hits(
                strike.weapon, melee, shot.degrees, count, strike.source, rules
            )
            count = found.hits
            title = Message("imperial.horde.hits_title")
            steps.append(Step(title, Message.verbatim(str(count)), found.reason, found.rolls))
        reaction = react(strike, count, self.reactions_left)
        self.reactions_left -= int(reaction.used)
        steps.extend(reaction.steps)
        effects.extend(reaction.effects)
        count -= reaction.cancelled
        if count <= 0:
            return
        spots, where = locations(strike, shot, count)
        steps.extend([where] if where is not None else [])
        for spot in spots:
            self.hit(strike, spot, shot.degrees, steps, effects)

    def hit(
        self,
        strike: Strike,
        spot: str | None,
        degrees: int,
        steps: list[Step],
        effects: list[Effect],
    ) -> None:
        self.hits += 1
        outcome = resolve_hit(strike, self.hits, spot, degrees, self.cover)
        steps.extend(outcome.steps)
        effects.extend(outcome.effects)
        self.cover = outcome.cover_left
        self.damaging += outcome.wounds > 0


def attack(strike: Strike) -> AttackResult:
    """A normal attack (melee or ranged) with the strike's weapon."""
    setup, weapon = strike.setup, strike.weapon
    attacker, target = strike.attacker, strike.target
    note = Message("imperial.note")
    steps = [Step(note, text) for text in (*setup.warnings, *setup.notes)]
    effects: list[Effect] = []
    ranged = setup.characteristic == "BS"
    cap, spent = max(1, setup.max_hits), 0
    ammunition = Message("imperial.ammunition.title")
    if ranged and setup.rounds:
        if weapon.loaded <= 0:
            reload = Message("imperial.ammunition.reload", weapon=weapon.name)
            steps.append(Step(ammunition, Message("imperial.ammunition.empty"), reload))
            return finish(strike, steps, effects, 0)
        spent = min(setup.rounds, weapon.loaded)
        if spent < setup.rounds:
            cap = min(cap, spent)
            short = Message("imperial.ammunition.short", spent=spent, rounds=setup.rounds)
            steps.append(Step(ammunition, short))
    tests = cap if not ranged and cap > 1 else 1
    rules = hordes.horde_rules(strike.game) if strike.is_horde else None
    tally = Tally(cover_of(strike.request), reactions_left(strike.request, strike.game))
    for index in range(1, tests + 1):
        shot = take_shot(strike, index if tests > 1 else None, cap // tests)
        steps.extend(shot.steps)
        if shot.jammed:
            effects.append(Effect("jam", attacker.name, weapon=weapon.name))
            spent = 0
            break
        if shot.hits:
            tally.land(strike, shot, rules, steps, effects)
    if spent:
        effects.insert(0, Effect("ammo", attacker.name, spent, weapon=weapon.name))
    extra = hordes.explosive_extra_hits(weapon, rules) if rules is not None and tally.hits else 0
    if extra:
        title = Message("imperial.horde.hits_title")
        more = Message("imperial.horde.explosive_more", extra=extra)
        steps.append(Step(title, more, Message("imperial.horde.explosive")))
    for _ in range(extra):
        tally.hit(strike, None, 0, steps, effects)
    hits, damaging = tally.hits, tally.damaging
    if rules is not None and damaging:
        lost = hordes.magnitude_loss(damaging, rules)
        detail = Message("imperial.horde.damaging", hits=damaging)
        lost_text = Message("imperial.horde.magnitude_lost", lost=lost)
        steps.append(Step(Message("imperial.horde.magnitude"), lost_text, detail))
        effects.append(Effect("magnitude", target.name, lost))
    if hits and weapon.quality("Flame") and rules is None:
        steps_fire, effects_fire = catch_fire(strike)
        steps.extend(steps_fire)
        effects.extend(effects_fire)
    if setup.mode == "suppressing" or strike.options.overwatch:
        test_steps, test_effects = resolve_fire.pinning(target, strike.source)
        steps.extend(test_steps)
        effects.extend(test_effects)
    return finish(strike, steps, effects, hits)


def catch_fire(strike: Strike) -> tuple[list[Step], list[Effect]]:
    """004, Fire: a Challenging (+0) Agility test or the target catches fire."""
    target = strike.target
    purpose = Message("imperial.fire.die")
    test = roll_test("Ag", int(target.characteristics.Ag), [], strike.source, purpose)
    outcome = Message("imperial.fire.safe" if test.success else "imperial.fire.catches")
    step = Step(Message("imperial.fire.title"), outcome, test.explain(), (test.roll,), test.target)
    if test.success:
        return [step], []
    note = Message("imperial.fire.note")
    return [step], [gain(strike.game, target.name, "on_fire", note=note)]
