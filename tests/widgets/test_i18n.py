"""Labels: every widget label comes from the catalogs in both languages, t() follows the
language and falls back, an unknown language is refused."""

from __future__ import annotations

import pytest

from gmkit.messages import catalogs
from gmkit.widgets._i18n import LANGUAGE, t, words

pytestmark = pytest.mark.usefixtures("english")  # tests/conftest.py: English, then again


def widget_ids() -> list[str]:
    return [key for key in catalogs().templates if key.startswith("widgets.")]


def test_every_widget_label_has_both_languages():
    ids = widget_ids()
    assert len(ids) > 100
    spanish = catalogs().translations["es"]
    missing = [key for key in ids if not spanish.get(key) or not spanish[key].translated]
    assert missing == []
    assert all(catalogs().templates[key].english.strip() for key in ids)


def test_t_follows_the_current_language():
    assert t("next_turn") == "Next"
    LANGUAGE.value = "es"
    assert t("next_turn") == "Siguiente"
    assert t("next_turn", "en") == "Next"  # an explicit language wins
    assert t("dashboard.reveal") == "Revelar"


def test_a_label_without_spanish_falls_back_to_english(monkeypatch):
    spanish = dict(catalogs().translations["es"])
    del spanish["widgets.next_turn"]
    monkeypatch.setitem(catalogs().translations, "es", spanish)  # type: ignore[index]
    LANGUAGE.value = "es"
    assert t("next_turn") == "Next"
    assert t("round") == "Asalto"


def test_an_unknown_key_falls_back_to_itself():
    assert t("no_such_label") == "no_such_label"
    assert t("no_such_label", "es") == "no_such_label"


def test_rule_texts_follow_the_language():
    from gmkit.messages import Message

    line = Message("common.no_modifiers")
    assert words(line) == "no modifiers"
    LANGUAGE.value = "es"
    assert words(line) == "sin modificadores"
    assert words("an old log's text") == "an old log's text"


def test_an_unknown_language_is_refused_and_the_language_kept():
    LANGUAGE.value = "es"
    with pytest.raises(ValueError, match="'fr' is not one of en, es"):
        LANGUAGE.value = "fr"
    assert LANGUAGE.value == "es"
    assert t("start") == "Empezar"
