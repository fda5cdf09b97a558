"""Every text gmkit shows, as data: message ids and parameters, rendered in the reader's language.

- :class:`Message`: an id of the catalogs and its parameters (the rules return these, events
  store them); :meth:`Message.term` for a data file's term, :meth:`Message.verbatim` for a name.
- :func:`render`: a message (or a plain string from an old log) into English or Spanish.
- The catalogs are gettext files under ``locale/`` (:mod:`gmkit.messages._catalog`): the
  ``.pot`` templates hold the English, ``es/LC_MESSAGES/*.po`` the Spanish.

>>> from gmkit.messages import Message, render
>>> shot = Message("common.join", parts=(Message.verbatim("BS 43"), Message.verbatim("aim +10")))
>>> render(shot)
'BS 43; aim +10'
"""

from gmkit.messages._catalog import LANGUAGES, add_catalogs, catalogs, problems
from gmkit.messages._message import (
    VERBATIM,
    Message,
    MessageError,
    Param,
    Text,
    as_message,
    from_json,
)
from gmkit.messages._render import render

__all__ = [
    "LANGUAGES",
    "VERBATIM",
    "Message",
    "MessageError",
    "Param",
    "Text",
    "add_catalogs",
    "as_message",
    "catalogs",
    "from_json",
    "problems",
    "render",
]
