"""Commands of the turn: initiative, start, next/previous, the action budget, delay and ready,
declared triggers, conditions. The pacing itself is the game's (``systems.turns``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gmkit.dice import DiceSource, DieRoll
from gmkit.encounter.core import EncounterCore, check_dice, roll_record
from gmkit.encounter.state import Combatant, Tick
from gmkit.errors import RulesError
from gmkit.systems.percentile import opposed_winner, roll_test
from gmkit.systems.turns import reaction_problems, turn_structure


class TurnCommands(EncounterCore):
    def roll_initiative(
        self, source: DiceSource, *, ids: Iterable[str] | None = None, by_group: bool = False
    ) -> dict[str, int]:
        """Roll 1d10 + the game's base for each combatant (or ``ids``).

        ``by_group`` (Dark Heresy 001's option): one d10 per group, each member adding its own
        base. Physical dice: pass an ``EnteredDice`` with the values in the order rolled.
        """
        structure = turn_structure(self.game)
        if structure.kind != "initiative":
            raise RulesError(f"initiative: {self.game} plays by sides, not initiative")
        chosen = [self.combatant(i) for i in ids] if ids is not None else self.state.present
        if not chosen:
            raise RulesError("initiative: no one to roll for")
        keys = {}
        for combatant in chosen:
            key = combatant.group if by_group and combatant.group else f"#{combatant.id}"
            keys.setdefault(key, combatant.group if key == combatant.group else combatant.name)
        check_dice(source, [(10, f"initiative: {label}") for label in keys.values()])
        entries, group_rolls = [], {}
        for combatant in chosen:
            key = combatant.group if by_group and combatant.group else f"#{combatant.id}"
            if key not in group_rolls:
                label = combatant.group if key == combatant.group else combatant.name
                group_rolls[key] = source.roll_die(10, f"initiative: {label}")
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

    def set_initiative(self, ident: str, score: int) -> None:
        """The GM types a combatant's initiative score."""
        combatant = self.combatant(ident)
        self._append(
            {
                "kind": "initiative",
                "entries": [
                    {
                        "id": combatant.id,
                        "base": combatant.initiative_base,
                        "roll": None,
                        "score": score,
                    }
                ],
            }
        )

    def start(self, source: DiceSource | None = None, *, surprised: Iterable[str] = ()) -> None:
        """Begin round 1. Surprised combatants (ids or names) lose the first round."""
        state = self.state
        surprised_ids = [self.combatant(s).id for s in surprised]
        event: dict[str, Any] = {"kind": "started", "surprised": surprised_ids}
        if turn_structure(self.game).kind == "initiative":
            missing = [c.name for c in state.present if c.initiative is None]
            if missing:
                raise RulesError(f"initiative: not yet rolled for {', '.join(missing)}")
            order, roll_offs = initiative_order(state.present, source)
            event["order"] = order
            event["rolls"] = [roll_record(roll) for roll in roll_offs]
        self._append(event)

    def next_turn(self) -> None:
        """End the current turn (or phase) and begin the next, ticking conditions."""
        self._append({"kind": "turn", "direction": 1})

    def previous_turn(self) -> None:
        """Step back to the previous actor (or phase); conditions do not tick back: use undo
        to take back a turn change exactly."""
        self._append({"kind": "turn", "direction": -1})

    # --- the action budget -------------------------------------------------------------

    def spend(
        self, ident: str, action_type: str, *, action: str = "", override: str | None = None
    ) -> None:
        """Spend an action of ``action_type`` (full, half, free... or move, shoot for the D6
        games). Over budget, out of turn (or side), or surprised in round 1 is refused, unless
        the GM gives an ``override`` reason, which the log records with what it overrode. A
        combatant who delayed spends its kept half action out of turn (``"half"``). Any action
        but a free one gives a hidden combatant away (in the sides games, where no turn of its
        own reveals it)."""
        structure = turn_structure(self.game)
        if action_type not in structure.action_costs:
            known = ", ".join(structure.action_costs)
            raise RulesError(f"action type: {action_type!r} is not one of {known}")
        combatant = self.combatant(ident)
        state = self.state
        if not state.started:
            raise RulesError("spend: the encounter has not started")
        costs = structure.action_costs[action_type]
        problems: list[str] = []
        delayed_action = False
        if combatant.surprised and state.round == 1:
            problems.append(f"{combatant.name} is surprised and loses the first round")
        if structure.kind == "initiative":
            current = state.current
            own_turn = current is not None and current.id == combatant.id
            if not own_turn and action_type != "free":
                if combatant.delayed:
                    delayed_action = True
                    if action_type != "half":
                        problems.append(
                            f"{combatant.name}'s delayed action is a half action, "
                            f"not a {action_type} action"
                        )
                else:
                    whose = f"{current.name}'s" if current is not None else "no one's"
                    problems.append(f"it is {whose} turn, not {combatant.name}'s")
        elif action_type != "free" and combatant.side != state.current_side:
            problems.append(f"it is {state.current_side}'s turn, not {combatant.side}'s")
        if not delayed_action:
            problems += [
                f"{combatant.name} has {structure.turn_pools[pool] - combatant.spent.get(pool, 0)}"
                f" {pool} left this turn, the {action_type} action needs {cost}"
                for pool, cost in costs.items()
                if combatant.spent.get(pool, 0) + cost > structure.turn_pools[pool]
            ]
        if problems and override is None:
            raise RulesError("over budget: " + "; ".join(problems))
        event: dict[str, Any] = {
            "kind": "spent",
            "id": combatant.id,
            "type": action_type,
            "action": action,
            "pools": dict(costs),
        }
        if delayed_action:
            event["delayed_action"] = True
        if override is not None:
            event["override"] = override or "GM's call"
            event["problems"] = problems
        self._append(event)

    def react(self, ident: str, reaction: str, *, override: str | None = None) -> None:
        """Spend a reaction (dodge, parry) from this round's allowance (``systems.turns``:
        ``reaction_problems``, the rule the games' resolvers count by too)."""
        structure = turn_structure(self.game)
        if reaction not in structure.reaction_costs:
            known = ", ".join(structure.reaction_costs) or "none"
            raise RulesError(f"reaction: {reaction!r} is not one of {known}")
        combatant = self.combatant(ident)
        if not self.state.started:
            raise RulesError("react: the encounter has not started")
        problems = []
        if combatant.surprised and self.state.round == 1:
            problems.append(f"{combatant.name} is surprised and loses the first round")
        # the round's pools under the combatant's conditions (All Out Attack, Defensive Stance)
        problems += reaction_problems(
            self.game, combatant.name, combatant.conditions, combatant.reactions, reaction
        )
        if problems and override is None:
            raise RulesError("over budget: " + "; ".join(problems))
        event = {
            "kind": "spent",
            "id": combatant.id,
            "reaction": reaction,
            "pools": dict(structure.reaction_costs[reaction]),
        }
        if override is not None:
            event["override"] = override or "GM's call"
            event["problems"] = problems
        self._append(event)

    # --- delay, ready, triggers -------------------------------------------------------

    def delay(self, ident: str) -> None:
        """Delay (a half action): the turn ends, keeping a half action to use before the
        actor's next turn (:meth:`spend` with ``"half"``); unused, it is lost then."""
        structure = turn_structure(self.game)
        combatant = self.combatant(ident)
        if structure.kind != "initiative":
            raise RulesError(f"delay: {self.game} plays by sides, not initiative")
        current = self.state.current
        if current is None or current.id != combatant.id:
            raise RulesError(f"delay: it is not {combatant.name}'s turn")
        costs = structure.action_costs["half"]
        for pool, cost in costs.items():
            left = structure.turn_pools[pool] - combatant.spent.get(pool, 0)
            if left < cost:
                raise RulesError(f"delay: {combatant.name} has no half action left to delay")
        self._append({"kind": "delayed", "id": combatant.id, "waiting": True, "pools": dict(costs)})

    def delayed_first(self, first: str, second: str, source: DiceSource) -> str:
        """Two delayed actions at once: an opposed Agility test says who acts first (a tie,
        or two failures, goes to the higher Agility, then to ``first``)."""
        if turn_structure(self.game).kind != "initiative":
            raise RulesError(f"delay: {self.game} plays by sides, not initiative")
        a, b = self.combatant(first), self.combatant(second)
        if a.id == b.id:
            raise RulesError(f"delay: {a.name} cannot collide with themself")
        for who in (a, b):
            if not who.delayed:
                raise RulesError(f"delay: {who.name} has no delayed action waiting")
        check_dice(source, [(100, f"delayed action: {c.name}") for c in (a, b)])
        tests = [
            roll_test(
                "Ag",
                c.sheet.characteristics.Ag,  # type: ignore[attr-defined]
                [],
                source,
                f"delayed action: {c.name}",
                cap=None,
            )
            for c in (a, b)
        ]
        winner = opposed_winner(tests[0], tests[1])
        if winner is None:
            winner = 0 if tests[0].target >= tests[1].target else 1
        chosen = (a, b)[winner]
        self._append(
            {
                "kind": "note",
                "text": f"{chosen.name} acts first (opposed Agility)",
                "rolls": [roll_record(t.roll) for t in tests],
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
            raise RulesError(f"rounds: must be 1 or more (got {rounds})")
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
    ) -> None:
        """Put ``name`` on a combatant for ``rounds`` (None: until removed), counting down
        when ``ticks`` says (start or end of the bearer's turn, or end of round)."""
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

    def remove_condition(self, ident: str, name: str) -> None:
        self._append({"kind": "condition_removed", "id": self.combatant(ident).id, "name": name})


def initiative_order(
    combatants: Iterable[Combatant], source: DiceSource | None
) -> tuple[list[str], list[DieRoll]]:
    """Ids from the highest score; ties to the higher base, then a d10 roll-off from
    ``source`` (higher first), rolled again among those still tied."""
    chosen = list(combatants)
    tied: dict[tuple[int, int], list[Combatant]] = {}
    for c in chosen:
        tied.setdefault((c.initiative or 0, c.initiative_base), []).append(c)
    roll_offs: dict[str, tuple[int, ...]] = {c.id: () for c in chosen}
    rolled: list[DieRoll] = []
    pending = [group for group in tied.values() if len(group) > 1]
    if pending and source is None:
        names = ", ".join(c.name for c in pending[0])
        raise RulesError(f"initiative: {names} are tied; the roll-off needs dice")
    for _ in range(100):
        if not pending or source is None:
            break
        check_dice(source, [(10, f"initiative roll-off: {c.name}") for g in pending for c in g])
        for group in pending:
            for c in group:
                roll = source.roll_die(10, f"initiative roll-off: {c.name}")
                rolled.append(roll)
                roll_offs[c.id] = (*roll_offs[c.id], roll.value)
        still: list[list[Combatant]] = []
        for group in pending:
            by_rolls: dict[tuple[int, ...], list[Combatant]] = {}
            for c in group:
                by_rolls.setdefault(roll_offs[c.id], []).append(c)
            still += [g for g in by_rolls.values() if len(g) > 1]
        pending = still
    else:
        raise RulesError("initiative: the roll-off is still tied after 100 rolls")
    ranked = sorted(
        chosen,
        key=lambda c: (c.initiative or 0, c.initiative_base, roll_offs[c.id]),
        reverse=True,
    )
    return [c.id for c in ranked], rolled
