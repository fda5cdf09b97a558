"""A notebook exported for the players holds nothing but the player projection."""

from __future__ import annotations

import html
import json
import platform
import re
from pathlib import Path

import nbformat
import pytest

from gmkit.campaign import demo_campaign_file
from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice
from gmkit.encounter import Encounter, event_text
from gmkit.errors import GmkitError
from gmkit.games import health
from gmkit.store import CampaignStore, StoreError
from gmkit.widgets._player import export_player_notebook
from gmkit.widgets._player_notebook import lab_metadata

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
    assert b"Ilse Marr attacks Cultist Ban with Laspistol: hits" in data  # the public event
    assert b"Sergeant Varro Tull" in data  # a visible combatant


def test_the_file_is_what_jupyterlab_saves_markdown_only(campaign, tmp_path):
    scripted_fight(campaign)
    with CampaignStore(campaign, readonly=True) as reader:
        path = export_player_notebook(reader, CHAPEL, tmp_path / "players.ipynb")
    text = path.read_text(encoding="utf-8")
    notebook = nbformat.reads(text, as_version=4)
    nbformat.validate(notebook)
    assert (notebook.nbformat, notebook.nbformat_minor) == (4, 5)
    assert text == nbformat.writes(notebook) + "\n"  # as JupyterLab writes it back
    assert notebook.metadata == lab_metadata()
    assert notebook.metadata.kernelspec.name == "python3"
    assert notebook.metadata.language_info.version == platform.python_version()
    assert [c.cell_type for c in notebook.cells] == ["markdown"] * 3  # no code, no outputs
    assert [c.id for c in notebook.cells] == ["players-0", "players-1", "players-2"]
    assert notebook.cells[0].source.startswith(f"# {CHAPEL}\n\n<h2 class='gmkit-player-header'>")
    assert "Round <span class='gmkit-now'>1</span>" in notebook.cells[0].source
    assert "Turn: <span class='gmkit-now'>Sergeant Varro Tull</span>" in notebook.cells[0].source
    assert notebook.cells[1].source.startswith("<table class='gmkit-player-table'>")
    assert notebook.cells[2].source == (
        "## Log\n\n<ul><li>Ilse Marr attacks Cultist Ban with Laspistol: hits</li></ul>"
    )


def test_exporting_with_player_sides_when_the_gm_has_set_none(tmp_path):
    from gmkit.campaign import prepare_encounter

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
    for flag in ("hidden_turn", "current_side", "visibility", "'sheet'", "enemy_wounds"):
        assert flag not in text, flag


def banded_fight(store: CampaignStore) -> Encounter:
    """The chapel with enemy wounds shown as bands, after Ilse Marr's public hit on Cultist
    Ban (2 wounds of his 8) and a GM note of the fight's own."""
    fight = Encounter.open(store, CHAPEL)
    fight.set("enemy_wounds", "band")
    fight.roll_initiative(EnteredDice([9, 10, 6, 7, 1, 5, 4, 8]))
    fight.start()
    fight.attack("Ilse Marr", "Laspistol", "Cultist Ban", EnteredDice([20, 3]))
    fight.note("Ostrava's escape tunnel is behind the third pew.")
    return fight


def test_a_banded_export_holds_no_gm_value_byte_by_byte(campaign, tmp_path):
    with CampaignStore(campaign) as store:
        fight = banded_fight(store)
        path = export_player_notebook(store, fight, tmp_path / "players.ipynb")
    data = path.read_bytes()
    state = fight.state
    enemies = [c for c in state.combatants.values() if c.side == "Pale Throne cult"]
    hidden = [c for c in enemies if c.hidden]
    assert [c.name for c in hidden] == ["Demagogue Ostrava"]
    ban = state.combatants["cultist-ban"]
    assert health(ban.sheet, ban.counters) == (6, 8)  # hurt: the players read the band only
    notes = [e["text"] for e in fight.events if e["kind"] == "note"]
    assert notes == [
        "The demagogue waits behind the altar: he steps out when a cultist falls.",
        "Ostrava's escape tunnel is behind the third pew.",
    ]
    sheet_notes = [c.sheet.notes for c in enemies if c.sheet.notes]
    assert sheet_notes == [
        "Knows the acolytes are coming; a hidden stub revolver under the altar cloth."
    ]
    secrets = [c.name for c in hidden] + notes + sheet_notes
    secrets += ["Ostrava", "demagogue", "escape tunnel", "altar"]  # not even a part of them
    secrets += list(state.combatants)  # every combatant's id, the players' own included
    for enemy in enemies:  # each enemy's exact wounds, in any spacing
        left, total = health(enemy.sheet, enemy.counters)
        secrets += [f"{left}/{total}", f"{left} / {total}", f"{left}\\/{total}"]
    secrets += ["hidden_turn", "current_side", "visibility", "enemy_wounds", "player_sides"]
    secrets += ['"hidden"', "'hidden'", "minion", "counters", "damage_type"]  # flags, sheets
    for value in secrets:
        for form in (value, json.dumps(value)[1:-1], html.escape(value)):
            assert form.encode() not in data, value
    for shown in (
        b"Cultist Ban",
        b">hurt<",
        b">unhurt<",
        b"Ilse Marr attacks Cultist Ban with Laspistol: hits",
    ):
        assert shown in data, shown
    assert b"10/10" in data  # a player's own wounds are exact


