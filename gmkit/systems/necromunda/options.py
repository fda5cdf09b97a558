"""The options a Necromunda shot takes: :class:`NecromundaOptions`.

The GM's readings of the table (arc, sight, the target choice), a switch to let a refused shot
go ahead, and the settings a GM may change for one shot (``ammo_auto``, ``armour_saves``) are
offered on a panel; the fighters' states and the other enemies in view are given from Python
(the encounter's own standings already give the states: see
:func:`~gmkit.systems.necromunda.state.with_encounter_states`). ``AttackRequest(...,
options={...})`` validates a mapping into this model: an unknown option or a value of the
wrong type is refused by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Self

from pydantic import InstanceOf

from gmkit.systems.necromunda.state import FighterState
from gmkit.systems.options import AttackOptions, option


@dataclass(frozen=True, slots=True)
class OtherTarget:
    """Another enemy the shooter could target: its name, distance in inches, and the
    circumstances of a shot at it (ids of ``to_hit_modifiers.yaml``)."""

    name: str
    distance: float
    circumstances: Mapping[str, Any] = field(default_factory=dict)


class NecromundaOptions(AttackOptions):
    """What the Necromunda rules and odds read besides the request's own fields."""

    game: ClassVar[str] = "necromunda"

    gm_allows_shot: bool = option(
        False,
        "The GM lets a refused shot go ahead (its refusals stay in the steps); never a shooter "
        "or target out of action.",
        offered=True,
    )
    in_arc: bool = option(
        True, "The target is inside the shooter's 90-degree front arc.", offered=True
    )
    in_sight: bool = option(
        True, "The shooter can see at least part of the target's body.", offered=True
    )
    target_is_nearest_or_easier: bool | None = option(
        None,
        "The GM settles the target choice: yes, the target is the nearest enemy or an easier "
        "one; no, a nearer enemy is as easy to hit. Unset: the rules check other_targets.",
        offered=True,
    )
    other_targets: tuple[InstanceOf[OtherTarget], ...] | None = option(
        None,
        "The other enemies the shooter could target (name, distance, circumstances): the "
        "nearest-target rule is checked against them.",
    )
    ammo_auto: Literal["fail", "pass"] | None = option(
        None,
        'What an ammo roll of "auto" does on a to-hit 6 for this shot (unset: the setting).',
        offered=True,
    )
    armour_saves: bool | None = option(
        None,
        "Roll the target's armour save after a wound for this shot (unset: the setting; the "
        "seed has none).",
        offered=True,
    )
    attacker_state: InstanceOf[FighterState] | None = option(
        None,
        "The shooter's state (wounds left, flesh wounds, pinned, down, hidden, engaged, how it "
        "moved); unset: from the encounter's standing.",
    )
    target_state: InstanceOf[FighterState] | None = option(
        None, "The target's state; unset: from the encounter's standing."
    )
    wounds_left: int | None = option(
        None, "The target's wounds left (shorthand over its state's).", ge=0
    )

    def changed(self, **changes: Any) -> Self:
        """These options with ``changes``, validated like a new model; the states and other
        targets kept as the values they are (a dump would turn them into mappings)."""
        kept = {name: getattr(self, name) for name in self.model_fields_set}
        return self.coerce({**kept, **changes}, self.game)


__all__ = ["NecromundaOptions", "OtherTarget"]
