"""The players' seats: each player's phone is their seat at the table (issue 23).

- :mod:`gmkit.seats._seats_file`: the seats and the requests, in a file beside the campaign
  (the players' server never writes the campaign file);
- :mod:`gmkit.seats._intents`: what a phone may ask for, read strictly and checked against the
  situation on the GM's side;
- :mod:`gmkit.seats._inbox`: the GM's inbox: accept (exactly the GM's own command), refuse,
  or let some kinds through as they come.
"""

from gmkit.seats._inbox import AUTO_KINDS, Asked, Inbox
from gmkit.seats._intents import (
    ActionIntent,
    AttackIntent,
    EndTurnIntent,
    Intent,
    IntentError,
    check_intent,
    read_intent,
)
from gmkit.seats._seats_file import Request, Seat, SeatError, SeatsFile, seats_path

__all__ = [
    "AUTO_KINDS",
    "ActionIntent",
    "Asked",
    "AttackIntent",
    "EndTurnIntent",
    "Inbox",
    "Intent",
    "IntentError",
    "Request",
    "Seat",
    "SeatError",
    "SeatsFile",
    "check_intent",
    "read_intent",
    "seats_path",
]
