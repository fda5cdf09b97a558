"""The players' view of a fight, and a notebook exported for the players.

:class:`PlayerView` is built from :func:`gmkit.encounter.player_view` alone (and the public
events, for its short log): the round, whose turn, the combatants the players may see with
their conditions and wounds as the GM's ``enemy_wounds`` setting says, the players' own sheets.
Nothing else of the encounter ever goes into a widget, so a GM-only value (a hidden
combatant's name, an enemy's sheet, a GM note) never reaches a player's browser: the HTML is
rendered in the kernel from the projection and only that HTML is sent.

It follows the GM: a :class:`Follower` (an asyncio task on the kernel's event loop) calls
:meth:`PlayerView.poll` every 0.3 s; each poll reads the events the GM's kernel wrote to the
campaign file (``Encounter.refresh``) and re-renders only when something changed. Outside a
running event loop (a plain script, a unit test) call :meth:`PlayerView.poll` yourself.

:func:`export_player_notebook` writes the same projection as a notebook file for the players.
"""

from __future__ import annotations

import asyncio
import html
import pprint
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import ipywidgets as widgets
from traitlets import Int, Unicode

from gmkit.encounter import Encounter, player_view
from gmkit.encounter.narration import event_text
from gmkit.encounter.views import public_events
from gmkit.store import CampaignStore
from gmkit.widgets.i18n import LANGUAGE, t
from gmkit.widgets.style import STYLE, THEME_CLASS

__all__ = [
    "POLL_SECONDS",
    "Follower",
    "PlayerView",
    "export_player_notebook",
    "player_html",
    "public_log",
]

POLL_SECONDS = 0.3
LOG_LINES = 8
_LOGGED = ("attack", "effects", "note")  # public events whose text the players read

PLAYER_STYLE = """
<style>
.gmkit-player { font-size: 20px; }
.gmkit-player .widget-html { font-size: inherit; }
.gmkit-player .widget-html > .widget-html-content { line-height: 1.4; }
.gmkit-player h2 { margin: 0.2em 0; font-size: 1.5em; }
.gmkit-player .gmkit-now { color: var(--gmkit-accent); font-weight: 700; }
.gmkit-player table { border-collapse: collapse; width: 100%; }
.gmkit-player th { text-align: left; border-bottom: 2px solid #3a4150; padding: 4px 10px; }
.gmkit-player td { padding: 4px 10px; border-bottom: 1px solid #2a2f3a; vertical-align: top; }
.gmkit-player tr.gmkit-current td { background: var(--gmkit-accent); color: #111 !important;
  font-weight: 700; }
.gmkit-player tr.gmkit-friend td.gmkit-name { color: var(--gmkit-ok); }
.gmkit-player .gmkit-down { color: var(--gmkit-danger); }
.gmkit-player details { font-size: 0.8em; color: var(--gmkit-muted); }
.gmkit-player .gmkit-player-log li { margin: 0.15em 0; }
</style>
"""


class Follower:
    """Call ``callback`` every ``interval`` seconds from an asyncio task on the running event
    loop (the kernel's: widget updates then happen on the kernel's own thread, between
    messages, never racing a command). ``start()`` outside a running loop does nothing and
    returns False: call the callback yourself there. ``stop()`` cancels the task."""

    def __init__(self, callback: Callable[[], object], interval: float = POLL_SECONDS) -> None:
        self.callback = callback
        self.interval = interval
        self.task: asyncio.Task[None] | None = None
        self.errors = 0

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    def start(self) -> bool:
        if self.running:
            return True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        self.task = loop.create_task(self._run())
        return True

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                self.callback()
            except Exception:  # a failed read (the file busy) is tried again next time
                self.errors += 1

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None


def public_log(events: Sequence[Mapping[str, Any]], limit: int = LOG_LINES) -> list[str]:
    """The texts of the newest public attacks, effects and notes (newest first)."""
    lines = []
    for event in public_events(tuple(dict(event) for event in events)):
        if event.get("kind") not in _LOGGED:
            continue
        text = event_text(event, LANGUAGE.value)
        if text:
            lines.append(text)
    return lines[::-1][:limit]


