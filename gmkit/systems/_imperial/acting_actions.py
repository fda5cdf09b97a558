"""The 40k actions that are no attack, resolved for the encounter (``ImperialTurns``).

``offered(game)``: the actions of actions.yaml with no ``attack`` block and no reaction type.
``perform(game, request, source)``: one of them taken, as ``request.action_type`` (half, full,
extended), with the steps that explain it and the effects the encounter applies:

- Aim: the condition ``"aimed: half"`` or ``"aimed: full"`` (its ``next_attack`` bonus, +10 or
  +20), for 2 rounds ticking at the start of the actor's turns: a Full Action Aim is used in
  the next turn, and unused it is gone when the turn after begins. The next attack reads it as
  ``prepared={"aim": ...}`` and ends it; a reaction ends it (``lapsed_by_reaction``); any other
  action here ends it (004: the bonus is lost unless the next action is an attack) but Delay,
  whose kept half action may be that attack.
- The states the actions leave (``gains``: Defensive Stance, Run, Tactical Advance, braced).
  A movement action ends a brace (004: moving loses it).
- Delay: the turn ends keeping a half action (``ActionResult.delays``; the encounter's delay).
- Move with the input ``engages`` (and the foe it reaches as ``target``, from Python), and
  Move into melee (``engage``, its foe named): the actor, and the foe, enter melee, which ends
  their conditions flagged ``ends_in_melee`` (pinned: 001, 004) and leaves them ``engaged``
  (:mod:`.melee`); the actions a condition names in ``ended_by`` end it (Disengage, a Move
  that does not engage, Run end ``engaged``). Stand/Mount ends prone.
- Reload: the weapon's ``reload`` ("Half", "Full", "2 Full") says the type to take it as
  (Half: a half or full action; Full: a full one; N Full: an extended action, the GM counting
  its turns). The encounter counts the rounds fired as ``counters["ammo spent: <weapon>"]``:
  a reload brings that count back to 0 (an ``ammo`` effect of minus the rounds spent).
- Clear Jam: the Ballistic Skill test and loss of ``jam_clearing.yaml`` (``resolve_fire``).
- Put Out Fire: an Agility test at its ``test_modifier``, and the GM's modifier typed with it
  (``inputs["modifier"]``, its entry's ``gm_modifier``: 004 lets the GM make it easier or
  harder); a success ends its ``removes``.
- Ready, Disengage, Jump, Focus Power, Use a Skill, Stand/Mount: their effects as notes.
"""

from __future__ import annotations

from gmkit.dice import DiceSource
from gmkit.messages import Message, Text
from gmkit.sheets._imperial import ImperialWeapon
from gmkit.sheets._percentile import reload_half_actions
from gmkit.systems._imperial import melee
from gmkit.systems._imperial.actions import (
    Action,
    action,
    actions,
    refuse,
    turn_actions,
)
from gmkit.systems._imperial.conditions import bearer_modifiers, conditions, lose, split_names
from gmkit.systems._imperial.effect_notes import effect_notes
from gmkit.systems._imperial.kinds import book
from gmkit.systems._imperial.resolve import gained
from gmkit.systems._imperial.resolve_fire import clear_jam
from gmkit.systems._imperial.terms import action_type
from gmkit.systems._percentile import roll_test
from gmkit.systems.acting import ActionRequest, ActionResult
from gmkit.systems.base import Effect, Modifier, Step

AIM_ROUNDS = 2
GM_MODIFIER = "modifier"  # the input of an action whose test the GM makes easier or harder
_HALVES = {"half": 1, "full": 2, "extended": 2}


def offered(game: str) -> tuple[Action, ...]:
    """The actions of ``game``'s catalog that are no attack and no reaction, then its
    ``turn_actions`` (Clear Jam, Put Out Fire)."""
    found = tuple(
        item
        for item in actions(game).values()
        if item.attack is None and not item.options and "reaction" not in item.types
    )
    return found + tuple(turn_actions(game).values())


def _joined(parts: tuple[Message, ...]) -> Text:
    return Message("common.join", parts=parts) if parts else ""


