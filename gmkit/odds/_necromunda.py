"""Exact odds of a Necromunda shot, from the rules the resolver uses.

Every number comes from the rules: :func:`~gmkit.systems.necromunda._shooting.shot_setup`
(the score needed, Strength, the to-wound score, high impact, the states, the checks), the
resolver's own ammo roll and armour save run over each face of their die
(:func:`gmkit.odds._sixes.faces`), :func:`~gmkit.systems._sixes.chance` for the to-hit and
to-wound rolls, the weapon's damage dice through :func:`gmkit.dice._distribution`, and the
injury table read by :func:`~gmkit.systems.necromunda._injuries.injury_table` with
:func:`~gmkit.systems.necromunda._injuries.injury_rolls` and
:func:`~gmkit.systems.necromunda._state.bled_out`. The order of the resolver is followed step by
step (:func:`~gmkit.systems.necromunda._resolve.resolve_shot`); ``tests/odds`` check the odds
against the resolver run over every sequence of dice, and against 200,000 seeded resolutions.

The target's state afterwards (``Odds.states``), outcomes that exclude each other:

- ``out of action``; ``down`` (down afterwards: gone down now, or still down);
- ``flesh wound``: fights on with a new flesh wound (pinned by the hit);
- ``pinned``: pinned (hit without an injury, or pinned before and missed);
- ``standing``: none of these (missed).

Events (named apart from the states: ``Odds.p`` reads either): ``hit``, ``pinned by the hit``
(not a fighter already down), ``wounded`` (a wound got through, saves included), ``saved``,
``injury roll``, ``flesh wound taken`` (at least one, even if the fighter then goes down or
out), ``went down`` (a "down" result that counts: not one ignored on a fighter already down),
``out of action`` (the same chance as the state), ``ammo roll failed``. Details: ``flesh
wounds`` (new ones), ``wounds left``.

A refused shot raises the resolver's :class:`~gmkit.errors.RulesError`; one the GM allows
(``gm_allows_shot``) has its refusals in ``notes``. The disputes rolled before a shot
(:mod:`~gmkit.systems.necromunda._disputes`) are in the odds: a shot not made (no sight, a
target that stays hidden beyond the spotting range) is a miss without its ammo roll; a cover
roll-off is right for either player half the time (ties are rolled again), so its chance to
hit is the mean of the two (a curve's points are of the shot with the claim rejected).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import NamedTuple

from gmkit.dice import DieRoll, distribution
from gmkit.errors import RulesError
from gmkit.messages import Message
from gmkit.odds._core import ONE, Curve, Dist, MemberOdds, Odds
from gmkit.odds._necromunda_wounds import Chain, injury_chains, wound_outcomes
from gmkit.odds._sixes import MODIFIERS, faces, needed_at, total_of
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.systems._sixes import chance
from gmkit.systems.base import AttackRequest
from gmkit.systems.necromunda import SYSTEM
from gmkit.systems.necromunda._charts import seven_plus_chart
from gmkit.systems.necromunda._disputes import COVERS, sight_score
from gmkit.systems.necromunda._hiding import detects
from gmkit.systems.necromunda._injuries import injury_rolls
from gmkit.systems.necromunda._resolve import _ammo, _save, _settings, refusal, refused_shot
from gmkit.systems.necromunda._shooting import ShotSetup, shot_setup
from gmkit.systems.necromunda._state import (
    FighterState,
    Settings,
    fighter_of,
    with_encounter_states,
)

GAME = "necromunda"
STATES: tuple[str, ...] = ("standing", "pinned", "flesh wound", "down", "out of action")

__all__ = [
    "GAME",
    "STATES",
    "Outcome",
    "Shot",
    "necromunda_curve",
    "necromunda_odds",
    "prepare",
    "prepare_on_hit",
    "wound_outcomes",
]


class Outcome(NamedTuple):
    """One way a shot can end, as the resolver's steps and effects would show it."""

    hit: bool
    wounded: bool  # a wound got through (to wound, and not saved)
    saved: bool  # wounded, but the armour save held
    caused: int  # wounds caused
    lost: int  # wounds lost: the ``damage`` effect
    rolls: int  # injury rolls made
    flesh: int  # new flesh wounds
    down: bool  # a "down" effect (newly down)
    out: bool  # out of action
    state: str  # one of STATES


