"""The widgets' language, switchable at run time, and their labels from the message catalogs.

``t("next_turn")`` gives the label ``widgets.next_turn`` of the catalogs in the current
language (``gmkit/messages/locale/widgets.pot`` and ``es/LC_MESSAGES/widgets.po``: a translator
edits those, not code); ``LANGUAGE.value = "es"`` switches every widget that observes
``LANGUAGE`` (``LANGUAGE.observe(callback, names="value")``). A label with no Spanish text falls
back to English, and an unknown key to itself, so a new widget never breaks;
``tests/widgets/test_i18n.py`` checks every label has both. Rule texts are messages rendered in
the same language (:func:`words`), and names of data entries (a weapon, a talent, a creature)
through :func:`named`: the Spanish name its data file gives beside the English, which is what
sheets and events keep.
"""

from __future__ import annotations

from traitlets import HasTraits, Unicode, validate

from gmkit.messages import LANGUAGES, Message, Text, catalogs, render

LANGUAGE_NAMES = {"en": "English", "es": "Español"}


class Language(HasTraits):
    """The current language of every gmkit widget in this kernel."""

    value = Unicode("en", help="'en' or 'es'")

    @validate("value")
    def _known(self, proposal: dict[str, object]) -> str:
        value = str(proposal["value"])
        if value not in LANGUAGES:
            raise ValueError(f"language: {value!r} is not one of {', '.join(LANGUAGES)}")
        return value


LANGUAGE = Language()


def t(key: str, language: str | None = None) -> str:
    """The label ``key`` (``widgets.<key>`` in the catalogs) in ``language`` (default: the
    current one); the key itself when no catalog has it."""
    found = catalogs()
    if _LABELS_FROM[0] is not found:
        _LABELS.clear()
        _LABELS_FROM[0] = found
    if key in _LABELS:
        message = _LABELS[key]
    else:  # first asked: the catalogs' message, or None when they have none
        message_id = f"widgets.{key}"
        known = found.english(message_id) is not None
        message = _LABELS[key] = Message(message_id) if known else None
    if message is None:
        return key
    return render(message, language or LANGUAGE.value)


_LABELS: dict[str, Message | None] = {}  # a label's message, made once (its words: render's)
_LABELS_FROM: list[object] = [None]  # the catalogs they were read from


def words(text: Text | None, language: str | None = None) -> str:
    """A message (a rule's step, a refusal...) in ``language`` (default: the current one)."""
    return render(text, language or LANGUAGE.value)


def named(game: str, name: str, language: str | None = None) -> str:
    """A data entry's name as a sheet keeps it (English: "Hand Weapon", "Pistol Training (SP)")
    in ``language`` (default: the current one), as ``game``'s data files name it ("Arma de
    mano"); a name the data does not translate (a GM's own weapon) as it is."""
    from gmkit.systems._catalogs import local_name  # the data files, read when first asked

    return local_name(game, name, language or LANGUAGE.value)


__all__ = ["LANGUAGE", "LANGUAGE_NAMES", "Language", "named", "t", "words"]
