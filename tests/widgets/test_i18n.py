"""Labels: both languages carry the same keys, t() falls back, an unknown language is refused."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gmkit.widgets.i18n import LABELS, LANGUAGE, t


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    LANGUAGE.value = "en"
    yield
    LANGUAGE.value = "en"


def test_both_languages_have_the_same_keys():
    assert set(LABELS) == {"en", "es"}
    assert set(LABELS["en"]) == set(LABELS["es"])
    assert all(text.strip() for labels in LABELS.values() for text in labels.values())


def test_t_follows_the_current_language():
    assert t("next_turn") == "Next"
    LANGUAGE.value = "es"
    assert t("next_turn") == "Siguiente"
    assert t("next_turn", "en") == "Next"  # an explicit language wins


def test_a_label_missing_in_spanish_falls_back_to_english(monkeypatch):
    monkeypatch.delitem(LABELS["es"], "next_turn")
    LANGUAGE.value = "es"
    assert t("next_turn") == "Next"
    assert t("round") == "Asalto"


def test_an_unknown_key_falls_back_to_itself():
    assert t("no_such_label") == "no_such_label"
    assert t("no_such_label", "es") == "no_such_label"


def test_an_unknown_language_is_refused_and_the_language_kept():
    LANGUAGE.value = "es"
    with pytest.raises(ValueError, match="'fr' is not one of en, es"):
        LANGUAGE.value = "fr"
    assert LANGUAGE.value == "es"
    assert t("start") == "Empezar"


def test_observers_hear_the_switch():
    heard: list[str] = []

    def hear(change: dict[str, object]) -> None:
        heard.append(str(change["new"]))

    LANGUAGE.observe(hear, names="value")
    try:
        LANGUAGE.value = "es"
        LANGUAGE.value = "en"
    finally:
        LANGUAGE.unobserve(hear, names="value")
    assert heard == ["es", "en"]
