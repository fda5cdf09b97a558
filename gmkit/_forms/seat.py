"""What a seat may do now, as plain values: the seat's controls on a Voila page
(:mod:`gmkit.widgets._seat_controls`) and the phones' server (:mod:`gmkit._phones._seat`) ask
these, so both offer the same.

- :func:`seat_acting`: the seat's combatant whose turn it is (in a sides game, the first of
  the seat's on the acting side who has not acted), or None;
- :func:`seat_foes`: the targets a seat's attack chooser offers: the foes the rules offer
  the attacker, never a hidden one, never one of its own side;
- :func:`seat_attack`: the chosen attack as the request a seat sends the GM, the table's
  dice as typed ("" for gmkit's), or the message saying why the dice are refused.
"""

from __future__ import annotations

from typing import Any

from gmkit._forms.attack import AttackForm
from gmkit.encounter import Encounter
from gmkit.encounter._state import Combatant
from gmkit.messages import Message
from gmkit.seats import Seat


def seat_acting(encounter: Encounter, seat: Seat) -> str | None:
    """The seat's combatant whose turn it is, or None."""
    situation = encounter.situation
    state = encounter.state
    if situation.actor in seat.combatants:
        return situation.actor
    if situation.side is None:
        return None
    mine = [i for i in seat.combatants if i in state.combatants]
    free = [i for i in mine if state.combatants[i].side == situation.side]
    return next((i for i in free if i not in situation.acted), free[0] if free else None)


def seat_foes(encounter: Encounter, form: AttackForm) -> list[Combatant]:
    """The targets a seat may pick (see the module docstring); the form's target is moved to
    the first of them when it is not one."""
    state = encounter.state
    own = state.combatants[form.attacker]
    foes = [
        state.combatants[ident]
        for ident in form.offered.targets
        if state.combatants[ident].side != own.side and not state.combatants[ident].hidden
    ]
    if form.target not in [c.id for c in foes] and foes:
        form.select_target(foes[0].id)
    return foes


def seat_attack(form: AttackForm, acting: str, typed: str, seen: int) -> dict[str, Any] | Message:
    """The request of the attack chosen in ``form`` for ``acting``: the dice typed (digits,
    apart by spaces or commas; "" lets gmkit roll), ``seen`` the events the player had seen."""
    text = typed.strip()
    if any(not part.isdigit() for part in text.replace(",", " ").split()):
        return Message("seats.intent.die_value", got=repr(text)[:20])
    dice = [int(part) for part in text.replace(",", " ").split()] if text else None
    return {
        "kind": "attack",
        "combatant": acting,
        "weapon": form.weapon,
        "mode": form.mode,
        "action": form.action,
        "target": form.target,
        "dice": dice,
        "seen": seen,
    }
