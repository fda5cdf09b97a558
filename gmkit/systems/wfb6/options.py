"""The options a Warhammer Fantasy Battle 6e shot takes: :class:`WFB6Options`.

The battlefield around the shot (``situation``) is the GM's, built in Python or set on a panel;
the others are the GM's readings of seed 003 where the texts leave a choice, and a switch to
let a refused target be shot at anyway. ``AttackRequest(..., options={...})`` validates a
mapping into this model: an unknown option or a value of the wrong type is refused by name.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

from pydantic import InstanceOf

from gmkit.systems.options import AttackOptions, option
from gmkit.systems.wfb6.battlefield import Situation


class WFB6Options(AttackOptions):
    """What the WFB 6e rules and odds read besides the request's own fields."""

    game: ClassVar[str] = "wfb6"

    situation: InstanceOf[Situation] | None = option(
        None,
        "The table around the shot: the units that matter (with their models left and "
        "distances), the distance to the target model, sight and combat. None: a lone model "
        "in the open at the request's distance.",
    )
    look_out_sir: bool = option(
        False,
        'The spell says "Look out, Sir!" applies: a character or champion it hits in a unit '
        "may take the check as against a template.",
        offered=True,
    )
    excess_distinct: bool = option(
        True,
        "Left-over hits in a small unit go to different models, one each (off: each may fall "
        "on any model again).",
        offered=True,
    )
    gm_allows_shot: bool = option(
        False,
        "The GM lets a target the rules refuse be shot at anyway: the refusal stays in the "
        "steps and the target's own to-hit modifiers apply.",
        offered=True,
    )

    def changed(self, **changes: Any) -> Self:
        """These options with ``changes``, validated again; the options set are taken as they
        are (a dump would turn the situation into a mapping)."""
        kept = {name: getattr(self, name) for name in self.model_fields_set}
        return self.coerce({**kept, **changes}, self.game)


__all__ = ["WFB6Options"]
