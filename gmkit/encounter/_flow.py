"""Commands of the turn: initiative, start, next/previous, the action budget, delay and ready,
declared triggers, conditions. The pacing itself is the game's (``systems.turns``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gmkit.dice import DiceSource, DieRoll, EnteredDice, check_dice
from gmkit.encounter._core import EncounterCore, as_json, roll_record
from gmkit.encounter._default_attack import OfferCache
from gmkit.encounter._dues import dues_between, phase_of
from gmkit.encounter._permits import Permit, may_act, may_react, may_take
from gmkit.encounter._situation import Situation, situation_of
from gmkit.encounter._state import Tick
from gmkit.encounter._terms import condition_note
from gmkit.errors import RulesError
from gmkit.games import game as find_game
from gmkit.messages import Message, Text
from gmkit.systems import _choices as choices
from gmkit.systems._initiative import Contender, initiative_die
from gmkit.systems.turns import TurnStructure, turn_structure


class TurnCommands(EncounterCore):
    @property
    def phase(self) -> str:
        """The current phase's name (sides games: "movement", "shooting"...), "" otherwise."""
        return phase_of(self.state)

    def roll_initiative(
        self,
        source: DiceSource,
        *,
        ids: Iterable[str] | None = None,
        by_group: bool = False,
        rest: bool = False,
    ) -> dict[str, int]:
        """Roll 1d10 + the game's base for each combatant (or ``ids``); ``rest``: only for
        those of them without a score yet (the scores the players called out stay), refused
        when everyone has one.

        ``by_group`` (Dark Heresy 001's option): one d10 per group, each member adding its own
        base. Physical dice: pass an ``EnteredDice`` with the values in the order rolled.
        """
        structure = turn_structure(self.game)
        if structure.kind != "initiative":
            raise RulesError(Message("turns.initiative_by_sides", game=self.game))
        chosen = [self.combatant(i) for i in ids] if ids is not None else self.state.present
        if rest and chosen and all(c.initiative is not None for c in chosen):
            raise RulesError(Message("turns.initiative_all_scored"))
        if rest:
            chosen = [c for c in chosen if c.initiative is None]
        if not chosen:
            raise RulesError(Message("turns.initiative_no_one"))
        keys: dict[str, str] = {}
        for combatant in chosen:
            key = combatant.group if by_group and combatant.group else f"#{combatant.id}"
            keys.setdefault(key, combatant.group if key == combatant.group else combatant.name)
        check_dice(source, [(10, initiative_die(label)) for label in keys.values()])
        entries: list[dict[str, Any]] = []
        group_rolls: dict[str, DieRoll] = {}
        for combatant in chosen:
            key = combatant.group if by_group and combatant.group else f"#{combatant.id}"
            if key not in group_rolls:
                label = combatant.group if key == combatant.group else combatant.name
                group_rolls[key] = source.roll_die(10, initiative_die(label))
            roll = group_rolls[key]
            entries.append(
                {
                    "id": combatant.id,
                    "base": combatant.initiative_base,
                    "roll": roll_record(roll),
                    "score": roll.value + combatant.initiative_base,
                }
            )
        self._append({"kind": "initiative", "entries": entries})
        return {entry["id"]: entry["score"] for entry in entries}

    def set_initiative(
        self, ident: str, score: int | None = None, *, die: int | str | None = None
    ) -> int:
        """The GM types a combatant's initiative: its ``score`` (the total a player called
        out), or the ``die`` as rolled at the table (the d10: the game's base is added, and
        the log keeps it as a physical die). Returns the score."""
        combatant = self.combatant(ident)
        base = combatant.initiative_base
        roll: dict[str, Any] | None = None
        if die is not None and score is None:
            typed = EnteredDice([die]).roll_die(10, initiative_die(combatant.name))
            roll, total = roll_record(typed), typed.value + base
        elif score is not None and die is None:
            total = int(score)
        else:
            raise RulesError(Message("turns.initiative_score_or_die", name=combatant.name))
        entry = {"id": combatant.id, "base": base, "roll": roll, "score": total}
        self._append({"kind": "initiative", "entries": [entry]})
        return total

    def start(self, source: DiceSource | None = None, *, surprised: Iterable[str] = ()) -> None:
        """Begin round 1. Surprised combatants (ids or names) lose the first round."""
        state = self.state
        surprised_ids = [self.combatant(s).id for s in surprised]
        event: dict[str, Any] = {"kind": "started", "surprised": surprised_ids}
        if turn_structure(self.game).kind == "initiative":
            missing = [c.name for c in state.present if c.initiative is None]
            if missing:
                raise RulesError(Message("turns.initiative_missing", names=tuple(missing)))
            contenders = [
                Contender(c.id, c.name, c.initiative or 0, c.initiative_base) for c in state.present
            ]
            order, roll_offs = find_game(self.game).acting.initiative_order(contenders, source)
            event["order"] = order
            event["rolls"] = [roll_record(roll) for roll in roll_offs]
        self._append(self._with_dues(event))

    def next_turn(self) -> None:
        """End the current turn (or phase) and begin the next, ticking conditions; the rolls
        the moments passed ask for (on fire, recovery...) are listed in ``state.due``."""
        self._append(self._with_dues({"kind": "turn", "direction": 1}))

    def _with_dues(self, event: dict[str, Any]) -> dict[str, Any]:
        """``event`` (a turn change) with the rolls due it asks for (:mod:`.dues`)."""
        after = self._log.check(as_json(event))
        owed = [due for due in self.state.due if not due.dice]  # decisions stay until made
        event["due"] = [due.to_json() for due in (*owed, *dues_between(self.state, after))]
        return event

    def previous_turn(self) -> None:
        """Step back to the previous actor (or phase); conditions do not tick back: use undo
        to take back a turn change exactly."""
        self._append({"kind": "turn", "direction": -1})

    # --- the action budget -------------------------------------------------------------

    def may(self, ident: str, action_type: str, *, action: str = "") -> Permit:
        """May combatant ``ident`` take an action of ``action_type`` now, and if not, why
        (:mod:`gmkit.encounter._permits`: the one rule every command and panel asks);
        ``action`` names the catalog's action, for the conditions that allow only some."""
        structure = self.structure
        return may_act(self.state, self.combatant(ident), action_type, structure, action=action)

    def may_take(self, ident: str, action: str) -> Permit:
        """May combatant ``ident`` take the action ``action`` of the game's catalog now: as the
        first of the types the catalog gives it (half/full...) that the budget allows."""
        types = choices.action_types(self.game, action)
        structure = self.structure
        return may_take(self.state, self.combatant(ident), types, structure, action=action)

    def may_react(self, ident: str, reaction: str) -> Permit:
        """May combatant ``ident`` take ``reaction`` (dodge, parry) now, and if not, why."""
        return may_react(self.state, self.combatant(ident), reaction, self.structure)

    @property
    def situation(self) -> Situation:
        """Who acts now and what each combatant may do (:mod:`gmkit.encounter._situation`),
        worked out once per state: every panel reads this one answer."""
        state = self.state
        kept = self._situation
        if kept is None or kept[0] is not state:
            kept = self._situation = (state, situation_of(state, self.offers))
        return kept[1]

    @property
    def offers(self) -> OfferCache:
        """The rules' offers for each attacker, kept across states (the situation's default
        attack and the attack panels read them)."""
        kept = self._offers
        if kept is None:
            kept = self._offers = OfferCache()
        return kept

    @property
    def structure(self) -> TurnStructure:
        """The game's pacing: pools, costs, phases (:class:`~gmkit.systems.turns.TurnStructure`)."""
        return turn_structure(self.game)

    def spend(
        self, ident: str, action_type: str, *, action: str = "", override: str | None = None
    ) -> None:
        """Spend an action of ``action_type`` (full, half, free... or move, shoot for the D6
        games). What :meth:`may` refuses (over budget, out of turn or side, surprised in round
        1) is refused unless the GM gives an ``override`` reason, which the log records with
        what it overrode. A combatant who delayed spends its kept half action out of turn
        (``"half"``). Only an attack gives a hidden combatant away (the game's attack
        actions: a Standard Attack, Necromunda's shot...); a Ready, an Aim or a move keeps
        it hidden until the GM reveals it."""
        structure = self.structure
        if action_type not in structure.action_costs:
            known = tuple(structure.action_costs)
            raise RulesError(
                Message("turns.unknown_action_type", action_type=repr(action_type), known=known)
            )
        if not self.state.started:
            raise RulesError(Message("turns.not_started_spend"))
        permit = self.may(ident, action_type, action=action)
        who = self.combatant(ident)
        event = spent_event(who.id, permit, action, override)
        if who.hidden:  # an attack of the game's catalog (Necromunda's: a shot) gives him away
            attacks = {choice.id for choice in choices.actions(self.game)}
            event = self._with_reveal(event, who.id, bool({action, action_type} & attacks))
        self._append(event)

    def react(self, ident: str, reaction: str, *, override: str | None = None) -> None:
        """Spend a reaction (dodge, parry) from this round's allowance (what :meth:`may_react`
        allows: ``systems.turns.reaction_problems``, the rule the games' resolvers count by)."""
        structure = self.structure
        if reaction not in structure.reaction_costs:
            known: tuple[Text, ...] = tuple(structure.reaction_costs) or (Message("turns.none"),)
            raise RulesError(
                Message("turns.unknown_reaction", reaction=repr(reaction), known=known)
            )
        if not self.state.started:
            raise RulesError(Message("turns.not_started_react"))
        permit = self.may_react(ident, reaction)
        who = self.combatant(ident).id
        event = self._with_reveal(spent_event(who, permit, "", override), who, False)
        lapsed = find_game(self.game).acting.lapsed_by_reaction(self.combatant(ident).conditions)
        if lapsed:
            event["lapsed"] = list(lapsed)
        self._append(event)

    # --- delay, ready, triggers -------------------------------------------------------

    def delay(self, ident: str) -> None:
        """Delay (a half action): the turn ends, keeping a half action to use before the
        actor's next turn (:meth:`spend` with ``"half"``); unused, it is lost then."""
        structure = turn_structure(self.game)
        combatant = self.combatant(ident)
        if structure.kind != "initiative":
            raise RulesError(Message("turns.delay_by_sides", game=self.game))
        current = self.state.current
        if current is None or current.id != combatant.id:
            raise RulesError(Message("turns.delay_not_turn", name=combatant.name))
        costs = structure.action_costs["half"]
        for pool, cost in costs.items():
            left = structure.turn_pools[pool] - combatant.spent.get(pool, 0)
            if left < cost:
                raise RulesError(Message("turns.delay_no_half", name=combatant.name))
        event = {"kind": "delayed", "id": combatant.id, "waiting": True, "pools": dict(costs)}
        self._append(self._with_dues(event))

    def delayed_first(self, first: str, second: str, source: DiceSource) -> str:
        """Two delayed actions at once: an opposed Agility test says who acts first (a tie,
        or two failures, goes to the higher Agility, then to ``first``)."""
        if turn_structure(self.game).kind != "initiative":
            raise RulesError(Message("turns.delay_by_sides", game=self.game))
        a, b = self.combatant(first), self.combatant(second)
        if a.id == b.id:
            raise RulesError(Message("turns.delay_self", name=a.name))
        for who in (a, b):
            if not who.delayed:
                raise RulesError(Message("turns.delay_not_waiting", name=who.name))
        rules = find_game(self.game).acting
        winner, rolls = rules.delayed_first(a.sheet, b.sheet, source)
        chosen = (a, b)[winner]
        self._append(
            {
                "kind": "note",
                "text": Message("turns.acts_first", name=chosen.name).to_json(),
                "rolls": [roll_record(roll) for roll in rolls],
            }
        )
        return chosen.id

    def ready(self, ident: str, action: str) -> None:
        self._append({"kind": "readied", "id": self.combatant(ident).id, "action": action})

    def declare_trigger(
        self, ident: str, trigger: str, detail: str = "", *, rounds: int | None = 1
    ) -> None:
        """Queue a declared trigger (overwatch...) until it fires, is cancelled, or expires at
        the end of round ``current round + rounds`` (None: never), with a reminder."""
        if rounds is not None and rounds < 1:
            raise RulesError(Message("turns.rounds_at_least_one", rounds=rounds))
        expires = None if rounds is None else self.state.round + rounds
        self._append(
            {
                "kind": "trigger",
                "id": self.combatant(ident).id,
                "trigger": trigger,
                "detail": detail,
                "expires_round": expires,
            }
        )

    def fire_trigger(self, index: int) -> None:
        self._append({"kind": "trigger_done", "index": index, "outcome": "fired"})

    def cancel_trigger(self, index: int) -> None:
        self._append({"kind": "trigger_done", "index": index, "outcome": "cancelled"})

    # --- conditions ---------------------------------------------------------------------

    def add_condition(
        self,
        ident: str,
        name: str,
        *,
        rounds: int | None = None,
        ticks: Tick = "end_of_turn",
        reminder: str = "",
    ) -> Message | None:
        """Put ``name`` on a combatant for ``rounds`` (None: until removed), counting down
        when ``ticks`` says (start or end of the bearer's turn, or end of round). Returns why
        it is a note no rule reads (a name the game does not declare, or a payload its
        condition does not carry), None for a condition of the game: the GM is told so."""
        self._append(
            {
                "kind": "condition",
                "id": self.combatant(ident).id,
                "name": name,
                "rounds": rounds,
                "ticks": ticks,
                "reminder": reminder,
            }
        )
        return condition_note(self.game, name)

    def remove_condition(self, ident: str, name: str) -> None:
        self._append({"kind": "condition_removed", "id": self.combatant(ident).id, "name": name})


def spent_event(
    ident: str, permit: Permit, action: str = "", override: str | None = None
) -> dict[str, Any]:
    """The event (or an attack's part) spending what ``permit`` prices: refused with the
    permit's reasons unless the GM gives an ``override`` reason (kept with what it overrode)."""
    if not permit.allowed and override is None:
        raise RulesError(Message("turns.over_budget", problems=permit.reasons))
    event: dict[str, Any] = {"kind": "spent", "id": ident, "pools": dict(permit.pools)}
    if permit.reaction:
        event["reaction"] = permit.action_type
    else:
        event["type"] = permit.action_type
        event["action"] = action
    if permit.delayed_action:
        event["delayed_action"] = True
    if override is not None:
        event["override"] = override or "GM's call"
        event["problems"] = [reason.to_json() for reason in permit.reasons]
    return event
