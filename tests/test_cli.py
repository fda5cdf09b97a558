"""The gmkit command, called as a user calls it (in-process for speed, same entry point)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gmkit.cli import build_parser, main, voila_command
from gmkit.demo import demo_campaign
from gmkit.sheets.io import read_roster
from gmkit.sheets.roster import Campaign


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


def test_table_refuses_a_bad_campaign_before_serving(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    data = demo_campaign().to_dict()
    data["rosters"][0]["characters"][0]["name"] = "   "
    bad.write_text(yaml.safe_dump(data))
    assert main(["table", str(bad), "--no-browser", "--port", "1"]) == 2
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