def _wounds_cell(wounds: str | None) -> str:
    if wounds is None:  # the GM keeps enemy wounds hidden
        return "–"
    down = wounds == "down" or wounds.startswith("0/")
    css = " class='gmkit-down'" if down else ""
    return f"<span{css}>{html.escape(t(wounds) if wounds.isalpha() else wounds)}</span>"


def _sheet_details(sheet: Mapping[str, Any]) -> str:
    """A friend's public sheet, folded away: the profile the players know anyway."""
    parts = []
    for key, value in sheet.items():
        if key in ("game", "name", "side") or value in (None, "", [], {}):
            continue
        if isinstance(value, Mapping):
            shown = ", ".join(f"{k} {v}" for k, v in value.items())
        elif isinstance(value, list):
            shown = ", ".join(
                str(item.get("name", item)) if isinstance(item, Mapping) else str(item)
                for item in value
            )
        else:
            shown = str(value)
        parts.append(f"<b>{html.escape(key.replace('_', ' '))}</b> {html.escape(shown)}")
    if not parts:
        return ""
    return f"<details><summary>{html.escape(t('sheet'))}</summary>{' · '.join(parts)}</details>"


def player_html(view: Mapping[str, Any]) -> tuple[str, str]:
    """The header and the combatants table, as HTML, from a projection alone."""
    round_text = str(view["round"]) if view["round"] else "–"
    parts = [f"{html.escape(t('round'))} <span class='gmkit-now'>{round_text}</span>"]
    if view.get("current"):
        name = html.escape(str(view["current"]))
        parts.append(f"{html.escape(t('turn'))}: <span class='gmkit-now'>{name}</span>")
    elif view.get("current_side"):
        side = html.escape(str(view["current_side"]))
        parts.append(f"{html.escape(t('side'))}: <span class='gmkit-now'>{side}</span>")
    header = f"<h2 class='gmkit-player-header'>{' · '.join(parts)}</h2>"
    order = {name: n for n, name in enumerate(view.get("order", []))}
    combatants = sorted(
        view["combatants"], key=lambda c: (order.get(c["name"], len(order)), c["side"])
    )
    rows = []
    for entry in combatants:
        css = []
        if view.get("current") == entry["name"] or (
            not view.get("current") and view.get("current_side") == entry["side"]
        ):
            css.append("gmkit-current")
        friend = len(entry.get("sheet", {})) > 1
        if friend:
            css.append("gmkit-friend")
        conditions = ", ".join(entry.get("conditions", ())) or "–"
        details = _sheet_details(entry["sheet"]) if friend else ""
        rows.append(
            f"<tr class='{' '.join(css)}'><td class='gmkit-name'>{html.escape(entry['name'])}"
            f"{details}</td><td>{html.escape(entry['side'])}</td>"
            f"<td>{_wounds_cell(entry.get('wounds'))}</td><td>{html.escape(conditions)}</td></tr>"
        )
    heads = "".join(
        f"<th>{html.escape(t(key))}</th>" for key in ("character", "side", "wounds", "conditions")
    )
    table = f"<table class='gmkit-player-table'><tr>{heads}</tr>{''.join(rows)}</table>"
    return header, table


