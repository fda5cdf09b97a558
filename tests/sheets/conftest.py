"""What the sheet tests share: the packaged catalogs, read as plain YAML.

- ``catalog_entries(game, filename)`` (also a fixture of that name): the entries of
  ``gmkit/systems/data/<game>/<filename>``, checked to be a non-empty list.
- ``@pytest.mark.catalog(game, filename)``: run the test once per entry, passed as ``entry`` and
  named by its ``name`` (``id_key="id"`` names it by another key).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

DATA = Path(__file__).resolve().parents[2] / "gmkit" / "systems" / "data"


def catalog_entries(game: str, filename: str) -> list[dict[str, Any]]:
    """The entries of one game's catalog file, as the YAML holds them but for each entry's
    Spanish name (``name_es``: the catalogs' to show and find, not a field of the model)."""
    entries = yaml.safe_load((DATA / game / filename).read_text(encoding="utf-8"))
    assert isinstance(entries, list)
    assert entries
    assert all(isinstance(entry.get("name_es"), str) for entry in entries), filename
    return [{k: v for k, v in entry.items() if k != "name_es"} for entry in entries]


@pytest.fixture(name="catalog_entries")
def catalog_entries_fixture() -> Callable[[str, str], list[dict[str, Any]]]:
    """:func:`catalog_entries`, for a test to call."""
    return catalog_entries


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "catalog(game, filename, id_key='name'): run the test once per entry of the game's "
        "catalog file, passed as the argument ``entry``",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker = metafunc.definition.get_closest_marker("catalog")
    if marker is None:
        return
    key = marker.kwargs.get("id_key", "name")
    metafunc.parametrize("entry", catalog_entries(*marker.args), ids=lambda entry: entry[key])
