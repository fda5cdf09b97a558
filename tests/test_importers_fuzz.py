"""Every importer answers a hostile file only with gmkit's errors, fast (issue 13, item 4).

Each test feeds generated hostile inputs to one importer: random bytes (most not UTF-8), a
valid roster or campaign with bytes flipped, inserted or cut, nesting of ~1,000 levels,
numbers over Python's 4,300 digits, ``rosters`` holding non-mappings, a list as ``game``,
lone surrogates, YAML aliases (billion laughs, recursive, merge keys), explicit tags, keys that
are not text, texts of 20,000 characters, a CSV of 5,000 columns. Every call either returns
sheets or raises a :class:`~gmkit.errors.GmkitError` naming the file, within the 2 s
deadline; an importer that writes a campaign file leaves it byte-identical when it refuses.

Hypothesis draws a kind and a seed; the input is built from them in plain Python (cheap), and
``derandomize=True`` makes CI draw the same inputs every run. 10,000 inputs go through the
reader every importer shares (``from_yaml`` and ``from_json``: the bounded reader, then the
sheets); 1,000 through each importer end to end, to keep the suite's budget;
``GMKIT_FUZZ_EXAMPLES=10000`` runs 10,000 through every one.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmkit import prep
from gmkit._cli import main
from gmkit.campaign import import_document, read_roster_file, resolve_campaign
from gmkit.demo import demo_campaign
from gmkit.errors import GmkitError
from gmkit.sheets._io import (
    from_csv,
    from_json,
    from_yaml,
    load_sheets,
    read_roster,
    roster_from_frame,
    to_csv,
)
from gmkit.sheets._reading import load_yaml
from gmkit.sheets._roster import Campaign
from gmkit.store import CampaignStore
from gmkit.systems._catalogs import _read_list

pytestmark = (
    pytest.mark.slow
)  # the importers fuzzed with thousands of generated documents: not in `scripts/test --quick`

READER = 10_000  # the one reader behind every importer (reading.load_yaml / load_json)
IMPORTER = 1_000  # each importer end to end: files written, sheets built, campaigns written
if os.environ.get("GMKIT_FUZZ_EXAMPLES"):  # e.g. 10000: the count for every importer
    READER = IMPORTER = int(os.environ["GMKIT_FUZZ_EXAMPLES"])


def _fuzz(count: int) -> Any:
    return settings(
        max_examples=count,
        deadline=10_000,  # ms: a hang, not noise, fails it (bench/bench_importers.py times)
        derandomize=True,  # CI draws the same inputs every run
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# --- the hostile inputs ------------------------------------------------------------------

_ROSTER = demo_campaign().rosters[1]  # Dark Heresy: weapons, armour, talents
_SHEETS = [sheet.model_dump(mode="json") for sheet in _ROSTER.sheets[:2]]
_ROSTER_DOC: dict[str, Any] = {"title": "Fuzzed", "game": _ROSTER.game, "characters": _SHEETS}
_CAMPAIGN_DOC = {"name": "Fuzzed", "rosters": [_ROSTER_DOC]}
VALID = {
    "roster.yaml": yaml.safe_dump(_ROSTER_DOC, sort_keys=False, allow_unicode=True),
    "roster.json": json.dumps(_ROSTER_DOC, ensure_ascii=False),
    "list.yaml": yaml.safe_dump(_SHEETS, sort_keys=False, allow_unicode=True),
    "campaign.yaml": yaml.safe_dump(_CAMPAIGN_DOC, sort_keys=False, allow_unicode=True),
    "campaign.json": json.dumps(_CAMPAIGN_DOC, ensure_ascii=False),
    "roster.csv": to_csv(_ROSTER.sheets[:2]),
}
SMALL: dict[str, Any] = {
    "name": "Vex",
    "game": "dark_heresy",
    "characteristics": {"WS": 30},
    "wounds": 10,
}

Builder = Callable[[random.Random], Any]


def _yaml(data: Any) -> str:
    text: str = yaml.dump(data, Dumper=yaml.CSafeDumper, sort_keys=False)  # C: fast
    return text


def _mutated(rng: random.Random) -> bytes:
    data = bytearray(rng.choice(list(VALID.values())).encode("utf-8"))
    for _ in range(rng.randint(1, 8)):
        at = rng.randrange(len(data))
        action = rng.random()
        if action < 0.4:
            data[at] = rng.randrange(256)
        elif action < 0.7:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 6)))
        else:
            del data[at : at + rng.randint(1, 40)]
    return bytes(data)


def _deep(rng: random.Random) -> str:
    levels = rng.randint(900, 1100)
    shape = rng.randrange(5)
    if shape == 0:
        return "[" * levels + "]" * levels
    if shape == 1:
        return '{"a": ' * levels + "1" + "}" * levels
    if shape == 2:
        return "".join(f"{'  ' * n}- \n" for n in range(levels)) + "  " * levels + "x\n"
    if shape == 3:
        return json.dumps({**_ROSTER_DOC, "characters": [{**SMALL, "notes": None}]}).replace(
            "null", "[" * levels + "]" * levels
        )
    return "characters:\n- name: " + "[" * levels + "Vex" + "]" * levels + "\n"


def _huge_number(rng: random.Random) -> str:
    digits = "9" * rng.randint(4301, 6000)
    where = rng.randrange(4)
    if where == 0:
        return json.dumps({**_ROSTER_DOC, "characters": [{**SMALL, "wounds": 0}]}).replace(
            '"wounds": 0', f'"wounds": {digits}'
        )
    if where == 1:
        return f"- name: Vex\n  game: dark_heresy\n  wounds: {digits}\n"
    if where == 2:
        return f"title: {digits}\ngame: dark_heresy\ncharacters: []\n"
    return f"- name: Vex\n  game: dark_heresy\n  count: {digits}\n"


def _rosters_odd(rng: random.Random) -> str:
    odd = rng.choice([1, "x", None, [1, 2], True, 2.5, [[{"a": 1}]], ""])
    data = {"name": "C", "rosters": [_ROSTER_DOC, odd] if rng.random() < 0.5 else odd}
    return json.dumps(data) if rng.random() < 0.5 else _yaml(data)


def _game_odd(rng: random.Random) -> str:
    game: Any = rng.choice([["dark_heresy"], {"a": 1}, 7, None, True, "", "chess", [[]]])
    if rng.random() < 0.5:
        data: Any = {**_ROSTER_DOC, "game": game}
    else:
        data = [{**SMALL, "game": game}]
    if rng.random() < 0.3:
        data = {"name": "C", "rosters": [data if isinstance(data, dict) else {"game": game}]}
    return json.dumps(data) if rng.random() < 0.5 else _yaml(data)


def _wrong_types(rng: random.Random) -> str:
    field = rng.choice(["name", "characters", "count", "title", "summary", "side", "npc"])
    value: Any = rng.choice(
        [[1, 2], {"x": [1]}, -1, 10**30, "x" * 20_000, 1e308, None, "", "   ", "Cultist"]
    )
    entry: dict[str, Any] = {**SMALL, field: value}
    shapes: list[Any] = [
        [entry],
        {**_ROSTER_DOC, field: value},
        {**_ROSTER_DOC, "characters": entry},
    ]
    data = rng.choice(shapes)
    return json.dumps(data) if rng.random() < 0.5 else _yaml(data)


def _surrogate(rng: random.Random) -> Any:
    code = rng.randint(0xD800, 0xDFFF)
    shape = rng.randrange(4)
    if shape == 0:  # a JSON escape: valid JSON, no text
        return json.dumps([SMALL]).replace('"Vex"', f'"V\\u{code:04x}x"')
    if shape == 1:  # a YAML escape
        return f'- {{name: "V\\u{code:04x}x", game: dark_heresy}}\n'
    if shape == 2:  # encoded anyway: bytes no UTF-8 decoder takes
        return f"- {{name: V{chr(code)}x, game: dark_heresy}}\n".encode("utf-8", "surrogatepass")
    return f"- {{name: V{chr(code)}x, game: dark_heresy}}\n"  # text holding one


def _aliases(rng: random.Random) -> str:
    shape = rng.randrange(5)
    width, levels = rng.randint(5, 12), rng.randint(5, 9)
    if shape == 0:  # billion laughs, in a name
        lines = [f"l0: &l0 [{', '.join(['lol'] * width)}]"]
        for n in range(1, levels):
            lines.append(f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * width)}]")
        lines.append(f"characters:\n- name: *l{levels - 1}\n  game: dark_heresy")
        return "\n".join(lines) + "\n"
    if shape == 1:  # recursive
        return rng.choice(["a: &a [*a]\n", "&a [*a, *a]\n", "- &a {name: *a}\n", "&a {b: *a}"])
    if shape == 2:  # merge keys
        lines = ["m0: &m0 {name: Vex, game: dark_heresy}"]
        for n in range(1, levels):
            lines.append(f"m{n}: &m{n} {{<<: [{', '.join([f'*m{n - 1}'] * width)}]}}")
        return "\n".join(lines) + f"\ncharacters: [*m{levels - 1}]\n"
    if shape == 3:  # many characters by alias, each with count
        return (
            "e: &e {npc: Cultist, count: 500, game: dark_heresy}\n"
            f"characters: [{', '.join(['*e'] * width)}]\n"
        )
    return "- &x {name: Vex, game: dark_heresy}\n- *x\n- *y\n"  # an undefined alias


def _tags(rng: random.Random) -> str:
    return rng.choice(
        [
            "- !!binary aGVsbG8=\n",
            "- !!python/object:os.system {}\n",
            "- !!set {a, b}\n",
            "- {name: !!timestamp 2001-13-45, game: dark_heresy}\n",
            "- {name: 2001-13-45, game: dark_heresy}\n",
            "- !custom {name: Vex}\n",
            "- !!omap [a: 1]\n",
            "--- a\n--- b\n",
            "- {name: Vex, game: dark_heresy}\n...\n- x\n",
        ]
    )


def _keys(rng: random.Random) -> str:
    key = rng.choice(["1.5", "null", "[a, b]", "{a: 1}", "1", "true", "? [a]"])
    return f"- {{{key}: x, name: Vex, game: dark_heresy}}\n"


def _long_text(rng: random.Random) -> str:
    text = "x" * rng.randint(10_001, 30_000)
    return rng.choice(
        [
            json.dumps([{**SMALL, "notes": text}]),
            f"- name: {text}\n  game: dark_heresy\n",
            f"{{{text}: 1}}",
        ]
    )


def _csv(rng: random.Random) -> str:
    shape = rng.randrange(5)
    if shape == 0:
        return ",".join(f"c{n}" for n in range(rng.randint(1001, 5000))) + "\n"
    if shape == 1:
        deep = "[" * rng.randint(900, 1100)
        return f'name,game,weapons\nVex,dark_heresy,"{deep}"\n'
    if shape == 2:
        return f"name,game,wounds\nVex,dark_heresy,{'9' * 5000}\n"
    if shape == 3:
        return 'name,game\n"Vex,dark_heresy\n'
    return f"name,game,count\n{'Vex,dark_heresy,500' * 1}\n" * rng.randint(1, 8)


def _control(rng: random.Random) -> bytes:
    text = rng.choice(list(VALID.values())).encode("utf-8")
    junk = rng.choice([b"\x00", b"\x07", b"\xef\xbb\xbf", b"\r", b"\x1b[2J", b"\xff\xfe"])
    at = rng.randrange(len(text))
    return text[:at] + junk + text[at:]


BUILDERS: dict[str, Builder] = {
    "mutated": _mutated,
    "deep": _deep,
    "huge number": _huge_number,
    "rosters odd": _rosters_odd,
    "game odd": _game_odd,
    "wrong types": _wrong_types,
    "surrogate": _surrogate,
    "aliases": _aliases,
    "tags": _tags,
    "keys": _keys,
    "long text": _long_text,
    "csv": _csv,
    "control": _control,
}

hostile = st.one_of(
    st.binary(max_size=200),  # random bytes: most are not UTF-8
    st.tuples(st.sampled_from(sorted(BUILDERS)), st.integers(0, 2**32)).map(
        lambda drawn: BUILDERS[drawn[0]](random.Random(drawn[1]))
    ),
)


def as_bytes(data: str | bytes) -> bytes:
    if isinstance(data, bytes):
        return data
    return data.encode("utf-8", "surrogatepass")


def as_text(data: str | bytes) -> str:
    if isinstance(data, str):
        return data
    # half the undecodable bytes become lone surrogates (the text readers must refuse them)
    return data.decode("utf-8", "surrogateescape" if len(data) % 2 else "replace")


# --- what every call must do -------------------------------------------------------------


def answers(call: Callable[[], Any], file: str | None = None) -> GmkitError | None:
    """Call the importer: it returns, or refuses with a GmkitError (naming ``file``) whose
    texts render in both languages, short; anything else escapes and fails the test."""
    try:
        call()
    except GmkitError as error:
        english = str(error)
        assert len(english) < 50_000, english[:200]
        error.render("es")
        if file is not None:
            assert file in english, english[:300]
        return error
    return None


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


# --- the pure readers: text in -----------------------------------------------------------


@_fuzz(READER)
@given(hostile)
def test_from_yaml(data: str | bytes) -> None:
    answers(lambda: from_yaml(as_text(data)))


@_fuzz(READER)
@given(hostile)
def test_from_json(data: str | bytes) -> None:
    answers(lambda: from_json(as_text(data)))


@_fuzz(IMPORTER)
@given(hostile)
def test_from_csv(data: str | bytes) -> None:
    answers(lambda: from_csv(as_text(data)))


@_fuzz(IMPORTER)
@given(hostile)
def test_load_sheets_and_campaign_from_dict(data: str | bytes) -> None:
    """Data as a YAML reader gives it (or its refusal) into load_sheets and Campaign.from_dict."""
    read = answers(lambda: load_yaml(as_text(data)))
    if read is None:
        value = load_yaml(as_text(data))
        answers(lambda: load_sheets(value))
        answers(lambda: Campaign.from_dict(value))


@_fuzz(IMPORTER)
@given(hostile)
def test_roster_from_frame(data: str | bytes) -> None:
    text = as_text(data)
    if text.split("\n", 1)[0].count(",") > 2_000:
        return  # pandas' own reading of it would take the deadline
    try:
        frame = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    except Exception:  # not a frame: nothing to give roster_from_frame
        return
    answers(lambda: roster_from_frame(frame))


# --- the readers of a file ---------------------------------------------------------------


SUFFIXES = [".yaml", ".json", ".csv", ".yml"]


@_fuzz(IMPORTER)
@given(hostile, st.sampled_from(SUFFIXES))
def test_read_roster(folder: Path, data: str | bytes, suffix: str) -> None:
    path = folder / f"read_roster{suffix}"
    path.write_bytes(as_bytes(data))
    answers(lambda: read_roster(path), str(path))


@_fuzz(IMPORTER)
@given(hostile, st.sampled_from(SUFFIXES))
def test_read_roster_file(folder: Path, data: str | bytes, suffix: str) -> None:
    path = folder / f"roster_file{suffix}"
    path.write_bytes(as_bytes(data))
    answers(lambda: read_roster_file(path, game="dark_heresy"), str(path))


@_fuzz(IMPORTER)
@given(hostile, st.sampled_from(SUFFIXES))
def test_prep_roster(folder: Path, data: str | bytes, suffix: str) -> None:
    path = folder / f"prep{suffix}"
    path.write_bytes(as_bytes(data))
    answers(lambda: prep.roster(path), str(path))


@_fuzz(IMPORTER)
@given(hostile, st.sampled_from([".yaml", ".json"]))
def test_campaign_load(folder: Path, data: str | bytes, suffix: str) -> None:
    path = folder / f"campaign{suffix}"
    path.write_bytes(as_bytes(data))
    answers(lambda: Campaign.load(path), str(path))


@_fuzz(IMPORTER)
@given(hostile)
def test_a_data_file(folder: Path, data: str | bytes) -> None:
    """A catalog or bestiary file of GMKIT_DATA_PATH (catalogs' _read_list)."""
    path = folder / "weapons.yaml"
    path.write_bytes(as_bytes(data))
    answers(lambda: _read_list(path), str(path))


# --- the importers that write a campaign file --------------------------------------------


@pytest.fixture(scope="module")
def campaigns(folder: Path) -> dict[str, Path]:
    """An existing SQLite campaign and an existing campaign document to import into."""
    sqlite = folder / "existing.gmk"
    with CampaignStore(sqlite, create=True) as store:
        store.save_campaign(demo_campaign())
    document = demo_campaign().save(folder / "existing.yaml")
    return {"sqlite": sqlite, "document": document}


@_fuzz(IMPORTER)
@given(hostile, st.sampled_from(SUFFIXES), st.sampled_from(["sqlite", "document"]))
def test_gmkit_import_into_an_existing_campaign(
    folder: Path, campaigns: dict[str, Path], data: str | bytes, suffix: str, kind: str
) -> None:
    roster = folder / f"import{suffix}"
    roster.write_bytes(as_bytes(data))
    target = campaigns[kind]
    before = digest(target)
    errors = io.StringIO()
    with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
        status = main(["import", str(target), str(roster), "--title", "Fuzzed"])
    if status != 0:
        assert status == 2
        assert str(roster) in errors.getvalue(), errors.getvalue()[:300]
        assert digest(target) == before  # refused: the campaign file byte-identical


@pytest.fixture(scope="module")
def earlier_import(folder: Path) -> Path:
    """An earlier import beside the fuzzed documents (``document.gmk``), with its logs."""
    beside = folder / "document.gmk"
    with CampaignStore(beside, create=True) as store:
        store.save_campaign(demo_campaign())
    return beside


@_fuzz(IMPORTER)
@given(hostile, st.sampled_from([".yaml", ".json"]))
def test_import_document(
    folder: Path, earlier_import: Path, data: str | bytes, suffix: str
) -> None:
    """A campaign document imported (``gmkit table FILE``, open_campaign): refused, no
    campaign file is made, and an earlier import beside it stays byte-identical."""
    document = folder / f"document{suffix}"
    document.write_bytes(as_bytes(data))
    target = folder / "imported.gmk"
    target.unlink(missing_ok=True)
    refused = answers(lambda: import_document(document, target), str(document.resolve()))
    if refused is not None:
        assert not target.exists()
        before = digest(earlier_import)
        assert answers(lambda: resolve_campaign(document), str(document.resolve())) is not None
        assert digest(earlier_import) == before
