"""The parsed catalogs' cache file: the same catalogs as a parse, never a stale or damaged one."""

from __future__ import annotations

import shutil
from pathlib import Path

from gmkit.messages._catalog import (
    LOCALE,
    add_catalogs,
    catalogs,
    fingerprint,
    folders,
    load,
    load_cached,
    remove_catalogs,
)


def copy_of_locale(tmp_path: Path) -> Path:
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE, locale)
    return locale


def test_the_cache_gives_what_a_parse_gives(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    first = load_cached(LOCALE, folder)
    (written,) = folder.glob("catalogs-*.json")
    assert written.name == f"catalogs-{fingerprint()}.json"
    again = load_cached(LOCALE, folder)
    assert again == first == load()
    assert again.english("common.verbatim") == "{text}"


def test_a_changed_catalog_is_parsed_again(tmp_path: Path) -> None:
    locale = copy_of_locale(tmp_path)
    folder = tmp_path / "cache"
    before = load_cached(locale, folder)
    common = locale / "es" / "LC_MESSAGES" / "common.po"
    entry = next(e for e in before.translations["es"].values() if e.domain == "common")
    text = common.read_text(encoding="utf-8")
    marked = f'msgstr "{entry.translated}"'
    assert marked in text
    common.write_text(text.replace(marked, 'msgstr "CAMBIADO"', 1), encoding="utf-8")
    after = load_cached(locale, folder)
    assert after.translations["es"][entry.id].translated == "CAMBIADO"
    assert len(list(folder.glob("catalogs-*.json"))) == 1  # the stale one is gone


def test_a_damaged_or_unwritable_cache_is_ignored(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / f"catalogs-{fingerprint()}.json").write_text('{"templates": [[1]]', "utf-8")
    assert load_cached(LOCALE, folder) == load()
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("x", encoding="utf-8")
    assert load_cached(LOCALE, blocked) == load()


def test_a_games_own_catalogs_join_gmkits_and_the_cache(tmp_path: Path) -> None:
    own = tmp_path / "locale"
    shutil.copytree(Path(__file__).parent / "plugins" / "gmkit-duel" / "gmkit_duel" / "locale", own)
    alone = fingerprint()
    assert catalogs().english("duel.title") is None
    add_catalogs(own)
    try:
        assert folders() == (LOCALE, own)
        assert catalogs().english("duel.title") == "Duel"  # read again with its folder
        assert catalogs().translated("duel.title", "es", "Duel") == "Duelo"
        assert fingerprint() == fingerprint((LOCALE, own)) != alone
        cache = tmp_path / "cache"
        assert load_cached(None, cache) == load()
        (written,) = cache.glob("catalogs-*.json")
        assert written.name == f"catalogs-{fingerprint()}.json"
    finally:
        remove_catalogs(own)
    assert catalogs().english("duel.title") is None
    assert fingerprint() == alone