def perform(game: str, request: ActionRequest, source: DiceSource) -> ActionResult:
    """``request``'s action resolved (see the module docstring); RulesError to refuse it."""
    chosen = turn_actions(game).get(request.action) or action(game, request.action)
    if chosen not in offered(game):
        raise refuse("action", Message("imperial.acting.not_offered", action=chosen.label))
    kind = request.action_type or chosen.types[0]
    if kind not in chosen.types:
        problem = Message(
            "imperial.acting.not_of_type",
            action=chosen.label,
            action_type=action_type(kind),
            types=chosen.types_named,
        )
        raise refuse("action_type", problem)
    name, held = request.actor.name, request.actor_standing.conditions
    handler = _HANDLERS.get(chosen.id, _noted)
    steps, effects, delays = handler(game, chosen, kind, request, source)
    ended = [  # what an action ends (the book's: the Aim, which a Delay keeps)
        Effect("remove_condition", name, condition=one, note=Message("imperial.acting.aim_lost"))
        for one in book(game).ended(held, "action", chosen.id)
    ]
    if "movement" in chosen.subtypes and "braced" in held:
        ended.append(lose(game, name, "braced"))
    if not _engages(chosen, request):
        ended += melee.left(game, chosen.id, name, held)
    gains = gained(game, name, [str(value) for key, value in chosen.effects if key == "gains"])
    effects = [*ended, *effects, *gains]
    summary = Message(
        "imperial.acting.summary", name=name, action=chosen.label, action_type=action_type(kind)
    )
    return ActionResult(tuple(steps), tuple(effects), summary, delays=delays)


Outcome = tuple[list[Step], list[Effect], bool]


def _noted(
    game: str, chosen: Action, kind: str, request: ActionRequest, source: DiceSource
) -> Outcome:
    engaged = melee.engaged(game, request.actor_standing.conditions)  # in melee (.melee)
    notes = effect_notes(game, chosen.effects, {"engaged"} if engaged else set())  # effect_when
    step = Step(chosen.label, Message("imperial.acting.taken"), _joined(notes))
    return [step], [], False


def _aim(
    game: str, chosen: Action, kind: str, request: ActionRequest, source: DiceSource
) -> Outcome:
    prepared = chosen.preparation(kind)
    bonus = sum(spec.value for spec in prepared.modifiers) if prepared is not None else 0
    notes = effect_notes(game, chosen.effects)
    step = Step(chosen.label, Message("imperial.acting.aimed", bonus=bonus), _joined(notes))
    note = Message("imperial.acting.aim_note", bonus=bonus)
    aimed = Effect(
        "condition", request.actor.name, condition=f"aimed: {kind}", rounds=AIM_ROUNDS, note=note
    )
    return [step], [aimed], False


def _delay(
    game: str, chosen: Action, kind: str, request: ActionRequest, source: DiceSource
) -> Outcome:
    steps, _, _ = _noted(game, chosen, kind, request, source)
    return steps, [], True


def _engages(chosen: Action, request: ActionRequest) -> bool:
    return chosen.id == "engage" or (chosen.id == "move" and bool(request.inputs.get("engages")))


def _move(
    game: str, chosen: Action, kind: str, request: ActionRequest, source: DiceSource
) -> Outcome:
    """A Move; into melee (``engages``, or Move into melee), the actor and the foe it
    reaches (``request.target``) enter melee."""
    steps, _, _ = _noted(game, chosen, kind, request, source)
    if not _engages(chosen, request):
        return steps, [], False
    if request.target is not None and request.target.name == request.actor.name:
        raise refuse("target", Message("imperial.acting.engages_self"))
    effects: list[Effect] = []
    sides = [(request.actor, request.actor_standing)]
    if request.target is not None:
        sides.append((request.target, request.target_standing))
    for sheet, standing in sides:
        more_steps, more = melee.engagement(game, chosen.label, sheet.name, standing.conditions)
        steps += more_steps
        effects += more
    return steps, effects, False


def _stand(
    game: str, chosen: Action, kind: str, request: ActionRequest, source: DiceSource
) -> Outcome:
    if "prone" not in split_names(game, request.actor_standing.conditions)[0]:
        return _noted(game, chosen, kind, request, source)
    label = conditions(game)["prone"].label
    step = Step(chosen.label, Message("imperial.acting.stands", condition=label))
    return [step], [lose(game, request.actor.name, "prone")], False


def _weapon(request: ActionRequest) -> ImperialWeapon:
    sheet = request.actor
    wanted = (request.weapon or "").casefold()
    weapons: list[ImperialWeapon] = list(getattr(sheet, "weapons", []))
    found = next((w for w in weapons if w.name.casefold() == wanted), None)
    if found is None:
        listed = tuple(w.name for w in getattr(sheet, "weapons", []))
        problem = Message(
            "imperial.request.weapon_not_on_sheet",
            weapon=repr(request.weapon),
            name=sheet.name,
            listed=listed or ("-",),
        )
        raise refuse("weapon", problem)
    return found


