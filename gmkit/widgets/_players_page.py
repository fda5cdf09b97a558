"""The players' page as ``players.ipynb`` builds it: the plain view, or a seat's.

A phone opens the page with its seat's link (``?seat=<key>``, :mod:`gmkit.seats._links`).
Voila hands a page's query to its kernel (``QUERY_STRING``); a preheated kernel (``gmkit
players`` keeps one ready) runs the notebook before any page asks for it, so it learns the
query only when a page takes it: :class:`SeatQuery` waits for that on a thread of its own
(Voila's ``wait_for_request``), never holding the notebook, and the view's poll (on the
kernel's loop, every 0.3 s) then opens the seat: its combatants in full and its controls.
A key that opens no seat (revoked, mistyped, another fight's) leaves the plain players' view,
with a line saying the seat is closed.
"""

from __future__ import annotations

import os
import threading
from urllib.parse import parse_qs

from gmkit.messages import Message
from gmkit.seats import SeatsFile, seats_path
from gmkit.store import CampaignStore
from gmkit.widgets._i18n import words
from gmkit.widgets._player import PlayerView


def seat_key(query: str) -> str:
    """The seat's key in a page's query ("" for none)."""
    return (parse_qs(query).get("seat") or [""])[0]


class SeatQuery:
    """The query of the page this kernel serves: at once when the kernel was started for it,
    else (a preheated kernel) once a page takes it (see the module docstring)."""

    def __init__(self) -> None:
        self.query: str | None = None
        if os.environ.get("VOILA_PREHEAT", "False") == "False":
            self.query = os.environ.get("QUERY_STRING", "")
            return
        threading.Thread(target=self._wait, name="gmkit-seat-query", daemon=True).start()

    def _wait(self) -> None:
        try:
            from voila.utils import wait_for_request

            # the server by its loopback address (the players' server listens on every
            # address, and its guard takes no "0.0.0.0" for a Host)
            port = os.environ.get("VOILA_APP_PORT", "8866")
            base = os.environ.get("VOILA_WS_BASE_URL") or os.environ.get("VOILA_SERVER_URL", "/")
            wait_for_request(f"ws://127.0.0.1:{port}{base}voila/query")
        except Exception as error:  # no seat then: the plain players' view, said in the log
            print(f"gmkit players: the page's seat could not be read ({error})", flush=True)
        finally:
            self.query = os.environ.get("QUERY_STRING", "")


def players_page(store: CampaignStore, encounter: str) -> PlayerView:
    """The players' view of ``encounter``, a seat's once its page's query names one."""
    view = PlayerView(store, encounter)
    query = SeatQuery()
    opened: list[bool] = []

    def open_seat() -> None:
        if opened or query.query is None:
            return
        opened.append(True)
        key = seat_key(query.query)
        if not key:
            return  # the players' page, no seat asked for
        path = seats_path(store.path)
        seats = SeatsFile(path) if path.exists() else None
        seat = seats.seat(key) if seats is not None else None
        if seats is None or seat is None or seat.encounter != encounter:
            if seats is not None:
                seats.close()
            view.show_notice(words(Message("seats.closed")))  # the players' view stays
            return
        view.attach_seat(seat, seats)

    view.on_poll = open_seat
    open_seat()
    return view


__all__ = ["SeatQuery", "players_page", "seat_key"]
