"""The phone's page: one HTML document, its style and a small script, no kernel behind it.

The page holds no fight: it opens one WebSocket to its players' server and shows the picture
the server pushes (:meth:`gmkit._phones._room.Room.picture`: HTML gmkit rendered and escaped
from the player projection), in the reader's language (the switch at the top asks the server
for the other one; the choice is kept on the phone). A connection lost is made again, with a
growing pause, and the page says it is reconnecting meanwhile. Nothing is loaded from
elsewhere (no CDN): a phone at a table may have no internet.
"""

from __future__ import annotations

import html
import json

from gmkit.widgets._i18n import LANGUAGE_NAMES, t
from gmkit.widgets._player_style import PLAYER_STYLE
from gmkit.widgets._style import STYLE, THEME_CLASS

_PAGE_STYLE = """
<style>
html, body { margin: 0; background: var(--gmkit-bg, #15171c); }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.gmkit-player { color: var(--gmkit-fg, #e6e6e6); padding: 12px; }
.gmkit-player-bar { display: flex; }
.gmkit-phone-languages button { font-size: 0.7em; margin-left: 4px; padding: 4px 10px;
  border: 1px solid #3a4150; border-radius: 3px; background: #242832; color: inherit; }
.gmkit-phone-languages button[aria-pressed="true"] { background: var(--gmkit-accent, #f5c542);
  color: #111; }
.gmkit-phone-status { font-size: 0.75em; color: var(--gmkit-muted, #9aa3b2); min-height: 1em; }
</style>
"""

_SCRIPT = """
(() => {
  const here = new URL(window.location.href);
  const seat = here.searchParams.get("seat") || "";
  const languages = JSON.parse(document.body.dataset.languages);
  const said = JSON.parse(document.body.dataset.said);
  let language = localStorage.getItem("gmkit-language") || document.body.dataset.language;
  if (!(language in languages)) language = document.body.dataset.language;
  const part = (name) => document.querySelector(`[data-part="${name}"]`);
  const status = part("status");
  let socket = null, pause = 250, shown = -1;

  function mark() {
    document.documentElement.lang = language;
    for (const button of document.querySelectorAll(".gmkit-phone-languages button")) {
      button.setAttribute("aria-pressed", String(button.dataset.language === language));
    }
  }
  function show(picture) {
    for (const name of ["title", "header", "notice", "table", "log"]) {
      const node = part(name);
      const value = picture[name] || "";
      if (node && node.innerHTML !== value) node.innerHTML = value;
    }
    shown = picture.version;
    document.body.dataset.version = String(shown);
  }
  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }
  function connect() {
    const address = new URL("ws", here);
    address.protocol = here.protocol === "https:" ? "wss:" : "ws:";
    address.search = new URLSearchParams({language, seat}).toString();
    socket = new WebSocket(address);
    socket.onopen = () => { pause = 250; status.textContent = ""; };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.kind === "picture" && message.language === language) show(message.picture);
    };
    socket.onclose = () => {
      status.textContent = said[language].reconnecting;
      setTimeout(connect, pause);
      pause = Math.min(pause * 2, 5000);
    };
  }
  for (const button of document.querySelectorAll(".gmkit-phone-languages button")) {
    button.addEventListener("click", () => {
      language = button.dataset.language;
      localStorage.setItem("gmkit-language", language);
      mark();
      send({kind: "language", language});
    });
  }
  mark();
  connect();
})();
"""


def page(title: str, language: str) -> str:
    """The page a phone loads (its first picture comes over the WebSocket)."""
    buttons = "".join(
        f"<button type='button' data-language='{code}' title='{html.escape(t('language', code))}'>"
        f"{html.escape(name)}</button>"
        for code, name in LANGUAGE_NAMES.items()
    )
    said = {code: {"reconnecting": t("phone_reconnecting", code)} for code in LANGUAGE_NAMES}
    data = (
        f"data-language='{html.escape(language)}' "
        f"data-languages='{html.escape(json.dumps(LANGUAGE_NAMES))}' "
        f"data-said='{html.escape(json.dumps(said, ensure_ascii=False))}'"
    )
    return f"""<!DOCTYPE html>
<html lang="{html.escape(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
{STYLE}{PLAYER_STYLE}{_PAGE_STYLE}
</head>
<body {data} data-version="-1">
<div class="gmkit-player {THEME_CLASS}">
  <div class="gmkit-player-bar">
    <div class="gmkit-player-title"><h2 data-part="title">{html.escape(title)}</h2></div>
    <div class="gmkit-phone-languages">{buttons}</div>
  </div>
  <div class="gmkit-phone-status" data-part="status"></div>
  <div data-part="header"></div>
  <div data-part="notice"></div>
  <div data-part="table"></div>
  <div class="gmkit-player-log" data-part="log"></div>
</div>
<script>{_SCRIPT}</script>
</body>
</html>
"""