class PlayerView(widgets.VBox):
    """What the players see of one encounter (see the module docstring).

    ``PlayerView(store, "The Chapel of the Pale Throne")``. The sides the players play (their
    sheets and exact wounds shown) are the GM's ``player_sides`` setting; ``player_sides``
    given here count only while the GM has set none.
    """

    round = Int(0, help="the round shown")
    current = Unicode("", help="whose turn is shown ('' for none, or a hidden combatant's)")
    events = Int(0, help="events of the campaign file read so far")

    def __init__(
        self,
        store: CampaignStore,
        encounter_name: str,
        player_sides: Sequence[str] = (),
        *,
        interval: float = POLL_SECONDS,
        follow: bool = True,
        **kwargs: Any,
    ) -> None:
        self.encounter = Encounter.open(store, encounter_name)
        self.player_sides = tuple(player_sides)
        self.view: dict[str, Any] = {}
        self.log_lines: list[str] = []
        self.title = widgets.HTML(f"<h2>{html.escape(encounter_name)}</h2>")
        self.header = widgets.HTML()
        self.table = widgets.HTML()
        self.log_area = widgets.HTML()
        self.log_area.add_class("gmkit-player-log")
        style = widgets.HTML(STYLE + PLAYER_STYLE, layout=widgets.Layout(display="none"))
        super().__init__(
            children=[style, self.title, self.header, self.table, self.log_area], **kwargs
        )
        self.add_class(THEME_CLASS)
        self.add_class("gmkit-player")
        self.follower = Follower(self.poll, interval)
        LANGUAGE.observe(self._on_language, names="value")
        self._closed = False
        self._render()
        if follow:
            self.follower.start()

    def __repr__(self) -> str:  # the page's text/plain output: nothing but the fight's name
        return f"PlayerView({self.encounter.name!r})"

    def poll(self) -> bool:
        """Read what the GM wrote since the last poll; re-render if anything changed."""
        if self.encounter.refresh():
            self._render()
            return True
        return False

    def close(self) -> None:
        """Stop following the campaign file, and close the widgets."""
        if getattr(self, "_closed", True):
            return  # closed already (ipywidgets closes again when collecting the widget)
        self._closed = True
        self.follower.stop()
        LANGUAGE.unobserve(self._on_language, names="value")
        for child in self.children:
            child.close()
        super().close()

    def _on_language(self, _change: object) -> None:
        self._render()

    def _render(self) -> None:
        self.view = player_view(self.encounter.state, player_sides=self.player_sides)
        self.log_lines = public_log(self.encounter.effective_events)
        header, table = player_html(self.view)
        if self.header.value != header:
            self.header.value = header
        if self.table.value != table:
            self.table.value = table
        items = "".join(f"<li>{html.escape(line)}</li>" for line in self.log_lines)
        log = f"<h3>{html.escape(t('log'))}</h3><ul>{items}</ul>" if items else ""
        if self.log_area.value != log:
            self.log_area.value = log
        self.round = int(self.view["round"])
        self.current = str(self.view.get("current") or "")
        self.events = len(self.encounter.events)


def export_player_notebook(
    store: CampaignStore,
    encounter_name: str,
    path: str | Path,
    player_sides: Sequence[str] = (),
) -> Path:
    """Write a notebook for the players: every cell made from the player projection (and the
    public events' texts) only, so no GM-only value is anywhere in the file."""
    import nbformat  # here: it takes seconds to import, and the player view never needs it

    encounter = Encounter.open(store, encounter_name)
    view = player_view(encounter.state, player_sides=tuple(player_sides))
    header, table = player_html(view)
    lines = public_log(encounter.effective_events, limit=50)
    notebook = nbformat.v4.new_notebook()
    notebook.metadata = {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }
    cells = [
        nbformat.v4.new_markdown_cell(f"# {encounter_name}\n\n{header}"),
        nbformat.v4.new_markdown_cell(table),
    ]
    if lines:
        listed = "\n".join(f"- {line}" for line in lines)
        cells.append(nbformat.v4.new_markdown_cell(f"## {t('log')}\n\n{listed}"))
    data = pprint.pformat(view, sort_dicts=False, width=96)
    cells.append(
        nbformat.v4.new_code_cell(
            f"# What the players know of the fight, as data.\nview = {data}\nview['round']"
        )
    )
    notebook.cells = cells
    for number, cell in enumerate(notebook.cells):
        cell["id"] = f"players-{number}"
    target = Path(path)
    nbformat.validate(notebook)
    target.write_text(nbformat.writes(notebook), encoding="utf-8")
    return target
