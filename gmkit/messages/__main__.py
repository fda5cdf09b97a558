"""Catalog upkeep from the shell, for developers and translators.

    python -m gmkit.messages check                 # every problem of the catalogs, one a line
    python -m gmkit.messages add ID ENGLISH SPANISH [--comment TEXT]
    python -m gmkit.messages add-many FILE         # a YAML list of {id, en, es, comment}
    python -m gmkit.messages show ID

``add`` writes the entry into ``<domain>.pot`` (English) and ``es/LC_MESSAGES/<domain>.po``
(Spanish), the domain being the id's first part; an existing id is replaced in both. The files
stay plain gettext catalogs: any .po editor opens them. ``add`` and ``add-many`` write gmkit's
own catalogs; with ``--catalogs FOLDER`` a game's own folder (a game installed as a package
ships its messages there: its ``Game.catalogs``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

import yaml
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from gmkit.messages._catalog import LOCALE, catalogs, fields_of, problems


def _paths(domain: str, folder: Path = LOCALE) -> tuple[Path, Path]:
    return folder / f"{domain}.pot", folder / "es" / "LC_MESSAGES" / f"{domain}.po"


def _open(path: Path, language: str) -> Catalog:
    if path.exists():
        with path.open("rb") as handle:
            return read_po(handle, locale=language)
    return Catalog(locale=language, project="gmkit", fuzzy=False)


def _save(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalog, width=0, omit_header=False, sort_output=False)


def add(entries: Iterable[tuple[str, str, str, str]], folder: Path = LOCALE) -> int:
    """Write ``(id, english, spanish, comment)`` entries into the catalogs of ``folder``
    (gmkit's own by default); returns how many."""
    by_domain: dict[str, list[tuple[str, str, str, str]]] = {}
    for entry in entries:
        message_id, english, spanish, _ = entry
        if "." not in message_id:
            raise SystemExit(f"{message_id}: an id is <domain>.<name>")
        if fields_of(english) != fields_of(spanish):
            raise SystemExit(f"{message_id}: the Spanish fields are not the English's")
        by_domain.setdefault(message_id.split(".")[0], []).append(entry)
    count = 0
    for domain, found in by_domain.items():
        pot_path, po_path = _paths(domain, folder)
        pot, po = _open(pot_path, "en"), _open(po_path, "es")
        for message_id, english, spanish, comment in found:
            for catalog in (pot, po):
                for old in [m for m in catalog if m.context == message_id]:
                    catalog.delete(old.id, context=message_id)
            comments = [comment] if comment else []
            pot.add(english, "", auto_comments=comments, context=message_id)
            po.add(english, spanish, auto_comments=comments, context=message_id)
            count += 1
        _save(pot_path, pot)
        _save(po_path, po)
    catalogs.cache_clear()
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gmkit.messages")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check")
    one = commands.add_parser("add")
    one.add_argument("id")
    one.add_argument("english")
    one.add_argument("spanish")
    one.add_argument("--comment", default="")
    one.add_argument("--catalogs", type=Path, default=LOCALE, help="a game's own folder")
    many = commands.add_parser("add-many")
    many.add_argument("file", type=Path)
    many.add_argument("--catalogs", type=Path, default=LOCALE, help="a game's own folder")
    show = commands.add_parser("show")
    show.add_argument("id")
    args = parser.parse_args(argv)
    if args.command == "check":
        found = problems()
        for line in found:
            print(line)
        print(f"{len(catalogs().templates)} messages, {len(found)} problems", file=sys.stderr)
        return 1 if found else 0
    if args.command == "add":
        add([(args.id, args.english, args.spanish, args.comment)], args.catalogs)
        return 0
    if args.command == "add-many":
        listed = yaml.safe_load(args.file.read_text(encoding="utf-8")) or []
        count = add(
            (
                (str(e["id"]), str(e["en"]), str(e["es"]), str(e.get("comment") or ""))
                for e in listed
            ),
            args.catalogs,
        )
        print(f"{count} entries written")
        return 0
    entry = catalogs().templates.get(args.id)
    if entry is None:
        print(f"{args.id}: no such message")
        return 1
    spanish = catalogs().translations["es"].get(args.id)
    print(f"en: {entry.english}\nes: {spanish.translated if spanish else '(none)'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

__all__: list[str] = []  # run as python -m gmkit.messages: nothing to import