def _state(*, out: bool, down: bool, flesh: int, pinned: bool) -> str:
    if out:
        return "out of action"
    if down:
        return "down"
    if flesh:
        return "flesh wound"
    return "pinned" if pinned else "standing"


def _unhurt(*, hit: bool, state: str) -> Outcome:
    return Outcome(hit, False, False, 0, 0, 0, 0, False, False, state)


@dataclass(frozen=True)
class Shot:
    """A shot ready for its odds: what the dice are rolled against, and where a hit leads.

    ``rolled``: a to-hit roll against ``needed`` decides the hit (in range, not a template);
    otherwise ``certain_hit`` says whether it hits. ``current`` is the total to-hit modifier.
    """

    request: AttackRequest
    setup: ShotSetup
    settings: Settings
    target: NecromundaFighter
    rolled: bool
    needed: int | None
    certain_hit: bool
    current: int | None
    jam: Fraction
    on_hit: Dist[Outcome]
    on_miss: Outcome
    notes: tuple[Message, ...]
    sees: Fraction = ONE  # the chance the disputes let the shot be made (none: 1)
    upheld_needed: int | None = None  # a cover roll-off: the score needed if the claim holds
    disputed: bool = False  # a cover roll-off: half the time ``needed``, half this

    def hit_chance(self, total: int | None = None) -> Fraction:
        """The chance to hit, at the total modifier ``total`` (None: the shot's own)."""
        if not self.rolled:
            return self.sees if self.certain_hit else Fraction(0)
        needed = self.needed if total is None else needed_at(self.setup.bs, total)
        chart = seven_plus_chart()
        if self.disputed and total is None:  # the roll-off: either player right, 1/2 each
            both = chance(needed, chart) + chance(self.upheld_needed, chart)
            return self.sees * both / 2
        return self.sees * chance(needed, chart)


def _refusals(request: AttackRequest, setup: ShotSetup) -> tuple[Message, ...]:
    """The resolver's refusal: raised as it raises it, or noted when the GM allows the shot."""
    refused = setup.refused
    if not refused:
        return ()
    shooter = fighter_of(request.attacker, "attacker")
    target = fighter_of(request.target, "target")
    reasons, off_table = refusal(shooter, target, refused)
    if off_table or not request.options.gm_allows_shot:
        raise RulesError(refused_shot(shooter, target, reasons))
    return (Message("necromunda.odds.allowed", reasons=reasons),)


def sight_chance() -> Fraction:
    """The chance the sight roll lets the shot be made (a D6 scoring ``disputes.yaml``'s)."""
    return Fraction(7 - max(1, min(7, sight_score())), 6)


def _roll_off(
    request: AttackRequest, settings: Settings
) -> tuple[AttackRequest, AttackRequest | None, Fraction]:
    """A shot with a roll-off (``disputed``), ties rolled again so either player is right half
    the time: the request the odds are of (the claim rejected), the request with the claim of
    cover upheld (None: no cover dispute), and the chance the shot is made (a hidden target
    upheld beyond the shooter's spotting range is not shot)."""
    point = request.options.disputed
    if point is None:
        return request, None, ONE
    if point in COVERS:
        plain = {k: v for k, v in request.circumstances.items() if k not in COVERS}
        rejected = replace(request, circumstances=plain)
        return rejected, replace(request, circumstances={**plain, point: True}), ONE
    shooter = fighter_of(request.attacker, "attacker")
    state = FighterState.read(request.options.target_state)
    spotted = request.distance is not None and detects(
        shooter, request.distance, settings.spotting_multiplier
    )
    seen = request.with_options(target_state=state.with_changes(hidden=False))
    return seen, None, ONE if spotted else Fraction(1, 2)


