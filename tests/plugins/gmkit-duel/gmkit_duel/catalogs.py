"""Duel's message catalogs (``locale/``), joined to gmkit's before any of its messages is built:
its modules build messages when they are imported, before the registry adds its entry (whose
``catalogs`` names the same folder)."""

from __future__ import annotations

from pathlib import Path

from gmkit.messages import add_catalogs

LOCALE = add_catalogs(Path(__file__).with_name("locale"))
DATA = Path(__file__).with_name("data")

__all__ = ["DATA", "LOCALE"]
