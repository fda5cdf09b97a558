"""Reading the odds view's HTML, as the widget tests of the odds share it (test_odds_view,
test_attack_panel_odds: ``from .odds_html import tags, tile``)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from gmkit.widgets._odds_view import OddsView


class Tags(HTMLParser):
    """The attributes of every tag of a kind (``rect``, ``circle``...) in some HTML."""

    def __init__(self, tag: str) -> None:
        super().__init__()
        self.tag, self.found = tag, []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == self.tag:
            self.found.append(dict(attrs))


def tags(markup: str, tag: str, css: str) -> list[dict[str, str]]:
    """The attributes of the ``tag`` tags of ``markup`` whose class list holds ``css``."""
    parser = Tags(tag)
    parser.feed(markup)
    return [a for a in parser.found if css in (a.get("class") or "").split()]


def tile(view: OddsView, key: str) -> str:
    """The value the summary's tile ``key`` shows."""
    found = re.search(
        rf"data-key='{re.escape(key)}' title='[^']*'><div class='gmkit-odds-value'>([^<]*)<",
        view.summary_html.value,
    )
    assert found, view.summary_html.value
    return found.group(1)
