"""Hostile files refused by every importer, fast, with gmkit's error (issue 13, items 3 and 4).

The attacks first, each as the issue found it: a YAML roster of 443 bytes whose aliases
expand to 43 million strings (``gmkit import`` ran for minutes and gigabytes, through ``str()``
of the unvalidated name), and a campaign document of 396 bytes that became a 23 MB campaign
file (copies and catalog names multiplied by aliases). These run in a subprocess under
a timeout and a 3 GB memory cap, so the code before the fix fails them (timeout, MemoryError)
instead of stalling the machine; the refusal itself is timed in process (under 2 s). Then
each kind of hostile input of item 4, through the importers, with the exact error: the file,
the place, the problem.
"""

from __future__ import annotations

import hashlib
import json
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from gmkit._cli import main
from gmkit.campaign import import_document, open_campaign, read_roster_file, resolve_campaign
from gmkit.demo import demo_campaign
from gmkit.errors import GmkitError, SheetError
from gmkit.messages._check import english_words
from gmkit.sheets import load_sheet
from gmkit.sheets._io import from_csv, from_json, from_yaml, load_sheets, read_roster
from gmkit.sheets._reading import MAX_BYTES, FileRefused, quote
from gmkit.sheets._roster import Campaign
from gmkit.store import CampaignStore
from gmkit.systems._catalogs import catalog

LAUGHS = """\
# a roster that expands to 43 million strings
title: Laughs
game: dark_heresy
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
characters:
- name: *h
  game: dark_heresy
  side: Laughs
"""

LASGUNS = ", ".join(["Lasgun"] * 12)
MULTIPLIED = f"""\
name: Laughs
a: &a {{npc: Cultist, name: A, count: 500, weapons: &w [{LASGUNS}]}}
b: &b {{npc: Cultist, name: B, count: 500, weapons: *w}}
c: &c [*a, *b]
rosters:
- {{title: One, game: dark_heresy, characters: *c}}
- {{title: Two, game: dark_heresy, characters: *c}}
- {{title: Three, game: dark_heresy, characters: *c}}
"""


def _capped() -> None:  # the child's address space: 3 GB, so an old expansion fails, not swaps
    resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, 3 * 1024**3))