def prepare(request: AttackRequest, settings: Settings | None = None) -> Shot:
    """Everything about the shot but the to-hit chance (which a curve varies); the fighters'
    states from the request's standings where its options give none, as the resolver reads
    them."""
    request = with_encounter_states(request)
    settings = _settings(request, settings or SYSTEM.settings)
    request, upheld, shoots = _roll_off(request, settings)
    setup = shot_setup(request, settings)
    notes = _refusals(request, setup)
    shooter = fighter_of(request.attacker, "attacker")
    target = fighter_of(request.target, "target")
    template = setup.weapon.template
    rolled = not template and setup.band != "out of range"
    six = DieRoll(6, 6, Message("necromunda.purpose.to_hit"), physical=False)
    jam_on_six = faces(lambda probe: bool(_ammo(setup, six, shooter.name, settings, probe)[1]))
    sees = shoots * (sight_chance() if request.options.sight_in_doubt else ONE)
    jam = Fraction(0) if template else sees * Fraction(1, 6) * jam_on_six.p(True)
    upheld_needed = shot_setup(upheld, settings).needed if upheld is not None else None

    before = setup.target_state
    on_miss = _unhurt(
        hit=False, state=_state(out=False, down=before.down, flesh=0, pinned=before.pinned)
    )
    return Shot(
        request,
        setup,
        settings,
        target,
        rolled,
        setup.needed if rolled else None,
        template,
        total_of(setup.modifiers) if rolled else None,
        jam,
        _on_hit(setup, settings, shooter, target),
        on_miss,
        notes,
        sees,
        upheld_needed if rolled else None,
        upheld is not None and rolled,
    )


def prepare_on_hit(request: AttackRequest, settings: Settings | None = None) -> Dist[Outcome]:
    """``prepare(request, settings).on_hit`` alone: where a hit leads, by the same steps,
    without the rest of the shot (its ammo roll, the upheld claim's score); a refused shot is
    refused as :func:`prepare` refuses it."""
    request = with_encounter_states(request)
    settings = _settings(request, settings or SYSTEM.settings)
    request, _, _ = _roll_off(request, settings)
    setup = shot_setup(request, settings)
    _refusals(request, setup)
    shooter = fighter_of(request.attacker, "attacker")
    target = fighter_of(request.target, "target")
    return _on_hit(setup, settings, shooter, target)


def _on_hit(
    setup: ShotSetup, settings: Settings, shooter: NecromundaFighter, target: NecromundaFighter
) -> Dist[Outcome]:
    """Where a hit leads: to wound, the save, the wounds caused, the injury rolls."""
    before = setup.target_state
    state = before.with_changes(pinned=not before.down)  # as the resolver passes it on
    unhurt = _state(out=False, down=before.down, flesh=0, pinned=state.pinned)
    no_wound = _unhurt(hit=True, state=unhurt)
    saved = no_wound._replace(saved=True)
    wound = chance(setup.to_wound)
    if settings.armour_saves:
        save = faces(lambda probe: bool((found := _save(setup, target, probe)) and found[1]))
        holds = save.p(True)
    else:
        holds = Fraction(0)
    damage = setup.weapon.damage
    if damage.strip() != "1":
        rolled = distribution(damage, shooter.bonuses())
        wounds = rolled.map(lambda w: max(1, w))
    else:
        wounds = Dist.certain(1)
    left = state.wounds(target)
    flesh_before = state.flesh(target)
    chains: dict[int, Dist[Chain]] = {}
    chain_of = injury_chains(target, state, setup.high_impact)

    def injuries(caused: int) -> Dist[Outcome]:
        lost = min(caused, left)
        rolls = injury_rolls(caused, left)
        if rolls not in chains:
            chains[rolls] = chain_of(rolls)

        def outcome(chain: Chain) -> Outcome:
            flesh, down, out = chain
            new = flesh - flesh_before
            after = _state(
                out=out, down=down, flesh=new, pinned=state.pinned and not down and not out
            )
            return Outcome(
                True, True, False, caused, lost, rolls, new, down and not state.down, out, after
            )

        return chains[rolls].map(outcome)

    through = wounds.given(injuries)
    # to wound (w) then the save (s): no wound 1 - w, saved w * s, through w * (1 - s)
    denominator = wound.denominator * holds.denominator
    w_count = wound.numerator * holds.denominator
    saved_count = wound.numerator * holds.numerator
    parts = [
        (denominator - w_count, Dist.certain(no_wound)),
        (saved_count, Dist.certain(saved)),
        (w_count - saved_count, through),
    ]
    return Dist.mixture(parts, denominator).reduced()


