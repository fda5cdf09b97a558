"""A notebook for the players: what the players' page shows of a fight, as a file to hand out.

:func:`export_player_notebook` writes markdown cells made from the player projection
(:func:`gmkit.encounter.player_view`) and the public events' texts alone: the fight's name,
the round and whose turn, the combatants table (with their conditions and wounds as the GM's
``enemy_wounds`` setting says, the players' own sheets folded under their rows) and the public
log. Nothing else of the encounter is read, so no GM-only value (a hidden combatant, an
enemy's sheet or exact wounds where the GM shows a band, a GM note, an id) is in the file; and
no code cell, no output, nothing a notebook must trust.

The file is what JupyterLab itself would save (nbformat 4.5, cell ids, the kernelspec and
language_info JupyterLab keeps, the trailing newline), so it opens without being marked
changed.

>>> from gmkit.campaign import demo_campaign_file, open_campaign
>>> store = open_campaign(demo_campaign_file(), readonly=True)
>>> path = export_player_notebook(store, "The Chapel of the Pale Throne", "players.ipynb")
>>> "Demagogue Ostrava" in path.read_text()  # hidden from the players
False
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gmkit.encounter import Encounter, player_view
from gmkit.encounter.narration import event_text
from gmkit.encounter.views import public_events
from gmkit.messages import Message
from gmkit.store import CampaignStore, StoreError
from gmkit.widgets.i18n import LANGUAGE_NAMES, t

if TYPE_CHECKING:
    from nbformat import NotebookNode

__all__ = ["LOG_LINES", "export_player_notebook", "player_notebook"]

LOG_LINES = 50
"""The newest public log lines the notebook holds."""

_LOGGED = ("attack", "effects", "note")  # public events whose text the players read

METADATA: dict[str, Any] = {
    "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
    "language_info": {"name": "python"},
}
"""The notebook's metadata: what JupyterLab keeps as it is when it opens the file."""


def _shown(value: object) -> str:
    """A wrong argument as an error shows it: its type and the start of its repr."""
    text = repr(value)
    return f"{type(value).__name__} {text[:60] + '...' if len(text) > 60 else text}"


def _fight(store: CampaignStore, encounter: object) -> Encounter:
    """The Encounter itself (from whichever store it was opened), or the one named so."""
    if isinstance(encounter, Encounter):
        return encounter
    if isinstance(encounter, str):
        return Encounter.open(store, encounter)  # an unknown name: the store's StoreError
    raise StoreError(Message("widgets.export_encounter_wrong", got=_shown(encounter)))


def _log(fight: Encounter, language: str, limit: int = LOG_LINES) -> list[str]:
    """The public attacks', effects' and notes' texts, newest first, in ``language``: none
    about a combatant hidden now."""
    hidden = [c.id for c in fight.state.combatants.values() if c.hidden]
    lines = []
    for event in public_events(fight.effective_events, hidden):
        if event.get("kind") in _LOGGED:
            text = event_text(event, language)
            if text:
                lines.append(text)
    return lines[::-1][:limit]


def player_notebook(
    fight: Encounter, player_sides: Sequence[str] = (), *, language: str = "en"
) -> NotebookNode:
    """The players' notebook of ``fight`` (see the module docstring), in ``language``."""
    import nbformat  # here: it takes seconds to import, and the player view never needs it

    from gmkit.widgets.player import player_html  # here: gmkit.widgets.player imports us

    if language not in LANGUAGE_NAMES:
        known = tuple(LANGUAGE_NAMES)
        raise StoreError(
            Message("widgets.export_language_unknown", got=repr(language), known=known)
        )
    view = player_view(fight.state, player_sides=tuple(player_sides), language=language)
    header, table = player_html(view, language)
    sources = [f"# {html.escape(fight.name, quote=False)}\n\n{header}", table]
    lines = _log(fight, language)
    if lines:
        listed = "\n".join(f"- {html.escape(line, quote=False)}" for line in lines)
        sources.append(f"## {html.escape(t('log', language), quote=False)}\n\n{listed}")
    notebook: NotebookNode = nbformat.v4.new_notebook(metadata=METADATA)
    notebook.cells = [
        nbformat.v4.new_markdown_cell(source, id=f"players-{number}")
        for number, source in enumerate(sources)
    ]
    nbformat.validate(notebook)
    return notebook


def export_player_notebook(
    store: CampaignStore,
    encounter: Encounter | str,
    path: str | Path,
    player_sides: Sequence[str] = (),
    *,
    language: str = "en",
) -> Path:
    """Write the players' notebook of ``encounter`` (an Encounter, used as it is, or its name
    in ``store``) to ``path``, in ``language`` ("en" or "es"); returns the path.
    ``player_sides`` count only while the GM has set none (the encounter's ``player_sides``)."""
    import nbformat

    notebook = player_notebook(_fight(store, encounter), player_sides, language=language)
    target = Path(path)
    nbformat.write(notebook, target)  # as JupyterLab saves it: the same JSON, a final newline
    return target