def run_capped(code: str, timeout: float = 120) -> tuple[subprocess.CompletedProcess[str], float]:
    """``code`` in a fresh interpreter, killed after ``timeout`` seconds (the test then fails:
    the import stalled, as it did before the fix)."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=_capped,
        check=False,
    )
    return done, time.perf_counter() - started


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- item 3: the attacks -------------------------------------------------------------------


def test_the_billion_laughs_roster_is_refused_by_gmkit_import_in_a_subprocess(
    tmp_path: Path,
) -> None:
    roster = tmp_path / "laughs.yaml"
    roster.write_text(LAUGHS)
    assert len(LAUGHS.encode()) == 443
    campaign = tmp_path / "c.gmk"
    command = ["import", str(campaign), str(roster)]
    code = f"import sys; from gmkit._cli import main; sys.exit(main({command!r}))"
    done, seconds = run_capped(code)
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr.strip() == (
        f"gmkit import: file {str(roster)!r}, line 9, column 4: "
        "more than 200000 values (an alias counts as all it repeats)"
    )
    assert not campaign.exists()
    assert seconds < 120  # gmkit's imports included (15 s on a busy 2-core machine); the
    # refusal itself is timed in the next test: before the fix, 3 min 55 s and 2.5 GB


def test_the_billion_laughs_roster_is_refused_in_milliseconds_and_megabytes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roster = tmp_path / "laughs.yaml"
    roster.write_text(LAUGHS)
    existing = tmp_path / "c.gmk"
    with CampaignStore(existing, create=True) as store:
        store.save_campaign(demo_campaign())
    before = digest(existing)
    main(["import", str(existing), str(roster)])  # the message catalogs loaded once
    capsys.readouterr()
    tracemalloc.start()
    started = time.perf_counter()
    status = main(["import", str(existing), str(roster)])
    seconds = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert status == 2
    assert "more than 200000 values" in capsys.readouterr().err
    assert seconds < 10  # 0.2 s typical; a bound for a hang, not a timing (bench/ times it)
    assert peak < 20 * 1024**2
    assert digest(existing) == before


def test_the_multiplied_campaign_document_is_refused_by_gmkit_table_in_a_subprocess(
    tmp_path: Path,
) -> None:
    document = tmp_path / "laughs.yaml"
    document.write_text(MULTIPLIED)
    assert len(MULTIPLIED.encode()) == 396
    code = (
        "from gmkit.campaign import resolve_campaign\n"
        "from gmkit.errors import GmkitError\n"
        f"try:\n    resolve_campaign({str(document)!r})\n"
        "except GmkitError as error:\n    print(error)\n"
    )
    done, seconds = run_capped(code)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == (
        f"file {str(document)!r}, field 'rosters[2]': character 'Three': field 'characters': "
        "the characters it makes would take more than 8388608 bytes"
    )
    assert list(tmp_path.iterdir()) == [document]  # no campaign file, not even a part of one
    assert seconds < 120  # before the fix: 76 s, and a 23 MB campaign file


def test_an_alias_bomb_in_a_campaign_document_makes_no_campaign_file(tmp_path: Path) -> None:
    document = tmp_path / "laughs.yaml"
    document.write_text(LAUGHS.replace("characters:", "rosters:\n- title: x\n  characters:"))
    started = time.perf_counter()
    with pytest.raises(FileRefused) as refused:
        open_campaign(document)
    assert time.perf_counter() - started < 10  # a hang, not a timing
    assert refused.value.render("es") == (
        f"archivo {str(document)!r}, línea 9, columna 4: "
        "más de 200000 valores (un alias cuenta como todo lo que repite)"
    )
    assert list(tmp_path.iterdir()) == [document]


def test_an_earlier_import_is_left_byte_identical_when_the_document_is_refused(
    tmp_path: Path,
) -> None:
    document = demo_campaign().save(tmp_path / "mine.yaml")
    beside = import_document(document).path
    before = digest(beside)
    document.write_text(LAUGHS)
    with pytest.raises(FileRefused, match="more than 200000 values"):
        resolve_campaign(document)
    assert digest(beside) == before


def test_a_python_bomb_never_formats_the_name_whole() -> None:
    """The stall was ``str()`` of the expanded name inside the error: the same shared lists
    from Python, 531,441 strings, are refused with a short text."""
    name: list = ["lol"] * 9
    for _ in range(5):
        name = [name] * 9
    started = time.perf_counter()
    with pytest.raises(SheetError) as refused:
        load_sheets([{"game": "dark_heresy", "name": name}])
    assert time.perf_counter() - started < 10  # a hang, not a timing
    assert str(refused.value) == (
        "character '(unnamed) (entry 1)': field 'name': Input should be a valid string; "
        "field 'characteristics': Field required; field 'wounds': Field required"
    )


def test_a_refused_value_is_quoted_at_most_60_characters() -> None:
    with pytest.raises(SheetError) as refused:
        load_sheet({"game": "dark_heresy", "name": "Vex", "wounds": "9" * 5000})
    assert str(refused.value).endswith("(got '" + "9" * 59 + "…)")
    with pytest.raises(SheetError) as refused:  # repr() of it would raise ValueError
        load_sheets([{"game": "dark_heresy", "name": 10**5000, "characteristics": {}}])
    assert str(refused.value).startswith(
        "character '~10**5000 (entry 1)': field 'name': Input should be a valid string "
        "(got ~10**5000)"
    )
    assert quote("x" * 10**6) == "'" + "x" * 59 + "…"


# --- item 4: each kind of hostile input, the file, the place and the problem ------------


def refusal(path: Path, content: str | bytes) -> FileRefused:
    """What read_roster_file (``gmkit import``) answers to ``content`` written at ``path``."""
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    with pytest.raises(FileRefused) as refused:
        read_roster_file(path)
    return refused.value


HOSTILE = [
    (
        "r.yaml",
        b"- name: Vex\n  side: \xff\xfe\n",
        "byte 20: not UTF-8 text: the byte 0xFF cannot be decoded",
    ),
    (
        "r.yaml",
        "- name: V\ud800x\n".encode("utf-8", "surrogatepass"),
        "byte 9: not UTF-8 text: the byte 0xED cannot be decoded",
    ),
    (
        "r.json",
        '[{"name": "V\\ud800x"}]',
        "field '[0].name': a lone surrogate (U+D800) is not a character of any text",
    ),
    ("r.yaml", "[" * 1000 + "]" * 1000, "line 1, column 33: nested more than 32 levels deep"),
    ("r.json", "[" * 1000 + "]" * 1000, "the whole file: nested more than 32 levels deep"),
    (
        "r.yaml",
        "- name: Vex\n  wounds: " + "9" * 4301 + "\n",
        "line 2, column 11: a number of 4301 digits; at most 100",
    ),
    (
        "r.json",
        '[{"name": "Vex", "wounds": ' + "9" * 4301 + "}]",
        "line 1, column 28: a number of 4301 digits; at most 100",
    ),
    ("r.yaml", "title: [a, b]\ncharacters: []\n", "field 'title': must be text (got […])"),
    ("r.yaml", "game: [dark_heresy]\ncharacters: []\n", "field 'game': must be text (got […])"),
    (
        "r.yaml",
        "- &a {name: *a}\n",
        "line 1, column 3: an alias repeats a value that holds the alias itself",
    ),
    (
        "r.yaml",
        "- !!python/object:os.system {}\n",
        "line 1, column 3: the tag tag:yaml.org,2002:python/object:os.system is not read; "
        "write plain values",
    ),
    ("r.yaml", "- {1.5: x, name: Vex}\n", "field '[0]': a key must be text (got 1.5)"),
    (
        "r.yaml",
        "- name: " + "x" * 10_001 + "\n",
        "line 1, column 9: a text of 10001 characters; at most 10000",
    ),
    (
        "r.csv",
        ",".join(f"c{n}" for n in range(1001)) + "\n",
        "line 1, column 1: 1001 columns; at most 1000",
    ),
    ("r.yaml", "characters: [" + ", ".join(["{npc: Cultist, count: 500}"] * 5) + "]\n", None),
]


@pytest.mark.parametrize(("name", "content", "problem"), HOSTILE)
def test_a_hostile_roster_is_refused_naming_the_file_the_place_and_the_problem(
    tmp_path: Path, name: str, content: str | bytes, problem: str | None
) -> None:
    path = tmp_path / name
    started = time.perf_counter()
    error = refusal(path, content)
    assert time.perf_counter() - started < 10  # a hang, not a timing
    if problem is None:  # 2,500 characters by copies: refused before they are built
        assert str(error) == (
            f"file {str(path)!r}: character {str(path)!r}: field 'characters': "
            "more than 2000 characters"
        )
    else:
        assert str(error) == f"file {str(path)!r}, {problem}"
    spanish = error.render("es")
    assert (
        english_words(
            spanish,
            [
                repr(str(path)),
                "U+D800",
                "0xFF",
                "0xED",
                "tag:yaml.org,2002:python/object:os.system",
                "'[0].name'",
                "'[0]'",
                "'title'",
                "'game'",
                "'characters'",
            ],
        )
        == []
    ), spanish


def test_a_file_too_large_is_refused_before_it_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * (MAX_BYTES + 1))
    error = refusal(path, path.read_bytes())
    assert str(error) == (
        f"file {str(path)!r}, the whole file: "
        "2097153 bytes; a file of at most 2097152 bytes is read"
    )


def test_rosters_holding_non_mappings_are_refused_naming_the_roster(tmp_path: Path) -> None:
    document = tmp_path / "c.json"
    document.write_text(json.dumps({"name": "C", "rosters": [{"title": "A", "game": "wfb6"}, 7]}))
    with pytest.raises(FileRefused) as refused:
        Campaign.load(document)
    assert str(refused.value) == (
        f"file {str(document)!r}, field 'rosters[1]': must be a mapping of title, game, "
        "summary and characters (got 7)"
    )
    document.write_text(json.dumps({"rosters": [{"title": "A", "game": ["wfb6"]}]}))
    with pytest.raises(FileRefused, match=r"field 'rosters\[0\].game': must be text \(got \[…\]\)"):
        import_document(document)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.json"]


def test_a_character_refused_inside_a_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "gang.yaml"
    path.write_text("- {name: Vex, game: dark_heresy, wounds: lots}\n")
    with pytest.raises(FileRefused) as refused:
        read_roster(path)
    assert str(refused.value) == (
        f"file {str(path)!r}: character 'Vex (entry 1)': field 'characteristics': Field "
        "required; field 'wounds': Input should be a valid integer, unable to parse string as "
        "an integer (got 'lots')"
    )


def test_the_text_readers_refuse_lone_surrogates_and_name_the_line() -> None:
    with pytest.raises(FileRefused) as refused:
        from_yaml("- name: Vex\n- name: V\udc80x\n")
    assert str(refused.value) == (
        "file 'roster', line 2, column 10: a lone surrogate (U+DC80) is not a character of any text"
    )
    with pytest.raises(FileRefused, match="line 1, column 3: a lone surrogate"):
        from_json('["\ud800"]')
    with pytest.raises(FileRefused, match="line 2, column 2: a lone surrogate"):
        from_csv("name\nV\ud800")


def test_a_yaml_date_stays_text_and_an_impossible_one_is_no_crash() -> None:
    """``2001-13-45`` made PyYAML raise a raw ValueError (its date constructor)."""
    (sheet,) = from_yaml("- {name: 2001-13-45, game: wfb6}\n")
    assert sheet.name == "2001-13-45"


def test_a_gm_data_file_with_an_alias_bomb_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "data" / "dark_heresy"
    folder.mkdir(parents=True)
    (folder / "weapons.yaml").write_text(LAUGHS.replace("characters:", "x:"))
    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path / "data"))
    with pytest.raises(GmkitError) as refused:
        catalog("dark_heresy", "weapons")
    assert str(refused.value) == (
        f"file {str(folder / 'weapons.yaml')!r}, line 9, column 4: "
        "more than 200000 values (an alias counts as all it repeats)"
    )