def _reload(
    game: str, chosen: Action, kind: str, request: ActionRequest, source: DiceSource
) -> Outcome:
    weapon = _weapon(request)
    name, reload = str(weapon.name), str(weapon.reload)
    needed = reload_half_actions(reload)
    if needed is None:
        raise refuse("weapon", Message("imperial.acting.reload_cannot", weapon=name))
    extended = needed > 2
    proper = "extended" if extended else ("half" if needed <= 1 else "full")
    if (extended and kind != "extended") or (not extended and needed > _HALVES[kind]):
        problem = Message("imperial.acting.reload_takes", weapon=name, proper=action_type(proper))
        raise refuse("action_type", problem)
    spent = int(request.actor_standing.counters.get(f"ammo spent: {name}", 0))
    detail: Text = Message("imperial.acting.reload_extended", count=needed // 2) if extended else ""
    if spent <= 0:
        step = Step(chosen.label, Message("imperial.acting.reload_full", weapon=name), detail)
        return [step], [], False
    outcome = Message("imperial.acting.reloaded", weapon=name, rounds=spent)
    note = Message("imperial.acting.reload_note")
    refill = Effect("ammo", request.actor.name, -spent, weapon=name, note=note)
    return [Step(chosen.label, outcome, detail)], [refill], False


def _clear_jam(
    game: str, chosen: Action, kind: str, request: ActionRequest, source: DiceSource
) -> Outcome:
    weapon = _weapon(request)
    name = str(weapon.name)
    jammed = f"jammed: {name}".casefold()
    if not any(one.casefold() == jammed for one in request.actor_standing.conditions):
        raise refuse("weapon", Message("imperial.acting.not_jammed", weapon=name))
    ids = melee.bound(game, request.actor_standing.conditions)
    modifiers = bearer_modifiers(ids, "BS", game=game)
    if getattr(request.actor, "fatigue", 0) and "fatigued" not in ids:
        modifiers += bearer_modifiers(["fatigued"], "BS", game=game)
    cleared = clear_jam(request.actor, name, source, modifiers)  # type: ignore[arg-type]
    return list(cleared.steps), list(cleared.effects), False


def _test_modifiers(game: str, chosen: Action, test: str, request: ActionRequest) -> list[Modifier]:
    ids = melee.bound(game, request.actor_standing.conditions)
    if getattr(request.actor, "fatigue", 0) and "fatigued" not in ids:
        ids.append("fatigued")
    own = [Modifier(chosen.label, chosen.test_modifier)] if chosen.test_modifier else []
    given = request.inputs.get(GM_MODIFIER)
    if chosen.gm_modifier and given not in (None, 0):
        if isinstance(given, bool) or not isinstance(given, int | float) or given != int(given):
            problem = Message("imperial.acting.modifier_whole", value=repr(given))
            raise refuse(f"inputs[{GM_MODIFIER!r}]", problem)
        own.append(Modifier(Message("imperial.acting.gm_modifier_source"), int(given)))
    return own + bearer_modifiers(ids, test, game=game)


def _tested(
    game: str, chosen: Action, kind: str, request: ActionRequest, source: DiceSource
) -> Outcome:
    """An action that is a test of a characteristic and ends a condition on a success."""
    test = str(chosen.test)
    removes = chosen.removes
    if (
        removes is not None
        and removes not in split_names(game, request.actor_standing.conditions)[0]
    ):
        label = conditions(game)[removes].label
        raise refuse(
            "action",
            Message("imperial.acting.not_bearing", name=request.actor.name, condition=label),
        )
    value = int(getattr(request.actor.characteristics, test))  # type: ignore[attr-defined]
    modifiers = _test_modifiers(game, chosen, test, request)
    rolled = roll_test(test, value, modifiers, source, chosen.label)
    outcome = Message("imperial.acting.passed" if rolled.success else "imperial.acting.failed")
    effects: list[Effect] = []
    if rolled.success and removes is not None:
        label = conditions(game)[removes].label
        outcome = Message("imperial.acting.ends", condition=label)
        effects.append(lose(game, request.actor.name, removes))
    step = Step(chosen.label, outcome, rolled.explain(), (rolled.roll,), rolled.target)
    return [step], effects, False


_HANDLERS = {
    "aim": _aim,
    "delay": _delay,
    "move": _move,
    "engage": _move,
    "stand_mount": _stand,
    "reload": _reload,
    "clear_jam": _clear_jam,
    "put_out_fire": _tested,
}

__all__ = ["AIM_ROUNDS", "offered", "perform"]
