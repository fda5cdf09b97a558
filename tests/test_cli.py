"""The gmkit command, called as a user calls it (in-process for speed, same entry point)."""

from __future__ import annotations

import ast
import json
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yaml

from gmkit._cli import build_parser, lan_address, main, voila_command
from gmkit._launch import lab_command
from gmkit.campaign import create_demo_store, open_campaign, resolve_campaign
from gmkit.demo import demo_campaign
from gmkit.encounter import Encounter
from gmkit.sheets._io import read_roster, write_roster
from gmkit.sheets._roster import Campaign
from gmkit.store import CampaignStore, StoreError

ROOT = Path(__file__).resolve().parent.parent


def test_demo_writes_a_campaign_that_loads_back_equal(tmp_path, capsys):
    target = tmp_path / "campaign.yaml"
    assert main(["demo", str(target)]) == 0
    assert str(target) in capsys.readouterr().out
    assert Campaign.load(target) == demo_campaign()


def test_demo_as_json(tmp_path):
    target = tmp_path / "campaign.json"
    assert main(["demo", str(target)]) == 0
    assert target.read_text().lstrip().startswith("{")
    assert Campaign.load(target) == demo_campaign()


@pytest.mark.parametrize("suffix", [".csv", ".json", ".yaml"])
def test_export_writes_one_roster(tmp_path, suffix):
    campaign_file = demo_campaign().save(tmp_path / "c.yaml")
    roster = demo_campaign().rosters[1]
    target = tmp_path / f"out{suffix}"
    assert main(["export", str(campaign_file), roster.title, str(target)]) == 0
    assert read_roster(target) == list(roster.sheets)


def test_export_names_the_missing_roster(tmp_path, capsys):
    campaign_file = demo_campaign().save(tmp_path / "c.yaml")
    assert main(["export", str(campaign_file), "No such fight", str(tmp_path / "x.csv")]) == 2
    error = capsys.readouterr().err
    assert "No such fight" in error
    assert demo_campaign().rosters[0].title in error


def test_table_refuses_a_bad_campaign_before_serving(tmp_path, capsys, free_port):
    bad = tmp_path / "bad.yaml"
    data = demo_campaign().to_dict()
    data["rosters"][0]["characters"][0]["name"] = "   "
    bad.write_text(yaml.safe_dump(data))
    assert main(["table", str(bad), "--no-browser", "--port", str(free_port)]) == 2
    error = capsys.readouterr().err
    assert "name" in error
    assert "serving" not in error


def test_table_options_are_voila_s():
    args = build_parser().parse_args(["table", "--port", "9999", "--no-browser"])
    assert (args.port, args.no_browser, args.campaign) == (9999, True, None)
    command = voila_command(Path("t.ipynb"), 9999, open_browser=False)
    assert "--port=9999" in command
    assert "--no-browser" in command
    assert "--strip_sources=True" in command
    assert "--show_tracebacks=False" in command  # whatever a user's Voila config says


# --- the campaign file, import, export, players --------------------------------------------


def test_demo_as_a_campaign_file_holds_a_prepared_fight_per_game(tmp_path, capsys):
    target = tmp_path / "campaign.gmk"
    assert main(["demo", str(target)]) == 0
    assert "one prepared fight per game" in capsys.readouterr().out
    with CampaignStore(target, readonly=True) as store:
        assert store.campaign() == demo_campaign()
        encounters = store.encounters()
        fight = Encounter.open(store, encounters[0].name)
    assert sorted(e.game for e in encounters) == sorted(r.game for r in demo_campaign().rosters)
    assert fight.state.round == 0  # initiative not yet rolled
    assert all(c.initiative is None for c in fight.state.present)
    assert fight.combatant("Demagogue Ostrava").hidden
    assert main(["demo", str(target)]) == 2  # never written over
    assert "exists already" in capsys.readouterr().err


