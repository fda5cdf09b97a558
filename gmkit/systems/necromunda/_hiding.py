"""Necromunda hiding: who may hide, what ends it, and automatic detection.

- A fighter may hide when it ends its move where a person could reasonably hide (behind a
  column or low wall, at a corner: the GM confirms), and not in a turn it ran or charged.
- While hidden it cannot be seen or shot, even if part of the model shows. It may stay hidden
  for several turns and may move while staying out of sight.
- It stops being hidden when it shoots, when it moves where it can be seen, or when an enemy
  reaches a position with an unobstructed view of it.
- An enemy always detects hidden fighters within its Initiative in inches times the
  ``spotting_multiplier`` setting (``settings.yaml``; the text says triple but its example uses
  1x: the seed README sets 1). A fighter cannot hide that close to an enemy.

Choices where the texts are silent:

- Within the spotting range means at a distance of at most I x multiplier inches (the text:
  "igual o inferior").
- A down fighter does not hide: it does nothing but crawl (seed 000, "no podrá llevar a cabo
  ninguna acción excepto arrastrarse"); the rules of the turn refuse it
  (:mod:`~gmkit.systems.necromunda._acting`), these checks do not look at it.
- Losing hiding is an effect ``remove_condition`` "hidden"; hiding is ``condition`` "hidden".
"""

from __future__ import annotations

from collections.abc import Sequence

from gmkit.messages import Message
from gmkit.sheets._necromunda import NecromundaFighter
from gmkit.systems.base import Effect, Step
from gmkit.systems.necromunda._conditions import BOOK
from gmkit.systems.necromunda._state import Check, FighterState, Settings


def spotting_multiplier() -> int:
    """The multiplier of Initiative for automatic detection (setting; seed README: 1)."""
    return Settings.packaged().spotting_multiplier


def spotting_range(spotter: NecromundaFighter, multiplier: int | None = None) -> int:
    """Inches within which ``spotter`` detects hidden enemies: I x the multiplier."""
    return spotter.I * (spotting_multiplier() if multiplier is None else multiplier)


def detects(spotter: NecromundaFighter, distance: float, multiplier: int | None = None) -> bool:
    """Does ``spotter`` automatically detect a hidden enemy ``distance`` inches away?"""
    return distance <= spotting_range(spotter, multiplier)


def hide_checks(
    state: FighterState,
    behind_cover: bool,
    enemies: Sequence[tuple[NecromundaFighter, float]] = (),
    multiplier: int | None = None,
) -> tuple[Check, ...]:
    """May a fighter in ``state`` hide where it ended its move?

    ``behind_cover``: the GM confirms the spot would hide a person. ``enemies``: each enemy
    fighter with its distance in inches (the near ones spot it anyway).
    """
    checks = [
        Check("on the table", not state.out_of_action, Message("necromunda.reason.gone")),
        Check("behind cover", behind_cover, Message("necromunda.reason.hiding_place")),
        Check(
            "moved fast",
            state.moved not in ("run", "charge", "failed_charge"),
            Message("necromunda.reason.ran_hides"),
        ),
        Check(
            "engaged",
            "engaged" not in BOOK.barring(state.names(), "move", "hide"),
            Message("necromunda.reason.engaged_hides"),
        ),
    ]
    spotters = tuple(
        enemy.name for enemy, distance in enemies if detects(enemy, distance, multiplier)
    )
    if spotters:
        near = Message("necromunda.reason.spotted_by", names=spotters)
    else:
        near = Message("necromunda.reason.no_enemy_near")
    checks.append(Check("too close", not spotters, near))
    return tuple(checks)


def hide(
    fighter: NecromundaFighter,
    state: FighterState,
    behind_cover: bool,
    enemies: Sequence[tuple[NecromundaFighter, float]] = (),
    multiplier: int | None = None,
) -> tuple[Step, tuple[Effect, ...]]:
    """Declare a fighter hidden: the step explaining the verdict, and the effect if allowed."""
    checks = hide_checks(state, behind_cover, enemies, multiplier)
    refused = [check for check in checks if not check.passed]
    title = Message("necromunda.step.hide")
    if refused:
        reasons = Message("common.join", parts=tuple(c.reason for c in refused))
        return Step(title, Message("necromunda.hide.refused"), reasons), ()
    counter = Message("necromunda.effect.hidden")
    effect = Effect("condition", fighter.name, condition="hidden", note=counter)
    return Step(title, Message("necromunda.hide.hidden"), Message("necromunda.hide.unseen")), (
        effect,
    )


def hiding_lost(
    fighter: NecromundaFighter,
    *,
    shot: bool = False,
    seen_moving: bool = False,
    enemy_view: bool = False,
    spotters: Sequence[tuple[NecromundaFighter, float]] = (),
    multiplier: int | None = None,
) -> tuple[Step, tuple[Effect, ...]]:
    """Whether a hidden fighter stops being hidden, and why.

    ``shot``: it fired. ``seen_moving``: it moved where it can be seen. ``enemy_view``: an enemy
    has an unobstructed view of it. ``spotters``: enemies with their distances (detection).
    """
    reasons = [
        Message(reason)
        for happened, reason in (
            (shot, "necromunda.hidden.lost_shot"),
            (seen_moving, "necromunda.hidden.lost_seen_moving"),
            (enemy_view, "necromunda.hidden.lost_enemy_view"),
        )
        if happened
    ]
    reasons += [
        Message(
            "necromunda.hidden.lost_spotted",
            name=enemy.name,
            distance=distance,
            range=spotting_range(enemy, multiplier),
        )
        for enemy, distance in spotters
        if detects(enemy, distance, multiplier)
    ]
    title = Message("necromunda.step.hidden")
    if not reasons:
        return Step(title, Message("necromunda.hidden.stays")), ()
    effect = Effect("remove_condition", fighter.name, condition="hidden")
    joined = Message("common.join", parts=tuple(reasons))
    return Step(title, Message("necromunda.hidden.lost"), joined), (effect,)
