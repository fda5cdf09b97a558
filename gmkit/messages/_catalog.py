"""The message catalogs: gettext files a translator edits without reading code.

Each domain (the first part of a message id: ``necromunda.to_hit`` is in ``necromunda``) has
two files in a catalogs folder: gmkit's own, ``gmkit/messages/locale/``, or a game's (its
``Game.catalogs``: a game installed as a package ships its messages in its own folder, which
:func:`add_catalogs` joins to gmkit's; the registry does so for every game it holds):

- ``<domain>.pot``, the template: one entry per message, its id as ``msgctxt`` and its
  English text as ``msgid`` (the source of truth for English);
- ``es/LC_MESSAGES/<domain>.po``, the Spanish catalog: the same ``msgctxt`` and ``msgid``,
  the Spanish text as ``msgstr``.

Why gettext ``.po`` files: they are the standard every translation tool reads (Poedit, Weblate,
Lokalize, ``msgmerge``), the translator sees the English beside the Spanish, and a changed
English text shows as a mismatch (``msgid`` no longer the template's) that :func:`problems`
reports, so a translation never silently goes stale. The id lives in ``msgctxt`` so that the
English text can change without changing the id the code and the stored events use.

Texts are Python format strings with named fields (``{characteristic} test``); the renderer
(:mod:`gmkit.messages._render`) documents the format specs it adds (lists, plurals,
capitals). Data terms (an action's name in ``actions.yaml``) are entries too: their English is
the data file's (a GM may rename one), and the Spanish is used while its ``msgid`` is still that
English.
"""

from __future__ import annotations

import hashlib
import json
import os
import string
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import astuple, dataclass
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

LOCALE = Path(__file__).with_name("locale")
"""Where the catalogs are: ``<domain>.pot`` and ``<language>/LC_MESSAGES/<domain>.po``."""

_ADDED: list[Path] = []
"""The games' own catalogs folders, joined to gmkit's (:func:`add_catalogs`)."""


def add_catalogs(folder: Path | str) -> Path:
    """Join ``folder`` (``<domain>.pot``, ``<language>/LC_MESSAGES/<domain>.po``) to the catalogs
    read; returns it. A game whose messages are built when its module is imported adds its
    folder first; registering a game adds its ``catalogs``."""
    found = Path(folder)
    if found != LOCALE and found not in _ADDED:
        _ADDED.append(found)
        catalogs.cache_clear()
    return found


def remove_catalogs(folder: Path | str) -> None:
    """Stop reading ``folder`` (a game taken out of the registry)."""
    found = Path(folder)
    if found in _ADDED:
        _ADDED.remove(found)
        catalogs.cache_clear()


def folders() -> tuple[Path, ...]:
    """Every catalogs folder read: gmkit's, then the games' in the order they were added."""
    return (LOCALE, *_ADDED)


def _folders(locale: Path | Sequence[Path] | None) -> tuple[Path, ...]:
    if locale is None:
        return folders()
    return (locale,) if isinstance(locale, Path) else tuple(locale)


SOURCE_LANGUAGE = "en"
LANGUAGES: tuple[str, ...] = ("en", "es")
"""The languages gmkit speaks: English (the templates) and Spanish (the seeds' language)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One message of a catalog: its id, English text, translation, and where it is."""

    id: str
    english: str
    translated: str  # "" when not translated
    domain: str
    fuzzy: bool = False
    comment: str = ""


def fields_of(text: str) -> frozenset[str]:
    """The names of the format fields of ``text`` (``"{value:+d} to {who}"``: value, who)."""
    names = set()
    for _, name, _, _ in string.Formatter().parse(text):
        if name is not None and name != "":
            names.add(name.split(".")[0].split("[")[0])
    return frozenset(names)


def _read(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle)


def _entries(path: Path, domain: str, *, translated: bool) -> Iterator[Entry]:
    for found in _read(path):
        if not found.id or found.context is None:
            continue  # the header, or an entry without an id
        yield Entry(
            id=found.context,
            english=str(found.id),
            translated=str(found.string or "") if translated else "",
            domain=domain,
            fuzzy=found.fuzzy,
            comment=" ".join(found.auto_comments),
        )


@dataclass(frozen=True)
class Catalogs:
    """Every domain's templates and translations, by message id."""

    templates: Mapping[str, Entry]
    translations: Mapping[str, Mapping[str, Entry]]  # language -> id -> entry
    duplicates: tuple[str, ...] = ()

    def english(self, message_id: str) -> str | None:
        entry = self.templates.get(message_id)
        return entry.english if entry is not None else None

    def translated(self, message_id: str, language: str, english: str) -> str | None:
        """The translation of ``message_id`` made from ``english`` (None if none is)."""
        entry = self.translations.get(language, {}).get(message_id)
        if entry is None or entry.fuzzy or not entry.translated or entry.english != english:
            return None
        return entry.translated


