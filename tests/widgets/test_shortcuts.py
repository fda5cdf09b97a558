"""The table's keyboard shortcuts (Shortcuts): keys -> named actions sent to Python."""

from __future__ import annotations

import pytest

from gmkit.widgets._shortcuts import ACTIONS, ENTER, KEYS, STATIC, Shortcuts


@pytest.fixture
def keys():
    made = Shortcuts()
    yield made
    made.close()


def test_the_keys_of_the_table():
    assert KEYS == {
        "n": "next",
        "r": "resolve",
        "a": "apply",
        "u": "undo",
        "ctrl+z": "undo",
        "shift+u": "redo",
        "ctrl+y": "redo",
        "ctrl+shift+z": "redo",
    }
    assert set(KEYS.values()) == set(ACTIONS)


def test_press_calls_each_callback_with_the_action(keys):
    seen: list[str] = []
    keys.on_action(seen.append)
    keys.press("next")
    keys.press("next")
    keys.press("undo")
    assert seen == ["next", "next", "undo"]
    assert keys.pressed == 3


def test_a_message_from_the_browser_is_the_same_as_press(keys):
    seen: list[str] = []
    keys.on_action(seen.append)
    keys._on_message(keys, {"action": "resolve"}, [])
    keys._on_message(keys, {"action": "format_disk"}, [])  # not an action: ignored
    keys._on_message(keys, "apply", [])
    assert seen == ["resolve"]


def test_the_function_on_action_returns_stops_the_callback(keys):
    seen: list[str] = []
    stop = keys.on_action(seen.append)
    keys.press("apply")
    stop()
    stop()  # twice is harmless
    keys.press("apply")
    assert seen == ["apply"]


def test_an_unknown_action_is_refused_by_name(keys):
    with pytest.raises(ValueError, match="action: 'jump' is not one of next, resolve"):
        keys.press("jump")
    assert keys.pressed == 0


def test_the_browser_listens_once_per_widget_and_ignores_text_boxes():
    code = (STATIC / "shortcuts.js").read_text()
    assert "function initialize" in code  # one listener per model, not per view
    assert 'document.removeEventListener("keydown"' in code
    assert '"select"' in code
    assert '"input"' in code
    assert Shortcuts().bindings == KEYS


def test_enter_in_the_attack_choices_resolves_and_reveal_asks_the_page(keys):
    """Issue 21 item 12: Enter in a box of the attack's choices (the distance) asks for
    resolve; Esc leaves any box (the browser's side, driven in tests/browser). reveal() asks
    the page to scroll an element into view."""
    assert ENTER == {".gmkit-attack .gmkit-choices": "resolve"}
    assert keys.enter == ENTER
    assert set(ENTER.values()) <= set(ACTIONS)
    sent: list[object] = []
    keys.send = sent.append  # type: ignore[method-assign]
    keys.reveal(".gmkit-tracker .gmkit-r3")
    assert sent == [{"reveal": ".gmkit-tracker .gmkit-r3"}]
    assert keys.revealed == ".gmkit-tracker .gmkit-r3"
    code = (STATIC / "shortcuts.js").read_text()
    assert '"Escape"' in code
    assert "capture: true" in code  # the widgets' text boxes stop their keys' bubbling