def test_a_document_given_to_table_is_imported_beside_it(tmp_path):
    document = demo_campaign().save(tmp_path / "mine.yaml")
    resolved = resolve_campaign(document)
    assert resolved.path == tmp_path / "mine.gmk"
    assert "imported into a new campaign file beside it" in resolved.note
    with CampaignStore(resolved.path, readonly=True) as store:
        assert [e.name for e in store.encounters()] == [r.title for r in demo_campaign().rosters]
    again = resolve_campaign(document)  # the earlier import, with the GM's logs, is kept
    assert again.path == resolved.path
    assert "using its earlier import" in again.note


def test_a_document_in_a_read_only_folder_is_imported_into_a_temporary_one(tmp_path, monkeypatch):
    document = demo_campaign().save(tmp_path / "mine.json")
    monkeypatch.setattr("gmkit.campaign.os.access", lambda *_: False)
    resolved = resolve_campaign(document)
    assert resolved.path.parent != tmp_path
    assert "in a temporary folder" in resolved.note
    assert open_campaign(resolved.path).name == demo_campaign().name


def test_no_campaign_is_a_fresh_demo_file():
    resolved = resolve_campaign(None)
    assert resolved.path.name == "demo-campaign.gmk"
    assert "the demo campaign, written to" in resolved.note


def test_open_campaign_refuses_what_is_not_a_campaign(tmp_path):
    text = tmp_path / "notes.gmk"
    text.write_text("not a database")
    with pytest.raises(StoreError, match="not a gmkit campaign"):
        open_campaign(text)
    with pytest.raises(StoreError, match="no such campaign"):
        open_campaign(tmp_path / "missing.gmk")


@pytest.mark.parametrize("suffix", [".csv", ".yaml", ".json"])
def test_import_a_roster_file_into_a_campaign_file(tmp_path, suffix, capsys):
    roster = demo_campaign().rosters[3]
    source = write_roster(tmp_path / f"beastmen{suffix}", roster.sheets)
    campaign = tmp_path / "c.gmk"
    assert main(["import", str(campaign), str(source), "--title", "Road ambush"]) == 0
    assert "added the roster 'Road ambush'" in capsys.readouterr().out
    with CampaignStore(campaign, readonly=True) as store:
        (stored,) = store.rosters()
    assert (stored.title, stored.game, stored.sheets) == ("Road ambush", "wfrp2", roster.sheets)
    assert main(["import", str(campaign), str(source), "--title", "Road ambush"]) == 0
    assert "replaced" in capsys.readouterr().out


def test_import_fills_the_game_given(tmp_path):
    source = tmp_path / "gang.yaml"
    source.write_text("- {name: Spike, fighter_type: ganger}\n- {name: Rat, fighter_type: juve}\n")
    campaign = tmp_path / "c.gmk"
    assert main(["import", str(campaign), str(source), "--game", "necromunda"]) == 0
    with CampaignStore(campaign, readonly=True) as store:
        (stored,) = store.rosters()
    assert stored.title == "gang"
    assert [s.name for s in stored.sheets] == ["Spike", "Rat"]


def test_import_into_a_campaign_document(tmp_path):
    document = demo_campaign().save(tmp_path / "c.yaml")
    source = write_roster(tmp_path / "extra.json", demo_campaign().rosters[0].sheets[:2])
    assert main(["import", str(document), str(source), "--title", "Extra"]) == 0
    assert Campaign.load(document).roster("Extra").sheets == demo_campaign().rosters[0].sheets[:2]


def test_import_refuses_a_roster_without_a_game(tmp_path, capsys):
    source = tmp_path / "gang.yaml"
    source.write_text("- {name: Spike}\n")
    assert main(["import", str(tmp_path / "c.gmk"), str(source)]) == 2
    assert "game" in capsys.readouterr().err


def test_export_the_whole_campaign_and_one_encounter_as_json(tmp_path):
    campaign = create_demo_store(tmp_path / "c.gmk")
    everything = tmp_path / "all.json"
    assert main(["export", str(campaign), "--all", str(everything)]) == 0
    data = json.loads(everything.read_text())
    assert [r["title"] for r in data["rosters"]] == [r.title for r in demo_campaign().rosters]
    assert len(data["encounters"]) == 5
    one = tmp_path / "chapel.json"
    name = "The Chapel of the Pale Throne"
    assert main(["export", str(campaign), "--encounter", name, str(one)]) == 0
    fight = json.loads(one.read_text())
    assert fight["name"] == name
    assert fight["game"] == "dark_heresy"
    assert fight["events"][0]["kind"] == "added"


