"""The table and the players' page load nothing from outside this machine (no CDN: Font
Awesome, require.js, MathJax, fonts), so they work offline; Font Awesome's icons still draw,
from Voila's own bundle."""

from __future__ import annotations

import urllib.parse

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.server]

LOCAL = {"127.0.0.1", "localhost"}
# an icon as ipywidgets draws one (Button(icon="play")): its glyph, from which font
ICON = """() => {
  const icon = document.createElement('i');
  icon.className = 'fa fa-play';
  document.body.appendChild(icon);
  const drawn = getComputedStyle(icon, '::before');
  const found = {font: drawn.fontFamily, glyph: drawn.content, width: icon.offsetWidth};
  icon.remove();
  return found;
}"""


def requests_of(chromium, url: str, ready: str) -> tuple[list[str], dict[str, object]]:
    """Every request the page at ``url`` makes until ``ready`` shows and the network is idle
    (with Chromium's own background requests off), and how an icon draws there."""
    page = chromium.new_page(viewport={"width": 1366, "height": 768})
    made: list[str] = []
    page.on("request", lambda request: made.append(request.url))
    try:
        page.goto(url, wait_until="domcontentloaded", timeout=120_000)
        page.locator(ready).first.wait_for(timeout=120_000)
        page.wait_for_load_state("networkidle", timeout=60_000)
        page.evaluate("document.fonts.load('900 16px \"Font Awesome 5 Free\"')")
        icon = page.evaluate(ICON)
    finally:
        page.close()
    return made, icon


def outside(requests: list[str]) -> list[str]:
    # blob: and data: URLs are the page's own (anywidget loads its modules from blobs)
    made = [url for url in requests if urllib.parse.urlsplit(url).scheme not in ("blob", "data")]
    return [url for url in made if urllib.parse.urlsplit(url).hostname not in LOCAL]


def test_the_table_requests_nothing_from_outside(table_server, chromium):
    server, _ = table_server
    made, icon = requests_of(chromium, server.url, ".gmkit-tracker .gmkit-row")
    assert any(url.endswith("/voila/static/voila.js") for url in made)  # the page's own assets
    assert outside(made) == []
    assert (icon["font"], icon["glyph"]) == ('"Font Awesome 5 Free"', '"\uf04b"')
    assert int(icon["width"]) > 0  # the glyph drew, from the local font


def test_the_players_page_requests_nothing_from_outside(players_server, chromium):
    server, _ = players_server
    made, icon = requests_of(chromium, server.url, ".gmkit-player-table")
    assert any(url.endswith("/voila/static/voila.js") for url in made)
    assert outside(made) == []
    assert icon["font"] == '"Font Awesome 5 Free"'
