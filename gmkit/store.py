"""A campaign, where it is kept: a SQLite file (the embedded default, nothing to install) or a
PostgreSQL schema (``postgresql://user@host/database#campaign``, for tables that share one
server). ``CampaignStore(location)`` opens either; the records, the commands' events, undo, the
group commit, the secrecy and the checks on open are the same.

The parts: :mod:`gmkit._store_file` (the file: SQLite, its schema and migrations),
:mod:`gmkit._store_pg` (PostgreSQL: its session, its doorbell in :mod:`gmkit._store_bell`),
:mod:`gmkit._store_records` (the SQL both run), :mod:`gmkit._store_copy` (``gmkit copy``).
"""

from __future__ import annotations

from gmkit._store_check import EncounterGone, StoreError
from gmkit._store_file import (
    APPLICATION_ID,
    MIGRATIONS,
    SCHEMA_VERSION,
    CampaignStore,
    execute_statements,
    expected_schema,
    is_database_url,
)
from gmkit._store_pg import PostgresCampaign
from gmkit._store_records import EncounterInfo, StoredEvent

__all__ = [
    "APPLICATION_ID",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "CampaignStore",
    "EncounterGone",
    "EncounterInfo",
    "PostgresCampaign",
    "StoreError",
    "StoredEvent",
    "execute_statements",
    "expected_schema",
    "is_database_url",
]
