"""A notebook exported for the players holds nothing but the player projection."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from gmkit.campaign import demo_campaign_file
from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter, event_text
from gmkit.store import CampaignStore
from gmkit.widgets.player import export_player_notebook

CHAPEL = "The Chapel of the Pale Throne"


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    return demo_campaign_file(tmp_path / "demo")


def gm_only_values(fight: Encounter) -> list[str]:
    """Every value of the fight the players may not see, as text."""
    state = fight.state
    player_sides = set(state.settings.get("player_sides", ()))
    values = []
    for combatant in state.combatants.values():
        if combatant.hidden:
            values.append(combatant.name)
        if combatant.sheet.notes:
            values.append(combatant.sheet.notes)
        if combatant.side not in player_sides:  # enemy sheets
            for weapon in getattr(combatant.sheet, "weapons", ()):
                values.append(weapon.name)
            values += list(getattr(combatant.sheet, "talents", ()))
            values.append(json.dumps(combatant.sheet.model_dump(mode="json")["characteristics"]))
    values += [e["text"] for e in fight.events if e["kind"] == "note" and e["visibility"] == "gm"]
    values += [event_text(e) for e in fight.events if e.get("summary") and e["visibility"] == "gm"]
    # an enemy's autopistol is no secret when a player's character carries one too
    friendly = json.dumps(
        [c.sheet.public_view() for c in state.combatants.values() if c.side in player_sides]
    )
    return sorted(v for v in set(values) if v and v not in friendly)


def scripted_fight(campaign: Path) -> Encounter:
    store = CampaignStore(campaign)
    fight = Encounter.open(store, CHAPEL)
    fight.roll_initiative(EnteredDice([9, 10, 6, 7, 1, 5, 4, 8]))
    fight.start()
    fight.attack("Ilse Marr", "Laspistol", "Cultist Ban", EnteredDice([20, 3]))
    fight.note("Ostrava's escape tunnel is behind the third pew.")
    fight.next_turn()
    fight.attack("Sergeant Varro Tull", "Lasgun", "Cultist Hesk", EnteredDice([12, 5]), secret=True)
    return fight


def test_no_gm_only_value_is_anywhere_in_the_file(campaign, tmp_path):
    fight = scripted_fight(campaign)
    secrets = gm_only_values(fight)
    assert "Demagogue Ostrava" in secrets
    assert "Stub Automatic" in secrets
    assert any("Sergeant Varro Tull" in s for s in secrets)  # the secret attack
    with CampaignStore(campaign, readonly=True) as reader:
        path = export_player_notebook(reader, CHAPEL, tmp_path / "players.ipynb")
    data = path.read_bytes()
    for value in secrets:
        assert value.encode() not in data, value
        assert json.dumps(value).encode() not in data, value  # as the JSON file escapes it
    assert b"Ilse Marr hits Cultist Ban" in data  # the public event is there
    assert b"Sergeant Varro Tull" in data  # a visible combatant


def test_the_file_is_a_valid_notebook_made_of_the_projection(campaign, tmp_path):
    fight = scripted_fight(campaign)
    with CampaignStore(campaign, readonly=True) as reader:
        path = export_player_notebook(reader, CHAPEL, tmp_path / "players.ipynb")
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    assert notebook.cells[0].source.startswith(f"# {CHAPEL}")
    assert all(c.get("outputs", []) == [] for c in notebook.cells if c.cell_type == "code")
    namespace: dict[str, object] = {}
    exec(notebook.cells[-1].source, namespace)
    assert namespace["view"] == fight.player_view()


def test_exporting_with_player_sides_when_the_gm_has_set_none(tmp_path):
    from gmkit.campaign import prepare_encounter
    from gmkit.demo import demo_campaign

    roster = next(r for r in demo_campaign().rosters if r.game == "wfrp2")
    with CampaignStore(tmp_path / "c.gmk", create=True) as store:
        prepare_encounter(store, "Road", "wfrp2", roster.sheets, hidden=["Bray-shaman Vhorlag"])
        path = export_player_notebook(store, "Road", tmp_path / "p.ipynb", ("The party",))
    text = path.read_text()
    assert "Gunther Brandauer" in text
    assert "Vhorlag" not in text
    assert "Casts from the treeline" not in text


def test_the_file_names_conditions_and_holds_no_hidden_id(campaign, tmp_path):
    fight = scripted_fight(campaign)
    fight.add_condition("Cultist Ban", "on_fire")
    fight.add_condition("Cultist Ban", "stunned", rounds=2)
    with CampaignStore(campaign, readonly=True) as reader:
        path = export_player_notebook(reader, CHAPEL, tmp_path / "players.ipynb")
    text = path.read_text()
    assert "On fire, Stunned (2 rounds)" in text
    assert "on_fire" not in text
    assert "demagogue-ostrava" not in text  # the start's order named his id
    assert "'hidden_turn': False" in text