def test_the_encounter_or_its_name_give_the_same_bytes(campaign, tmp_path):
    with CampaignStore(campaign) as store:
        fight = banded_fight(store)
        by_fight = export_player_notebook(store, fight, tmp_path / "by-fight.ipynb")
        by_name = export_player_notebook(store, CHAPEL, tmp_path / "by-name.ipynb")
    assert by_fight.read_bytes() == by_name.read_bytes()
    assert b"Cultist Ban" in by_name.read_bytes()


def test_an_encounter_of_another_store_is_exported_as_it_is(campaign, tmp_path):
    with CampaignStore(campaign) as store:
        fight = banded_fight(store)
        here = export_player_notebook(store, fight, tmp_path / "here.ipynb")
    with CampaignStore(tmp_path / "other.gmk", create=True) as other:
        assert other.encounters() == []
        there = export_player_notebook(other, fight, tmp_path / "there.ipynb")
    assert there.read_bytes() == here.read_bytes()


@pytest.mark.parametrize(
    ("encounter", "shown"),
    [(42, "int 42"), (None, "NoneType None"), ([CHAPEL], f"list [{CHAPEL!r}]")],
)
def test_a_wrong_encounter_argument_is_refused_by_name(campaign, tmp_path, encounter, shown):
    target = tmp_path / "players.ipynb"
    with CampaignStore(campaign, readonly=True) as reader, pytest.raises(StoreError) as refused:
        export_player_notebook(reader, encounter, target)
    assert isinstance(refused.value, GmkitError)
    assert str(refused.value) == (
        "export_player_notebook: 'encounter' must be an Encounter or its name, got " + shown
    )
    assert refused.value.render("es") == (
        "export_player_notebook: 'encounter' debe ser un Encounter o su nombre, no " + shown
    )
    assert not target.exists()


def test_an_unknown_name_or_language_is_refused_clearly(campaign, tmp_path):
    target = tmp_path / "players.ipynb"
    with CampaignStore(campaign, readonly=True) as reader:
        with pytest.raises(StoreError, match=r"^no encounter named 'The Chapel'$"):
            export_player_notebook(reader, "The Chapel", target)
        with pytest.raises(StoreError) as refused:
            export_player_notebook(reader, CHAPEL, target, language="fr")
    assert str(refused.value) == (
        "export_player_notebook: 'language' 'fr' is none gmkit speaks; it speaks en and es"
    )
    assert not target.exists()


def test_a_spanish_export_reads_spanish(campaign, tmp_path):
    with CampaignStore(campaign) as store:
        fight = banded_fight(store)
        path = export_player_notebook(store, fight, tmp_path / "es.ipynb", language="es")
    notebook = nbformat.read(path, as_version=4)
    header, table, log = (cell.source for cell in notebook.cells)
    assert "Asalto <span class='gmkit-now'>1</span>" in header
    assert "Turno: <span class='gmkit-now'>Ilse Marr</span>" in header
    heads = "<th>Personaje</th><th>Bando</th><th>Heridas</th><th>Estados</th>"
    assert heads in table
    assert "<summary>Hoja</summary><b>Características</b> HA 41" in table  # the Spanish books'
    assert "<b>Puntos de destino</b> 2 · <b>Armadura</b> Chaleco de malla · <b>Armas</b>" in table
    assert ">herido<" in table
    assert ">ileso<" in table
    assert log.startswith("## Registro\n\n<ul><li>Ilse Marr ataca a Cultist Ban con ")
    assert log.endswith(": impacta</li></ul>")  # hit, no damage under the band
    read = re.sub(r"<[^>]+>", " ", "\n".join((header, table, log)))  # what the page shows
    words = set(re.findall(r"[A-Za-zÁÉÍÓÚáéíóúñÑ]+", read))
    english = {"Round", "Turn", "Character", "Side", "Wounds", "Conditions", "Log", "Sheet"}
    english |= {"hurt", "unhurt", "hits", "once", "with", "damage", "Fate", "Weapons"}
    assert words & english == set()
    assert {"Asalto", "Turno", "Registro", "ataca", "herido", "ileso"} <= words


def test_on_a_hidden_combatants_turn_the_players_read_an_enemy_acts(campaign, tmp_path):
    with CampaignStore(campaign) as store:
        fight = banded_fight(store)
        while not fight.state.current.hidden:
            fight.next_turn()
        assert fight.state.current.name == "Demagogue Ostrava"
        path = export_player_notebook(store, fight, tmp_path / "players.ipynb")
    header = nbformat.read(path, as_version=4).cells[0].source
    acts = "Turn: <span class='gmkit-now gmkit-enemy-acts'>An enemy acts</span></span></h2>"
    assert header.endswith(acts)
    data = path.read_bytes()
    for secret in (b"Ostrava", b"demagogue", b"hidden"):
        assert secret not in data, secret


def test_a_name_is_shown_as_it_is_never_read_as_markdown(tmp_path):
    roster = next(r for r in demo_campaign().rosters if r.game == "dark_heresy")
    fight = Encounter("dark_heresy", name="Hive_9: *the* [sump] <b>")
    fight.add_many(roster.sheets[:2])
    with CampaignStore(tmp_path / "c.gmk", create=True) as store:
        path = export_player_notebook(store, fight, tmp_path / "p.ipynb")
    title = nbformat.read(path, as_version=4).cells[0].source.splitlines()[0]
    assert title == r"# Hive\_9: \*the\* \[sump\] &lt;b&gt;"


def test_the_export_is_still_named_where_it_was():
    import gmkit.widgets
    from gmkit.widgets import _player as player
    from gmkit.widgets import _player_notebook as player_notebook

    assert player.export_player_notebook is player_notebook.export_player_notebook
    assert gmkit.widgets.export_player_notebook is player_notebook.export_player_notebook
