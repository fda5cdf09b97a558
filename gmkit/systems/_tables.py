"""Rule tables as data: ``systems/data/<game>/<name>.yaml``, replaceable by a GM.

A file of the same name in ``<dir>/<game>/`` of any folder on ``GMKIT_DATA_PATH`` replaces the
packaged table whole (tables are read once per process; call ``table.cache_clear()`` after
changing the path in a running kernel). A table that cannot be found or read is refused as a
:class:`~gmkit.errors.GmkitError` whose message is of the ``catalogs`` catalog.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from gmkit.errors import GmkitError
from gmkit.messages import Message
from gmkit.systems._catalogs import DATA_PATH_VARIABLE, data_file

# libyaml's safe loader when PyYAML has it (the rule tables load ten times faster), else
# PyYAML's own: both build plain data only.
_SAFE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def table(game: str, name: str) -> Any:
    """The parsed YAML table ``name`` of ``game`` (``percentile`` holds the d100 family's)."""
    path = data_file(game, f"{name}.yaml")
    for folder in filter(None, os.environ.get(DATA_PATH_VARIABLE, "").split(os.pathsep)):
        candidate = Path(folder) / game / f"{name}.yaml"
        if candidate.exists():
            path = candidate
    if not path.exists():
        raise GmkitError(
            Message("catalogs.no_table", table=repr(name), game=repr(game), path=str(path))
        )
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_SAFE_LOADER)
    except yaml.YAMLError as error:
        raise GmkitError(
            Message("catalogs.table_not_yaml", path=str(path), detail=str(error))
        ) from None
