"""Necromunda's conditions (seed 000 and the seed README), declared: what each forbids and when
it ends.

The book (:data:`BOOK`, the rules' ``conditions``) is the one mapping from a condition to its
restrictions: the encounter's permits read it (:meth:`~gmkit.systems.necromunda._acting.
NecromundaTurns.restrictions`) and so do the resolvers, which ask it whether a shot, a move or
a hiding is barred (``shooting.shooter_checks``, ``movement.move_checks``,
``hiding.hide_checks``), each check keeping its own words:

- ``out of action``: out of the fight (the encounter passes over its turns).
- ``down``: it may only crawl (a move of the movement budget, seed 000); a ``pinned`` it still
  bears binds no more (the rules read down first).
- ``pinned``: no move, no shot in its turn (seed README); its rounds are counted on the
  bearer's turns (a shot's pin through the fighter's next turn, a recovery's through the turn
  after: :func:`gmkit.systems.necromunda.apply_effect`).
- ``failed_charge``: nothing else that turn (seed 000); ``run``, ``charging``: no shot that
  turn; each until its side's next turn begins (the movement rules' effects, rounds 1).
- ``engaged``: in close combat: no shot, no charge, no hiding (seed 000).
- ``hidden``: shooting gives it away (the shot's resolver ends it: ``after_attack``); running,
  charging, ending a move in view or being spotted end it too (the movement rules' effects).
- ``flesh wound``, ``crawl``, ``compulsory``: no restriction (a flesh wound is on the sheet;
  the others say how the fighter moved).

None carries anything after a colon: a name with one is the GM's note.
"""

from __future__ import annotations

from gmkit.systems._conditions import ConditionBook, Ending, declared, kind

GAME = "necromunda"
NOT_SHOOTING = frozenset({"move", "run", "charge", "fight", "free"})
"""The budget types a runner or charger still has: every one of the game's but ``shoot``."""
IN_COMBAT = frozenset({"move", "run", "fight", "free"})
"""The budget types a fighter engaged in close combat still has: no shot, no charge."""
_TURNS: tuple[Ending, ...] = ("turns",)

BOOK: ConditionBook = declared(
    GAME,
    (
        kind(GAME, "out of action", fallen=True),
        kind(
            GAME,
            "down",
            why="necromunda.restriction.down",
            types=frozenset({"move"}),
            actions=frozenset({"crawl"}),
        ),
        kind(
            GAME,
            "pinned",
            why="necromunda.restriction.pinned",
            no_actions=True,
            suspended_by=frozenset({"down"}),
            ends=_TURNS,
        ),
        kind(
            GAME,
            "failed_charge",
            why="necromunda.restriction.failed_charge",
            no_actions=True,
            ends=_TURNS,
        ),
        kind(GAME, "run", why="necromunda.restriction.run", types=NOT_SHOOTING, ends=_TURNS),
        kind(
            GAME, "charging", why="necromunda.restriction.charging", types=NOT_SHOOTING, ends=_TURNS
        ),
        kind(
            GAME,
            "engaged",
            why="necromunda.restriction.engaged",
            types=IN_COMBAT,
            actions=frozenset({"move", "run", "crawl"}),
        ),
        kind(GAME, "hidden", ends=("after_attack",)),
        kind(GAME, "flesh wound"),
        kind(GAME, "crawl", ends=_TURNS),
        kind(GAME, "compulsory", ends=_TURNS),
    ),
)
"""Necromunda's conditions, in the order the rules weigh them."""

__all__ = ["BOOK", "GAME", "IN_COMBAT", "NOT_SHOOTING"]
