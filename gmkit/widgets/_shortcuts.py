"""Keyboard shortcuts of the table: keys pressed anywhere on the page -> named actions (an
invisible anywidget).

N next turn, R resolve, A apply, U or Ctrl+Z undo, Shift+U, Ctrl+Y or Ctrl+Shift+Z redo. A
plain key is ignored while the focus is in a text box or a select (typing a name or a die
never passes the turn); a Ctrl combination is not. Esc leaves the box (what it holds is sent,
as a click elsewhere would), and the keys work from there; Enter in a box of the attack's
choices (the distance) leaves it and resolves (:data:`ENTER`). The page holds one listener
per widget, however many times it is displayed, and it goes when the widget is closed.

``shortcuts.on_action(callback)``: ``callback(name)`` for each action; :meth:`Shortcuts.press`
does what a key does (a test calls it the same way). :meth:`Shortcuts.reveal` asks the page to
scroll an element into view inside the boxes that scroll around it (the actor's row in the
tracker's rows), never the page as a whole: the dashboard's one piece of browser side.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import anywidget
from traitlets import Dict, Int, Unicode

STATIC = Path(__file__).parent / "static"

ACTIONS = ("next", "resolve", "apply", "undo", "redo")
"""The actions a key can ask for."""

KEYS: dict[str, str] = {
    "n": "next",
    "r": "resolve",
    "a": "apply",
    "u": "undo",
    "ctrl+z": "undo",
    "shift+u": "redo",
    "ctrl+y": "redo",
    "ctrl+shift+z": "redo",
}
"""Key (as the browser names it: "ctrl+", "shift+", then the key, lower case) -> action."""

ENTER: dict[str, str] = {".gmkit-attack .gmkit-choices": "resolve"}
"""Enter in a text box inside this CSS scope -> action (the box left first: its value sent)."""

Callback = Callable[[str], None]


class Shortcuts(anywidget.AnyWidget):
    """The page's keyboard shortcuts, sent to Python as named actions."""

    _esm = STATIC / "shortcuts.js"

    bindings = Dict(
        default_value=KEYS, help="key ('ctrl+', 'shift+', the key in lower case) -> action"
    ).tag(sync=True)
    enter = Dict(
        default_value=ENTER, help="CSS scope -> the action Enter asks for in a box inside it"
    ).tag(sync=True)
    pressed = Int(0, help="how many actions the keys asked for (browser and press)")
    revealed = Unicode("", help="the last element the page was asked to scroll into view")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._callbacks: list[Callback] = []
        self.on_msg(self._on_message)

    def on_action(self, callback: Callback) -> Callable[[], None]:
        """Call ``callback(name)`` for each action; returns the function that stops it."""
        self._callbacks.append(callback)
        return lambda: self._callbacks.remove(callback) if callback in self._callbacks else None

    def press(self, name: str) -> None:
        """Do what the key of action ``name`` does."""
        if name not in ACTIONS:
            raise ValueError(f"action: {name!r} is not one of {', '.join(ACTIONS)}")
        self.pressed += 1
        for callback in list(self._callbacks):
            callback(name)

    def reveal(self, selector: str) -> None:
        """Ask the page to scroll the element ``selector`` (a CSS selector) into view inside
        the boxes that scroll around it; nothing moves if it is in view already."""
        self.revealed = selector
        self.send({"reveal": selector})

    def close(self) -> None:
        self._callbacks.clear()
        super().close()

    def _on_message(self, _widget: Any, content: Any, _buffers: Sequence[Any]) -> None:
        if isinstance(content, dict) and content.get("action") in ACTIONS:
            self.press(str(content["action"]))


__all__ = ["ACTIONS", "ENTER", "KEYS", "Shortcuts"]
