"""The options a Warhammer Fantasy Battle 6e shot takes: :class:`WFB6Options`.

The battlefield around the shot (``situation``) is read by the encounter from the units and
distances the GM set (:mod:`gmkit.encounter._units`), or built in Python (not offered);
the others are the GM's readings of seed 003 where the texts leave a choice, and a switch to
let a refused target be shot at anyway. ``AttackRequest(..., options={...})`` validates a
mapping into this model: an unknown option or a value of the wrong type is refused by name.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

from pydantic import InstanceOf

from gmkit.messages import Message
from gmkit.systems.options import AttackOptions, option
from gmkit.systems.wfb6._battlefield import Situation


class WFB6Options(AttackOptions):
    """What the WFB 6e rules and odds read besides the request's own fields."""

    game: ClassVar[str] = "wfb6"

    # the table around the shot, built in Python: no simple control asks for it
    situation: InstanceOf[Situation] | None = option(None, Message("wfb6.option.situation"))
    look_out_sir: bool = option(
        False,
        Message("wfb6.option.look_out_sir"),
        offered=True,
        label=Message("wfb6.option_label.look_out_sir"),
    )
    excess_distinct: bool = option(
        True,
        Message("wfb6.option.excess_distinct"),
        offered=True,
        label=Message("wfb6.option_label.excess_distinct"),
    )
    gm_allows_shot: bool = option(
        False,
        Message("wfb6.option.gm_allows_shot"),
        offered=True,
        label=Message("wfb6.option_label.gm_allows_shot"),
    )

    def changed(self, **changes: Any) -> Self:
        """These options with ``changes``, validated again; the options set are taken as they
        are (a dump would turn the situation into a mapping)."""
        kept = {name: getattr(self, name) for name in self.model_fields_set}
        return self.coerce({**kept, **changes}, self.game)


__all__ = ["WFB6Options"]
