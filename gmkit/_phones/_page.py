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
.gmkit-player button, .gmkit-player select, .gmkit-player input { font-size: 0.9em;
  background: #242832; color: inherit; border: 1px solid #3a4150; border-radius: 3px;
  padding: 6px 10px; margin: 3px 4px 3px 0; max-width: 100%; }
.gmkit-player button:disabled { opacity: 0.5; }
.gmkit-player button.gmkit-info { background: #2f5d8a; }
.gmkit-player button.gmkit-send { background: #2e7d32; }
.gmkit-player button.gmkit-end-turn { background: #b26a00; color: #111; }
.gmkit-seat-attack label { display: flex; align-items: center; gap: 0.5em; }
.gmkit-seat-attack label span { flex: 0 0 5em; color: var(--gmkit-muted, #9aa3b2); }
.gmkit-seat-attack select { flex: 1 1 auto; min-width: 0; }
.gmkit-seat-send { display: flex; }
.gmkit-seat-send input { flex: 1 1 auto; min-width: 0; }
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
  // --- a seat's controls: made from what the server sent, kept what the player typed ---
  let cued = ["", null];
  const make = (tag, attributes = {}, text = "") => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    if (text) node.textContent = text;
    return node;
  };
  const html = (markup) => { const node = make("div"); node.innerHTML = markup; return node; };
  function seated(seat) {
    const box = part("seat");
    const typed = {};
    for (const input of box.querySelectorAll("input[data-typed]")) {
      typed[input.dataset.typed] = input.value;
    }
    const focused = box.contains(document.activeElement) ? document.activeElement : null;
    const refocus = focused && focused.dataset ? focused.dataset.typed : null;
    const parts = [];
    const question = seat.question;
    const asked = question && question.choices.length ? question.id : null;
    if ((seat.acting && seat.acting !== cued[0]) || (asked !== null && asked !== cued[1])) {
      if (navigator.vibrate) navigator.vibrate(200);
    }
    cued = [seat.acting, asked];
    if (question) {
      const react = make("div", {class: "gmkit-seat-react"});
      react.append(html(question.text));
      const buttons = make("div", {class: "gmkit-seat-buttons"});
      for (const [reaction, label] of question.choices) {
        const button = make("button", {type: "button", class: reaction ? "gmkit-info" : ""}, label);
        button.addEventListener("click", () => send({kind: "reply", question: question.id,
          reaction, die: (react.querySelector("input") || {value: ""}).value}));
        buttons.append(button);
      }
      react.append(buttons);
      if (question.choices.length) {
        react.append(make("input", {type: "text", inputmode: "numeric", "data-typed": "react",
          placeholder: question.die}));
      }
      react.append(html(question.left), html(question.replied));
      parts.push(react);
    }
    if (seat.cue) parts.push(html(seat.cue));
    if (seat.attack) {
      const attack = make("div", {class: "gmkit-seat-attack"});
      for (const field of seat.attack.fields) {
        if (!field.shown) continue;
        const label = make("label", {class: `gmkit-seat-${field.name}`});
        label.append(make("span", {}, field.label));
        const select = make("select", {"data-field": field.name});
        for (const [id, text] of field.options) {
          const option = make("option", {value: id}, text);
          if (id === field.value) option.selected = true;
          select.append(option);
        }
        select.addEventListener(
          "change", () => send({kind: "choose", field: field.name, value: select.value}));
        label.append(select);
        attack.append(label);
      }
      attack.append(html(seat.attack.odds));
      const row = make("div", {class: "gmkit-seat-send"});
      const dice = make("input", {type: "text", inputmode: "numeric", "data-typed": "dice",
        placeholder: seat.attack.dice});
      const sendButton = make("button", {type: "button", class: "gmkit-send"}, seat.attack.send);
      if (!seat.attack.may_send) sendButton.disabled = true;
      sendButton.addEventListener("click", () => {
        send({kind: "attack", dice: dice.value});
        dice.value = "";
      });
      row.append(dice, sendButton);
      attack.append(row);
      parts.push(attack);
    }
    if (seat.actions.length) {
      const actions = make("div", {class: "gmkit-seat-actions"});
      for (const [id, label] of seat.actions) {
        const button = make("button", {type: "button"}, label);
        button.addEventListener("click", () => send({kind: "action", action: id}));
        actions.append(button);
      }
      parts.push(actions);
    }
    if (seat.end_turn) {
      const end = make("button", {type: "button", class: "gmkit-end-turn"}, seat.end_turn);
      end.addEventListener("click", () => send({kind: "end_turn"}));
      parts.push(end);
    }
    parts.push(html(seat.said), html(seat.answers));
    const controls = make("div", {class: "gmkit-seat"});
    controls.append(...parts);
    box.replaceChildren(controls);
    for (const input of box.querySelectorAll("input[data-typed]")) {
      if (typed[input.dataset.typed]) input.value = typed[input.dataset.typed];
      if (input.dataset.typed === refocus) input.focus();  // typing goes on where it was
    }
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
      if (message.kind === "seat" && message.language === language) seated(message.seat);
      if (message.kind === "closed") {
        part("notice").innerHTML = "";
        const line = document.createElement("div");
        line.className = "gmkit-error gmkit-player-notice";
        line.textContent = message.text;
        part("seat").replaceChildren(line);
      }
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
  <div data-part="seat"></div>
  <div data-part="table"></div>
  <div class="gmkit-player-log" data-part="log"></div>
</div>
<script>{_SCRIPT}</script>
</body>
</html>
"""