def _assemble(shot: Shot, hit: Fraction) -> Odds:
    """The odds of the shot when it hits with chance ``hit``."""
    whole = Dist.mixture(
        [
            (hit.numerator, shot.on_hit),
            (hit.denominator - hit.numerator, Dist.certain(shot.on_miss)),
        ],
        hit.denominator,
    )
    target = shot.target
    left = shot.setup.target_state.wounds(target)
    den = whole.denominator
    # every marginal in one pass over the outcomes (as ``whole.map`` and ``whole.chance``
    # would each give it: the same counts, the outcomes in the same order)
    by_hits: dict[int, int] = {}
    by_wounds: dict[int, int] = {}
    by_lost: dict[int, int] = {}
    by_state: dict[str, int] = {}
    by_flesh: dict[int, int] = {}
    by_left: dict[int, int] = {}
    by_out: dict[int, int] = {}
    wounded = saved = rolled = fleshed = went_down = out = 0
    for o, count in whole.counts.items():
        key = int(o.hit)
        by_hits[key] = by_hits.get(key, 0) + count
        by_wounds[o.caused] = by_wounds.get(o.caused, 0) + count
        by_lost[o.lost] = by_lost.get(o.lost, 0) + count
        by_state[o.state] = by_state.get(o.state, 0) + count
        by_flesh[o.flesh] = by_flesh.get(o.flesh, 0) + count
        key = left - o.lost
        by_left[key] = by_left.get(key, 0) + count
        key = int(o.out)
        by_out[key] = by_out.get(key, 0) + count
        if o.wounded:
            wounded += count
        if o.saved:
            saved += count
        if o.rolls > 0:
            rolled += count
        if o.flesh > 0:
            fleshed += count
        if o.down:
            went_down += count
        if o.out:
            out += count
    hits = Dist(by_hits, den)
    per_hit = shot.on_hit.map(lambda o: o.caused)
    wounds = Dist(by_wounds, den)
    pins = Fraction(0) if shot.setup.target_state.down else hit
    events = {
        "hit": hit,
        "pinned by the hit": pins,
        "wounded": Fraction(wounded, den),
        "saved": Fraction(saved, den),
        "injury roll": Fraction(rolled, den),
        "flesh wound taken": Fraction(fleshed, den),
        "went down": Fraction(went_down, den),
        "out of action": Fraction(out, den),
        "ammo roll failed": shot.jam,
    }
    slain = Dist(by_out, den)
    member = MemberOdds(target.name, target.name, 1, target.W, hits, per_hit, wounds, slain)
    return Odds(
        game=GAME,
        hits=hits,
        per_hit=per_hit,
        wounds=wounds,
        damage=Dist(by_lost, den),
        states=Dist(by_state, den).with_keys(STATES),
        events=events,
        members=(member,),
        details={"flesh wounds": Dist(by_flesh, den), "wounds left": Dist(by_left, den)},
        notes=tuple(str(note) for note in shot.notes),  # Odds keeps its notes as text
    )


def necromunda_odds(request: AttackRequest, settings: Settings | None = None) -> Odds:
    """The exact odds of a Necromunda shot (``settings``: the system's, as the resolver's)."""
    shot = prepare(request, settings)
    return _assemble(shot, shot.hit_chance())


def necromunda_curve(
    request: AttackRequest, modifiers: Sequence[int] | None = None, settings: Settings | None = None
) -> Curve:
    """The odds of the shot at each total to-hit modifier (default -4..+4).

    The total replaces the sum of the shot's modifiers (circumstances and range): 7 - BS less
    the total, by :func:`~gmkit.systems._sixes.to_hit_needed`. A template, or a target out of
    range, gives the same odds at every point (``current`` None).
    """
    shot = prepare(request, settings)
    points = tuple(MODIFIERS if modifiers is None else modifiers)
    return Curve(
        points,
        tuple(_assemble(shot, shot.hit_chance(total)) for total in points),
        shot.current,
    )