def test_export_a_roster_from_a_campaign_file(tmp_path):
    campaign = create_demo_store(tmp_path / "c.gmk")
    roster = demo_campaign().rosters[2]
    target = tmp_path / "out.csv"
    assert main(["export", str(campaign), roster.title, str(target)]) == 0
    assert read_roster(target) == list(roster.sheets)


def test_export_needs_its_paths(tmp_path, capsys):
    campaign = create_demo_store(tmp_path / "c.gmk")
    assert main(["export", str(campaign), "only-one"]) == 2
    assert main(["export", str(campaign), "--all", "a.json", "b.json"]) == 2
    assert "export" in capsys.readouterr().err


def test_players_needs_a_campaign_file_and_an_encounter_it_holds(
    tmp_path, capsys, monkeypatch, free_port
):
    port = str(free_port)  # free: the port is checked first (port 1 is root's alone)
    monkeypatch.setenv("GMKIT_STATE_DIR", str(tmp_path / "state"))
    assert main(["players", "--no-browser", "--port", port]) == 2  # no table served yet
    assert "gmkit table prints it" in capsys.readouterr().err
    document = demo_campaign().save(tmp_path / "c.yaml")
    assert main(["players", str(document), "--no-browser", "--port", port]) == 2
    assert "not a document" in capsys.readouterr().err
    campaign = create_demo_store(tmp_path / "c.gmk")
    args = ["players", str(campaign), "--encounter", "Nowhere", "--no-browser", "--port", port]
    assert main(args) == 2
    error = capsys.readouterr().err
    assert "Nowhere" in error
    assert "The Chapel of the Pale Throne" in error


def test_players_options_and_its_voila_command():
    args = build_parser().parse_args(["players", "c.gmk", "--encounter", "E", "--port", "9"])
    assert (args.campaign, args.encounter, args.port, args.no_browser) == ("c.gmk", "E", 9, False)
    command = voila_command(Path("p.ipynb"), 9, open_browser=True, ip="0.0.0.0")
    assert "--Voila.ip=0.0.0.0" in command  # reachable from the players' devices
    assert "--no-browser" not in command
    assert "--preheat_kernel=True" in command
    assert "--pool_size=1" in command
    assert "--Voila.port_retries=0" in command


def test_the_lan_address_is_not_a_loopback_one():
    address = lan_address()
    assert address is None or not address.startswith("127.")


# --- launching: a port in use, gmkit lab, gmkit notebooks ------------------------------------


@pytest.fixture
def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def taken_port():
    """A port another program listens on (on every interface, as a server would)."""
    with socket.socket() as holder:
        holder.bind(("0.0.0.0", 0))
        holder.listen()
        yield holder.getsockname()[1]


@pytest.mark.parametrize("command", ["table", "players", "lab"])
def test_a_port_in_use_is_an_error_before_anything_starts(
    command, taken_port, tmp_path, capsys, monkeypatch
):
    started = []
    monkeypatch.setattr("gmkit._launch.subprocess.Popen", lambda *a, **k: started.append(a))
    campaign = [str(create_demo_store(tmp_path / "c.gmk"))]
    assert main([command, *campaign, "--port", str(taken_port), "--no-browser"]) == 2
    captured = capsys.readouterr()
    message = f"gmkit {command}: port {taken_port} is in use; choose another with --port\n"
    assert captured.err == message
    assert "serving" not in captured.out
    assert started == []  # no server was started


def test_a_port_must_be_a_port_number(capsys):
    with pytest.raises(SystemExit) as refused:
        build_parser().parse_args(["table", "--port", "70000"])
    assert refused.value.code == 2
    assert "argument --port: 70000 is not a port (1 to 65535)" in capsys.readouterr().err


