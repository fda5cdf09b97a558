"""The options a Necromunda shot takes: :class:`NecromundaOptions`.

The GM's readings of the table (arc, sight, the target choice), a switch to let a refused shot
go ahead, and the settings a GM may change for one shot (``ammo_auto``, ``armour_saves``) are
offered on a panel; the fighters' states and the other enemies in view are given from Python
(the encounter's own standings already give the states: see
:func:`~gmkit.systems.necromunda._state.with_encounter_states`). ``AttackRequest(...,
options={...})`` validates a mapping into this model: an unknown option or a value of the
wrong type is refused by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Self

from pydantic import InstanceOf

from gmkit.messages import Message
from gmkit.systems.necromunda._state import FighterState
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
        Message("necromunda.option.gm_allows_shot"),
        offered=True,
        label=Message("necromunda.option_label.gm_allows_shot"),
    )
    in_arc: bool = option(
        True,
        Message("necromunda.option.in_arc"),
        offered=True,
        label=Message("necromunda.option_label.in_arc"),
    )
    in_sight: bool = option(
        True,
        Message("necromunda.option.in_sight"),
        offered=True,
        label=Message("necromunda.option_label.in_sight"),
    )
    target_is_nearest_or_easier: bool | None = option(
        None,
        Message("necromunda.option.target_is_nearest_or_easier"),
        offered=True,
        label=Message("necromunda.option_label.target_is_nearest_or_easier"),
    )
    # a tuple of other enemies, given from Python: no simple control asks for it
    other_targets: tuple[InstanceOf[OtherTarget], ...] | None = option(
        None, Message("necromunda.option.other_targets")
    )
    sight_in_doubt: bool = option(
        False,
        Message("necromunda.option.sight_in_doubt"),
        offered=True,
        label=Message("necromunda.option_label.sight_in_doubt"),
    )
    disputed: Literal["partial_cover", "cover", "hidden"] | None = option(
        None,
        Message("necromunda.option.disputed"),
        offered=True,
        label=Message("necromunda.option_label.disputed"),
    )
    ammo_auto: Literal["fail", "pass"] | None = option(
        None,
        Message("necromunda.option.ammo_auto"),
        offered=True,
        label=Message("necromunda.option_label.ammo_auto"),
    )
    armour_saves: bool | None = option(
        None,
        Message("necromunda.option.armour_saves"),
        offered=True,
        label=Message("necromunda.option_label.armour_saves"),
    )
    # fighters' states, from the encounter's standings or from Python: no simple control
    attacker_state: InstanceOf[FighterState] | None = option(
        None, Message("necromunda.option.attacker_state")
    )
    target_state: InstanceOf[FighterState] | None = option(
        None, Message("necromunda.option.target_state")
    )
    wounds_left: int | None = option(None, Message("necromunda.option.wounds_left"), ge=0)

    def changed(self, **changes: Any) -> Self:
        """These options with ``changes``, validated like a new model; the states and other
        targets kept as the values they are (a dump would turn them into mappings)."""
        kept = {name: getattr(self, name) for name in self.model_fields_set}
        return self.coerce({**kept, **changes}, self.game)


__all__ = ["NecromundaOptions", "OtherTarget"]