def load(locale: Path | Sequence[Path] | None = None) -> Catalogs:
    """Read every ``.pot`` of the catalogs folders (``locale``: a folder or several; None: every
    folder, :func:`folders`) and each language's ``.po`` files."""
    places = _folders(locale)
    templates: dict[str, Entry] = {}
    duplicates: list[str] = []
    for place in places:
        for path in sorted(place.glob("*.pot")):
            for entry in _entries(path, path.stem, translated=False):
                if entry.id in templates:
                    duplicates.append(entry.id)
                templates[entry.id] = entry
    translations: dict[str, dict[str, Entry]] = {}
    for language in LANGUAGES:
        if language == SOURCE_LANGUAGE:
            continue
        found: dict[str, Entry] = {}
        for place in places:
            for path in sorted((place / language / "LC_MESSAGES").glob("*.po")):
                for entry in _entries(path, path.stem, translated=True):
                    found[entry.id] = entry
        translations[language] = found
    return Catalogs(templates, translations, tuple(duplicates))


# Parsing the .po files takes about a third of a second, at every kernel's start; their
# entries are kept in a cache file named by the catalogs' own bytes, so a changed catalog is
# read again and a damaged or missing cache only costs the parse.
CACHE_FORMAT = 1


def cache_folder() -> Path:
    """Where the parsed catalogs are kept: ``$XDG_CACHE_HOME/gmkit`` (``~/.cache/gmkit``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gmkit"


def fingerprint(locale: Path | Sequence[Path] | None = None) -> str:
    """A digest of every catalog file of the folders (names and bytes; None: every folder read,
    gmkit's and the games') and the cache format."""
    digest = hashlib.sha256(f"gmkit catalogs {CACHE_FORMAT}".encode())
    for number, place in enumerate(_folders(locale)):
        digest.update(f"folder {number}\0".encode())
        for path in sorted(place.rglob("*.po*")):
            digest.update(path.relative_to(place).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:24]


def _as_json(found: Catalogs) -> str:
    return json.dumps(
        {
            "templates": [astuple(entry) for entry in found.templates.values()],
            "translations": {
                language: [astuple(entry) for entry in entries.values()]
                for language, entries in found.translations.items()
            },
            "duplicates": list(found.duplicates),
        },
        ensure_ascii=False,
    )


def _from_json(text: str) -> Catalogs:
    data = json.loads(text)
    templates = {row[0]: Entry(*row) for row in data["templates"]}
    translations = {
        language: {row[0]: Entry(*row) for row in rows}
        for language, rows in data["translations"].items()
    }
    return Catalogs(templates, translations, tuple(data["duplicates"]))


def load_cached(
    locale: Path | Sequence[Path] | None = None, folder: Path | None = None
) -> Catalogs:
    """:func:`load`, through the cache file of these catalogs' fingerprint (written when
    missing; an unreadable or unwritable cache is ignored: the catalogs are parsed)."""
    folder = folder or cache_folder()
    cached = folder / f"catalogs-{fingerprint(locale)}.json"
    try:
        return _from_json(cached.read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    found = load(locale)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for stale in folder.glob("catalogs-*.json"):
            stale.unlink(missing_ok=True)
        partial = cached.with_suffix(f".{os.getpid()}.part")
        partial.write_text(_as_json(found), encoding="utf-8")
        partial.replace(cached)
    except OSError:
        pass
    return found


@cache
def catalogs() -> Catalogs:
    """The catalogs of every folder (gmkit's and the games'), read once per process and set of
    folders (parsed once per change of the files)."""
    return load_cached()


def problems(found: Catalogs | None = None) -> list[str]:
    """What is wrong with the catalogs, one line each ([] when nothing is): an id twice, an id
    outside its domain, a message not translated (or translated from an older English), a
    translation whose fields are not the English's."""
    found = found or catalogs()
    listed = [f"{message_id}: defined twice" for message_id in found.duplicates]
    for message_id, entry in sorted(found.templates.items()):
        if message_id.split(".")[0] != entry.domain:
            listed.append(
                f"{message_id}: in {entry.domain}.pot, not {message_id.split('.')[0]}.pot"
            )
        for language, entries in found.translations.items():
            translated = entries.get(message_id)
            if translated is None or not translated.translated:
                listed.append(f"{message_id}: no {language} text")
            elif translated.fuzzy or translated.english != entry.english:
                listed.append(
                    f"{message_id}: the {language} text translates an older English "
                    f"({translated.english!r}, now {entry.english!r})"
                )
            elif fields_of(translated.translated) != fields_of(entry.english):
                listed.append(
                    f"{message_id}: the {language} text's fields "
                    f"{sorted(fields_of(translated.translated))} are not the English's "
                    f"{sorted(fields_of(entry.english))}"
                )
    for language, entries in found.translations.items():
        listed += [
            f"{message_id}: translated to {language} but in no template"
            for message_id in sorted(set(entries) - set(found.templates))
        ]
    return listed


__all__ = [
    "LANGUAGES",
    "LOCALE",
    "Catalogs",
    "Entry",
    "add_catalogs",
    "catalogs",
    "fields_of",
    "folders",
    "load",
    "load_cached",
    "problems",
    "remove_catalogs",
]