def test_lab_options_and_its_jupyterlab_command(tmp_path):
    args = build_parser().parse_args(["lab", "c.gmk", "--dir", "nb", "--port", "9", "--no-browser"])
    assert (args.campaign, args.dir, args.port, args.no_browser) == ("c.gmk", "nb", 9, True)
    defaults = build_parser().parse_args(["lab"])
    assert (defaults.campaign, defaults.dir, defaults.port, defaults.no_browser) == (
        None,
        None,
        8888,
        False,
    )
    command = lab_command(tmp_path, 9, open_browser=False)
    assert f"--ServerApp.root_dir={tmp_path}" in command
    assert "--LabApp.default_url=/lab/tree/prep.ipynb" in command  # opens the prep notebook
    assert "--ServerApp.port_retries=0" in command
    assert "--no-browser" in command
    assert "--LabApp.news_url=" in command  # nothing asked of the internet


def test_lab_needs_a_folder_holding_the_prep_notebook(tmp_path, capsys):
    assert main(["lab", "--dir", str(tmp_path), "--no-browser"]) == 2
    error = capsys.readouterr().err
    assert error == (
        f"gmkit lab: {tmp_path}: no prep.ipynb here; copy the notebooks first: "
        f"gmkit notebooks {tmp_path}\n"
    )


def test_notebooks_copies_the_prep_and_tour_notebooks(tmp_path, capsys):
    target = tmp_path / "mine"
    assert main(["notebooks", str(target)]) == 0
    written = sorted(path.name for path in target.iterdir())
    tours = sorted(path.name for path in (ROOT / "notebooks").glob("tour_*.ipynb"))
    assert len(tours) == 5
    assert written == sorted(["prep.ipynb", "acolytes.csv", *tours])  # not the apps' notebooks
    for name in written:
        assert (target / name).read_bytes() == (ROOT / "notebooks" / name).read_bytes()
    out = capsys.readouterr().out
    assert f"gmkit notebooks: wrote {target / 'prep.ipynb'}\n" in out
    assert out.endswith(f"gmkit notebooks: open them with: gmkit lab --dir {target}\n")


