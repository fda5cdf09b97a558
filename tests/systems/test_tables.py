"""Rule tables are data that a GM replaces through GMKIT_DATA_PATH."""

from __future__ import annotations

import pytest
import yaml

from gmkit.errors import GmkitError
from gmkit.systems._percentile import hit_location
from gmkit.systems._tables import table


@pytest.fixture
def fresh_tables():
    table.cache_clear()
    yield
    table.cache_clear()


def test_a_gm_table_replaces_the_packaged_one(tmp_path, monkeypatch, fresh_tables):
    (tmp_path / "dark_heresy").mkdir()
    rows = [{"upto": 50, "location": "body"}, {"upto": 100, "location": "head"}]
    (tmp_path / "dark_heresy" / "hit_locations.yaml").write_text(yaml.safe_dump(rows))
    assert hit_location(53, "dark_heresy") == "body"  # packaged: 35 -> body
    table.cache_clear()
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    assert hit_location(19, "dark_heresy") == "head"  # 91 -> head in the GM's table
    assert hit_location(19, "deathwatch") == "left_leg"  # other games untouched


def test_a_missing_table_is_named(fresh_tables):
    with pytest.raises(GmkitError, match="no table 'nothing' for 'wfrp2'"):
        table("wfrp2", "nothing")


def test_a_broken_table_is_refused(tmp_path, monkeypatch, fresh_tables):
    (tmp_path / "wfrp2").mkdir()
    (tmp_path / "wfrp2" / "hit_locations.yaml").write_text("- [unclosed\n")
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    with pytest.raises(GmkitError, match="not valid YAML"):
        table("wfrp2", "hit_locations")
