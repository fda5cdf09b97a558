"""A notebook for the players: what the players' page shows of a fight, as a file to hand out.

:func:`export_player_notebook` writes markdown cells made from the player projection
(:func:`gmkit.encounter.player_view`) and the public events' texts alone: the fight's name,
the round and whose turn, the combatants table (with their conditions and wounds as the GM's
``enemy_wounds`` setting says, the players' own sheets folded under their rows) and the public
log. Nothing else of the encounter is read, so no GM-only value (a hidden combatant, an
enemy's sheet or exact wounds where the GM shows a band, a GM note, an id) is in the file; and
no code cell, no output, nothing a notebook must trust.

The file is what JupyterLab itself would save (nbformat 4.5, cell ids, the kernelspec and
language_info it would set on starting the kernel: :func:`lab_metadata`, the trailing
newline), so it opens without being marked changed.

>>> from gmkit.campaign import demo_campaign_file, open_campaign
>>> store = open_campaign(demo_campaign_file(), readonly=True)
>>> path = export_player_notebook(store, "The Chapel of the Pale Throne", "players.ipynb")
>>> "Demagogue Ostrava" in path.read_text()  # hidden from the players
False
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gmkit.encounter import Encounter, player_view
from gmkit.encounter._narration import event_text
from gmkit.encounter._views import newest_public, told_to_players, wounds_rule
from gmkit.messages import Message
from gmkit.store import CampaignStore, StoreError
from gmkit.widgets._i18n import LANGUAGE_NAMES, t
from gmkit.widgets._player_table import player_html

if TYPE_CHECKING:
    from nbformat import NotebookNode

__all__ = ["KERNEL", "LOG_LINES", "export_player_notebook", "lab_metadata", "player_notebook"]

LOG_LINES = 50
"""The newest public log lines the notebook holds."""

_LOGGED = ("attack", "effects", "note")  # public events whose text the players read

KERNEL = "python3"
"""The kernel the notebook names: the one JupyterLab starts for a Python notebook."""


def lab_metadata() -> dict[str, Any]:
    """The notebook's metadata as JupyterLab sets it once the Python kernel has started (the
    kernelspec as installed here, the language_info ipykernel reports for this Python), so
    opening the file changes nothing in it (opened where another Python runs, JupyterLab
    updates the version and marks it changed)."""
    display_name, language = f"Python {sys.version_info[0]} (ipykernel)", "python"
    try:
        from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    except ImportError:  # no Jupyter here: ipykernel's own kernelspec
        pass
    else:
        try:
            spec = KernelSpecManager().get_kernel_spec(KERNEL)
            display_name, language = spec.display_name, spec.language
        except (NoSuchKernel, OSError, ValueError):
            pass  # none installed: JupyterLab starts ipykernel's own
    return {
        "kernelspec": {"display_name": display_name, "language": language, "name": KERNEL},
        "language_info": {  # as ipykernel's IPythonKernel.language_info
            "codemirror_mode": {"name": "ipython", "version": sys.version_info[0]},
            "file_extension": ".py",
            "mimetype": "text/x-python",
            "name": "python",
            "nbconvert_exporter": "python",
            "pygments_lexer": "ipython3",
            "version": sys.version.split()[0],
        },
    }


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


def _plain(text: str) -> str:
    """``text`` as a markdown line shows it as it is (no emphasis, link or tag read into it)."""
    return re.sub(r"([\\`*_\[\]~|])", r"\\\1", html.escape(text, quote=False))


def _log(
    fight: Encounter, language: str, player_sides: Sequence[str] = (), limit: int = LOG_LINES
) -> list[str]:
    """The public attacks', effects' and notes' texts, newest first, in ``language``, as the
    players' page has them: none touching a combatant hidden now, and of an enemy's wounds
    only what the GM's ``enemy_wounds`` setting shows (:func:`~gmkit.encounter._views.
    told_to_players`)."""
    state = fight.state
    hidden = [c.id for c in state.combatants.values() if c.hidden]
    shown, friends = wounds_rule(fight.effective_events, player_sides)
    lines: list[str] = []
    for event in newest_public(fight.effective_events, hidden, _LOGGED):
        if len(lines) >= limit:
            break
        text = event_text(told_to_players(event, shown, friends), language, after=state)
        if text:
            lines.append(text)
    return lines


def player_notebook(
    fight: Encounter, player_sides: Sequence[str] = (), *, language: str = "en"
) -> NotebookNode:
    """The players' notebook of ``fight`` (see the module docstring), in ``language``."""
    import nbformat  # here: it takes seconds to import, and the player view never needs it

    if language not in LANGUAGE_NAMES:
        known = tuple(LANGUAGE_NAMES)
        raise StoreError(
            Message("widgets.export_language_unknown", got=repr(language), known=known)
        )
    view = player_view(fight.state, player_sides=tuple(player_sides), language=language)
    header, table = player_html(view, language)
    sources = [f"# {_plain(fight.name)}\n\n{header}", table]
    lines = _log(fight, language, tuple(player_sides))
    if lines:  # an HTML list, as the players' page has it: no markdown read into a name
        items = "".join(f"<li>{html.escape(line, quote=False)}</li>" for line in lines)
        sources.append(f"## {_plain(t('log', language))}\n\n<ul>{items}</ul>")
    notebook: NotebookNode = nbformat.v4.new_notebook(metadata=lab_metadata())
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
