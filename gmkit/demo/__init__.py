"""The demo campaign: a ready fight for each game, as data files beside this module."""

from __future__ import annotations

from importlib import resources

import yaml

from gmkit.sheets._roster import Campaign, Roster

DEMO_NAME = "gmkit demo campaign"
# One file per fight, in the order the dashboard shows them.
DEMO_FILES = (
    "necromunda.yaml",
    "dark_heresy.yaml",
    "deathwatch.yaml",
    "wfrp2.yaml",
    "wfb6.yaml",
)


def demo_campaign() -> Campaign:
    """The demo campaign, validated from the packaged files."""
    folder = resources.files("gmkit.demo")
    rosters = tuple(
        Roster.from_dict(yaml.safe_load(folder.joinpath(name).read_text("utf-8")))
        for name in DEMO_FILES
    )
    return Campaign(DEMO_NAME, rosters)


__all__ = [
    "DEMO_FILES",
    "DEMO_NAME",
    "demo_campaign",
]
