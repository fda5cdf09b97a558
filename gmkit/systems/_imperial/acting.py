"""The rules of the turn of Dark Heresy and Deathwatch beyond attacks (``TurnRules``).

:class:`ImperialTurns` (one for each game, ``ImperialTurns("dark_heresy")``) reads the
game's catalogs, so that a GM's data files change it:

- ``restrictions``: what the conditions a combatant bears forbid it: the game's condition book
  (:mod:`.kinds`), from their ``flags`` and ``only_actions`` in conditions.yaml.
  ``no_actions`` (stunned, unconscious, surprised): nothing at all, free actions included (and
  no reaction where ``no_reactions`` is flagged too); ``one_half_action`` (Dark Heresy's
  pinned, 001): one half action's worth of the turn's ``actions`` pool
  (``systems.imperial.pacing.FORTY_K``), free actions besides; ``half_actions_only`` (Deathwatch's
  pinned, 004): half and free actions only; ``only_actions`` (grappled, broken):
  those actions only; ``no_reactions`` alone (helpless, unaware, in a grapple): no Dodge nor
  Parry. The game's fallen conditions (dead) are the permits' own and give none here, nor do
  the conditions whose reactions ``systems.percentile_turns.REACTION_CONDITIONS`` counts (All
  Out Attack).
- ``actions`` / ``perform_action``: the actions of actions.yaml that are no attack and no
  reaction (``acting_actions``): Aim, Brace, Ready, Delay, Move, Run, Reload, Clear Jam...
- ``lapsed_by_reaction``: what a reaction ends, the book's ``ended``: Aim's bonus (004: lost
  if a reaction comes first; conditions.yaml ``ends: [when_acts]``).
- ``turn_rolls`` / ``roll_due``: the reminders of conditions.yaml that roll something
  (``acting_dues``): on fire, blood loss, the pinned Willpower test.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gmkit.dice import DiceSource
from gmkit.messages import Message
from gmkit.systems._imperial import acting_actions, acting_dues
from gmkit.systems._imperial.actions import Action, check_game, turn_actions
from gmkit.systems._imperial.actions import actions as catalog
from gmkit.systems._imperial.criticals import CriticalPrompt
from gmkit.systems._imperial.kinds import book
from gmkit.systems._imperial.restrictions import restriction_of
from gmkit.systems.acting import (
    ActionInfo,
    ActionRequest,
    ActionResult,
    AgilityTieBreaks,
    Bearer,
    Due,
    Moment,
    NoTurnRules,
    Restriction,
)
from gmkit.systems.base import Choice, Effect


class ImperialTurns(AgilityTieBreaks, NoTurnRules):
    """Dark Heresy's or Deathwatch's rules of the turn (see the module docstring)."""

    rolls_need_conditions = True  # the reminders of the conditions borne

    def __init__(self, game: str) -> None:
        self.game = check_game(game)
        # the actions offered, kept while the catalogs they come from are the same objects
        self._offered: tuple[tuple[object, ...], tuple[ActionInfo, ...]] | None = None

    def __repr__(self) -> str:
        return f"ImperialTurns({self.game!r})"

    def restrictions(self, conditions: Iterable[str]) -> tuple[Restriction, ...]:
        """The game's book's (in melee pinned binds no more: 001, 004)."""
        return book(self.game).restrictions(conditions)

    def actions(self) -> tuple[ActionInfo, ...]:
        """The actions of the catalogs that are no attack and no reaction (built once while
        the catalogs are the same: a panel asks for one action's entry many times a click)."""
        source = (catalog(self.game), turn_actions(self.game))
        kept = self._offered
        if kept is not None and all(a is b for a, b in zip(kept[0], source, strict=True)):
            return kept[1]
        found = tuple(
            ActionInfo(
                item.id,
                item.label,
                tuple(kind for kind in item.types if kind != "reaction"),
                target=item.target,
                weapon=item.weapon,
                inputs=_inputs(item),
            )
            for item in acting_actions.offered(self.game)
        )
        self._offered = (source, found)
        return found

    def perform_action(self, request: ActionRequest, source: DiceSource) -> ActionResult:
        return acting_actions.perform(self.game, request, source)

    def lapsed_by_reaction(self, conditions: Iterable[str]) -> tuple[str, ...]:
        return book(self.game).ended(conditions, "reaction")

    def turn_rolls(self, moment: Moment, bearer: Bearer) -> tuple[Due, ...]:
        return acting_dues.turn_rolls(self.game, moment, bearer)

    def roll_due(self, due: Due, bearer: Bearer, source: DiceSource) -> ActionResult:
        found = acting_dues.roll_due(self.game, due, bearer, source)
        return found if found is not None else super().roll_due(due, bearer, source)

    def decisions(self, effects: Sequence[Effect]) -> tuple[Due, ...]:
        """A critical no GM table covers: the GM gives its effect (the seeds lost the tables)."""
        found = []
        for effect in effects:
            prompt = CriticalPrompt.from_effect(effect, self.game)
            if prompt is not None:
                found.append(Due("critical", prompt.message, (), True, effect.target))
        return tuple(found)


def _inputs(item: Action) -> tuple[Choice, ...]:
    """The inputs an action declares: Move's "into melee"; a GM's modifier to the test of an
    action whose entry allows one (``gm_modifier``: Put Out Fire, 004)."""
    found: list[Choice] = []
    if item.id == "move":
        label = Message("imperial.acting.input.engages")
        help_text = Message("imperial.acting.input.engages_help")
        found.append(Choice("engages", label, "flag", help=help_text))
    if item.gm_modifier:
        label = Message("imperial.acting.input.modifier")
        help_text = Message("imperial.acting.input.modifier_help")
        found.append(Choice(acting_actions.GM_MODIFIER, label, "number", help=help_text))
    return tuple(found)


DARK_HERESY = ImperialTurns("dark_heresy")
DEATHWATCH = ImperialTurns("deathwatch")

__all__ = ["DARK_HERESY", "DEATHWATCH", "ImperialTurns", "restriction_of"]