def test_notebooks_refuses_to_write_over_a_notebook_unless_forced(tmp_path, capsys):
    mine = tmp_path / "prep.ipynb"
    mine.write_text("my own notes")
    assert main(["notebooks", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        f"gmkit notebooks: {mine} exists already; give --force to write over it\n"
    )
    assert mine.read_text() == "my own notes"
    assert sorted(tmp_path.iterdir()) == [mine]  # nothing copied at all
    assert main(["notebooks", str(tmp_path), "--force"]) == 0
    assert mine.read_bytes() == (ROOT / "notebooks" / "prep.ipynb").read_bytes()
    assert main(["notebooks", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.endswith("tour_wfrp2.ipynb exist already; give --force to write over them\n")


# --- what a command imports, and what it writes before a port is found taken (issue 21) ------

SERVERS_AND_TABLES = ("nbformat", "voila", "ipywidgets", "pandas", "tornado", "jupyter_server")


def imported_by(*argv: str) -> set[str]:
    """The heavy packages `gmkit ARGV` has imported when it ends (a fresh interpreter)."""
    code = (
        "import sys\n"
        "from gmkit._cli import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({SERVERS_AND_TABLES!r})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True
    )
    return set(ast.literal_eval(done.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize("argv", [["--help"], ["export", "--help"], ["table", "--help"]])
def test_help_imports_neither_the_servers_nor_the_tables(argv):
    assert imported_by(*argv) == set()


def test_copying_the_notebooks_imports_neither_the_servers_nor_the_tables(tmp_path):
    assert imported_by("notebooks", str(tmp_path / "nb")) == set()
    assert (tmp_path / "nb" / "prep.ipynb").exists()


def test_exporting_a_campaign_imports_no_server(tmp_path):
    campaign = create_demo_store(tmp_path / "c.gmk")
    imported = imported_by("export", str(campaign), "--all", str(tmp_path / "all.json"))
    assert not imported & {"nbformat", "voila", "ipywidgets", "tornado", "jupyter_server"}
    assert json.loads((tmp_path / "all.json").read_text())["encounters"]


@pytest.mark.parametrize("command", ["table", "lab"])
def test_a_port_in_use_is_refused_before_a_demo_campaign_is_written(
    command, taken_port, tmp_path, capsys, monkeypatch
):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where the demo would be written
    assert main([command, "--port", str(taken_port), "--no-browser"]) == 2
    captured = capsys.readouterr()
    assert captured.err == (
        f"gmkit {command}: port {taken_port} is in use; choose another with --port\n"
    )
    assert captured.out == ""  # no "the demo campaign, written to ..."
    assert list(tmp_path.iterdir()) == []  # no demo campaign, no last-table note


# --- gmkit lab: as root, and on a campaign file not made yet (issue 21) -----------------------


@pytest.fixture
def lab_served(monkeypatch):
    """What `gmkit lab` asked JupyterLab to serve (no server started): serve_lab's arguments."""
    calls: list[dict[str, object]] = []

    def serve_lab(folder, environment, **options):
        calls.append({"folder": folder, "environment": environment, **options})
        return 0

    monkeypatch.setattr("gmkit._cli.serve_lab", serve_lab)
    return calls


def test_lab_as_root_lets_jupyterlab_run_as_root_and_says_so(
    lab_served, free_port, tmp_path, capsys, monkeypatch
):
    lab = ["lab", str(tmp_path / "c.gmk"), "--port", str(free_port), "--no-browser"]
    monkeypatch.setattr("gmkit._cli.running_as_root", lambda: True)
    assert main(lab) == 0
    assert lab_served[-1]["allow_root"] is True
    assert "gmkit lab: running as root: JupyterLab started with --allow-root\n" in (
        capsys.readouterr().out
    )
    assert main([*lab, "--allow-root"]) == 0
    assert lab_served[-1]["allow_root"] is True  # JupyterLab's own option, passed through
    assert "running as root" not in capsys.readouterr().out  # asked for: nothing to say
    monkeypatch.setattr("gmkit._cli.running_as_root", lambda: False)
    assert main(lab) == 0
    assert lab_served[-1]["allow_root"] is False
    command = lab_command(Path("nb"), 9, open_browser=False, allow_root=True)
    assert "--ServerApp.allow_root=True" in command
    assert "--ServerApp.allow_root=True" not in lab_command(Path("nb"), 9, open_browser=False)


def test_lab_on_a_campaign_file_not_made_yet_creates_it_and_says_so(
    lab_served, free_port, tmp_path, capsys
):
    new = tmp_path / "campaigns" / "next-week.gmk"
    assert main(["lab", str(new), "--port", str(free_port), "--no-browser"]) == 0
    out = capsys.readouterr().out
    assert f"gmkit lab: a new campaign file, created: {new}\n" in out
    assert f"gmkit lab: campaign file {new}\n" in out
    assert lab_served[-1]["environment"] == {"GMKIT_CAMPAIGN": str(new)}
    with CampaignStore(new, readonly=True) as store:  # a campaign file, empty
        assert (store.rosters(), store.encounters()) == ([], [])
    assert main(["lab", str(new), "--port", str(free_port), "--no-browser"]) == 0
    assert f"gmkit lab: the campaign file {new}\n" in capsys.readouterr().out  # opened, kept
    document = tmp_path / "next-week.yaml"
    assert main(["lab", str(document), "--port", str(free_port), "--no-browser"]) == 2
    assert "no such campaign document (a new campaign is a .gmk file)" in capsys.readouterr().err
    assert not document.exists()


def test_table_on_a_missing_campaign_file_says_how_to_make_one(tmp_path, free_port, capsys):
    missing = tmp_path / "next-week.gmk"
    assert main(["table", str(missing), "--port", str(free_port), "--no-browser"]) == 2
    assert capsys.readouterr().err == (
        f"gmkit table: {missing}: no such campaign file (gmkit lab next-week.gmk makes a new "
        "one; gmkit demo next-week.gmk writes the demo campaign there)\n"
    )
    assert not missing.exists()
