"""Every notebook runs top to bottom on a fresh kernel; the tours print the seeds' numbers."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import nbformat
import pytest

# each notebook run on a fresh kernel, once (the `notebook_runs` fixture, one xdist group)
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("notebooks")]

FOLDER = Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOKS = sorted(FOLDER.glob("*.ipynb"))
TOURS = ("necromunda", "dark_heresy", "deathwatch", "wfrp2", "wfb6")


def test_there_are_notebooks():
    names = {path.name for path in NOTEBOOKS}
    assert {"table.ipynb", "players.ipynb", "prep.ipynb"} <= names
    assert {f"tour_{game}.ipynb" for game in TOURS} <= names


def test_notebooks_are_stored_without_outputs():
    for path in NOTEBOOKS:
        notebook = nbformat.read(path, as_version=4)
        for cell in notebook.cells:
            if cell.cell_type == "code":
                assert cell.outputs == [], f"{path.name} keeps outputs"
                assert cell.execution_count is None, path.name


def text_of(notebook: nbformat.NotebookNode) -> str:
    """Everything the notebook printed or showed as text."""
    parts = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            if "text" in output:
                parts.append(output["text"])
            parts.append(str(output.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_top_to_bottom(path, notebook_runs):
    notebook = notebook_runs(path.name)
    errors = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.get("output_type") == "error"
    ]
    assert errors == []
    outputs = [o for c in notebook.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert outputs, "the notebook shows nothing"


SEED_NUMBERS = {
    "tour_necromunda.ipynb": [
        "To hit: hit (7 - BS 2 = 5; Partial cover -1, long range (laspistol) -1; "
        "6, then 4 against 4+ for 7+: success)",
        "Fraction(1, 12)",
    ],
    "tour_dark_heresy.ipynb": [
        "10 damage - AP 5 - TB 3 = 2",
        "'Acolyte Ilse hits Drax once with Laspistol: 2 damage'",
    ],
    "tour_wfrp2.ipynb": [
        "Hit location: right arm (53 reversed: 35)",
        "Damage: 7 (1d10 (4) + Bow 3)",
        "Wounds: 4 lost: 9 -> 5",
    ],
    "tour_wfb6.ipynb": [
        "1 on each model, 2 left over",
        "To wound Lord Gilles: 2 wounds of 2 hits",
        "To wound Knights of the Realm (rank and file 1): 1 wound of 2 hits",
        "Left-over hit 1: on Lord Gilles (d5=4 among",
        "screened by Swordsmen",
    ],
    "tour_deathwatch.ipynb": [
        "Horde size (magnitude 30) +10",  # the ruling's size bonus
        "3 degrees of success: 4 hits",
        "Explosive damage: one more hit",
        "'Brother Castor hits Ork mob 5 times with Astartes Bolter (Godwyn): magnitude -5'",
        "25/30",  # the horde's magnitude in the overview after the recorded attack
    ],
}


@pytest.mark.parametrize("name", sorted(SEED_NUMBERS))
def test_each_tour_reproduces_its_seed_example(name, notebook_runs):
    shown = text_of(notebook_runs(name))
    for expected in SEED_NUMBERS[name]:
        assert expected in shown, f"{name}: {expected!r} not shown"


def test_prep_builds_an_encounter_whose_player_projection_keeps_the_secrets(notebook_runs):
    shown = text_of(notebook_runs("prep.ipynb"))
    assert "Ballistic Skill test: hit, 3 degrees of success (BS 42 +10 = 52" in shown
    assert "Magos Vorn" in shown  # the GM's tables show him...
    cells = notebook_runs("prep.ipynb").cells
    projection = next(c for c in cells if "fight.player_view()" in c.source)["outputs"]
    shown_to_players = "".join(str(o.get("data", {}).get("text/plain", "")) for o in projection)
    assert "Sergeant Varro Tull" in shown_to_players
    assert "Ganger 3" in shown_to_players
    for secret in ("Magos Vorn", "Ganger 4", "Ganger 5", "vestry"):
        assert secret not in shown_to_players  # ...the players' projection does not
    players = (notebook_runs.folder / "players-chapel-raid.ipynb").read_text(encoding="utf-8")
    assert "Ganger 3" in players
    assert "Magos Vorn" not in players
    assert "vestry" not in players


def test_prep_runs_twice_on_one_campaign_and_replaces_its_encounter(tmp_path, notebook_runs):
    """The GM runs the prep notebook again (a change to the roster, a second try): the campaign
    holds one "Chapel raid", its log as long as the first time, the demo's fights untouched."""
    from gmkit.campaign import demo_campaign_file
    from gmkit.store import CampaignStore

    campaign = demo_campaign_file(tmp_path)
    folder = tmp_path / "notebooks"
    shutil.copytree(FOLDER, folder)
    before = os.environ.get("GMKIT_CAMPAIGN")
    os.environ["GMKIT_CAMPAIGN"] = str(campaign)  # the kernel inherits it
    try:
        counts = []
        for _ in range(2):
            notebook_runs.run(folder / "prep.ipynb")
            with CampaignStore(campaign, readonly=True) as store:
                counts.append([(e.name, e.events) for e in store.encounters()])
    finally:
        if before is None:
            os.environ.pop("GMKIT_CAMPAIGN", None)
        else:
            os.environ["GMKIT_CAMPAIGN"] = before
    assert counts[0] == counts[1]
    names = [name for name, _ in counts[1]]
    assert names.count("Chapel raid") == 1
    assert len(names) == 6
    assert dict(counts[1])["Chapel raid"] == 13  # 10 added, 2 settings, the GM's note
