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
- A down fighter may hide after its crawl (the text only forbids running and charging).
- Losing hiding is an effect ``remove_condition`` "hidden"; hiding is ``condition`` "hidden".
"""

from __future__ import annotations

from collections.abc import Sequence

from gmkit.sheets.necromunda import NecromundaFighter
from gmkit.systems.base import Effect, Step
from gmkit.systems.necromunda.state import Check, FighterState, Settings


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
        Check("on the table", not state.out_of_action, "out of action fighters are gone"),
        Check("behind cover", behind_cover, "it must end its move where a person could hide"),
        Check(
            "moved fast",
            state.moved not in ("run", "charge", "failed_charge"),
            "no hiding in a turn the fighter ran or charged",
        ),
        Check("engaged", not state.engaged, "a fighter in close combat cannot hide"),
    ]
    spotters = [enemy.name for enemy, distance in enemies if detects(enemy, distance, multiplier)]
    checks.append(
        Check(
            "too close",
            not spotters,
            f"within the spotting range of {', '.join(spotters)}" if spotters else "no enemy near",
        )
    )
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
    if refused:
        return Step("Hide", "may not hide", "; ".join(c.reason for c in refused)), ()
    effect = Effect("condition", fighter.name, condition="hidden", note="hidden counter")
    return Step("Hide", "hidden", "cannot be seen or shot while hidden"), (effect,)


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
        reason
        for happened, reason in (
            (shot, "it shot"),
            (seen_moving, "it moved into sight"),
            (enemy_view, "an enemy sees it unobstructed"),
        )
        if happened
    ]
    reasons += [
        f'{enemy.name} is {distance:g}" away, within {spotting_range(enemy, multiplier)}"'
        for enemy, distance in spotters
        if detects(enemy, distance, multiplier)
    ]
    if not reasons:
        return Step("Hidden", "stays hidden"), ()
    effect = Effect("remove_condition", fighter.name, condition="hidden")
    return Step("Hidden", "no longer hidden", "; ".join(reasons)), (effect,)
