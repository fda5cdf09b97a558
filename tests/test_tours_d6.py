"""The D6 games' tours (Necromunda, WFB 6e) teach the tool on their game, with public API only:
catalogs and the bestiary, an encounter in a campaign file, the seed's worked examples played
through it, exact odds as a table, a recorded attack taken back, then the widgets. Each runs
top to bottom on a fresh kernel (no GMKIT_CAMPAIGN), shows its seed's numbers, and every number
its prose states is shown by the code cells that follow that prose."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import nbformat
import pytest

# the tours run on a fresh kernel, once (the `notebook_runs` fixture, one xdist group)
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("notebooks")]

FOLDER = Path(__file__).resolve().parent.parent / "notebooks"
TOURS = ("tour_necromunda.ipynb", "tour_wfb6.ipynb")
WIDGET = "application/vnd.jupyter.widget-view+json"

# The seeds' numbers each tour shows (in its printed or displayed output).
SEED_NUMBERS = {
    "tour_necromunda.ipynb": [
        "To hit: hit (7 - BS 2 = 5; Partial cover -1, long range (laspistol) -1; "
        "6, then 4 against 4+ for 7+: success)",
        "To hit: miss (7 - BS 2 = 5; Partial cover -1, long range (laspistol) -1; "
        "5: 7+ needs a 6 first)",
        "Fraction(1, 12)",
    ],
    "tour_wfb6.ipynb": [
        "1 on each model, 2 left over",
        "Left-over hit 1: on Lord Gilles (d5=4 among",
        "Left-over hit 2: on Knights of the Realm (rank and file 1) (d4=1 among",
        "To wound Lord Gilles: 2 wounds of 2 hits",
        "To wound Knights of the Realm (rank and file 1): 1 wound of 2 hits",
        "screened by Swordsmen, not the closest legal target: Father Anselm at 35 cm, "
        "Swordsmen at 30 cm",
        "To hit: 1 hit of 1 shot (BS 3 needs 6+ [Lone infantry character -1, Long range -1]",
        '"Look out, Sir!" for Captain Hals: dodged: a rank-and-file model of Swordsmen takes '
        "the hit",
        '"Look out, Sir!" for Captain Hals: failed: it takes the hit',
    ],
}

# Claims the prose makes in words, each with the output that shows it: (prose, output).
CLAIMS = {
    "tour_necromunda.ipynb": [
        ("partial cover -1", "Partial cover -1"),
        ("long range -1", "long range (laspistol) -1"),
        ("a 6, then 4+ on a second die", "6, then 4 against 4+ for 7+"),
        ("5 against 2+ (passed)", "Ammo roll: passed (5 against 2+: success)"),
        ("S 3 against T 3 needing 4+ (no wound)", "no wound (S 3 against T 3; 3 against 4+"),
        ("no second die is rolled", "5: 7+ needs a 6 first"),
        ("the hit is 1/12", "1/12"),
        ("Scavvy 1 pinned", "Scavvy 1 pinned"),
        ("moves on to its shooting", "1 The Ashen Brethren shooting"),
    ],
    "tour_wfb6.ipynb": [
        ("a d5 shows 4 (Lord Gilles)", "Left-over hit 1: on Lord Gilles (d5=4"),
        ("a d4 among the four left shows 1", "(d4=1 among 1=Knights of the Realm"),
        ("S 4 against T 3 needs 3+", "S 4 against T 3 needs 3+"),
        ("against T 4 needs 4+", "S 4 against T 4 needs 4+"),
        ("at -1 against Strength 4: 3+", "3+ [Strength 4 -1]"),
        ("he is not the closest legal target", "not the closest legal target"),
        ("6+ to hit (BS 3, -1 for a lone infantry character, -1 at long range)", "BS 3 needs 6+"),
        ("a 1 on his 5+ save, which always fails", "5+ [no modifier]: a 1 always fails"),
        ("(2 rank and file left)", "Knights of the Realm 2 3"),
        ("Lord Gilles has 1 wound of 2 left", "Lord Gilles 1/2"),
        ("moves on to its magic phase", "1 Night Goblins magic"),
        ("on a 2+ a rank-and-file model takes the hit instead", "dodged: a rank-and-file model"),
        ("Here a 4: a swordsman takes it", "4 against 2+: success"),
        ("S 8 against T 3 needs 2+), and no save is possible", "no save possible"),
        ("the captain takes the hit herself", "failed: it takes the hit"),
    ],
}

# The output each tour shows as its odds table (a pandas pivot, read from its HTML).
ODDS_TABLES = {
    "tour_necromunda.ipynb": ("Scavvy 1", "Mordecai", "lasgun", "4.2%", "0.7%"),
    "tour_wfb6.ipynb": ("Knights of the Realm", "Shaman Snikkit", "99.7%", "65.7%", "1.7%"),
}

# Names with a number in them: names, not numbers the prose states.
NUMBERED_NAMES = {
    "tour_necromunda.ipynb": ("Scavvy 1", "Scavvy 2", "Scavvy 3"),
    "tour_wfb6.ipynb": (),
}

Tours = dict[str, nbformat.NotebookNode]
INTERNALS = ("gmkit.systems", "gmkit.sheets", "AttackRequest", "AttackSetup", "SYSTEM")


@pytest.fixture(scope="module")
def tours(notebook_runs: Any) -> Tours:
    """Both tours, as run once in the session (``notebook_runs``)."""
    return {name: notebook_runs(name) for name in TOURS}


def output_text(output: nbformat.NotebookNode) -> str:
    """What one output shows as text: streams, plain text, and HTML with its tags taken out."""
    parts = [str(output.get("text", ""))]
    data = output.get("data", {})
    parts.append(str(data.get("text/plain", "")))
    if "text/html" in data:
        page = re.sub(r"<style.*?</style>", " ", str(data["text/html"]), flags=re.S)
        parts.append(re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))))
    return "\n".join(parts)


def shown(cells: list[nbformat.NotebookNode]) -> str:
    return "\n".join(output_text(o) for c in cells if c.cell_type == "code" for o in c.outputs)


def flat(text: str) -> str:
    """``text`` with every run of white space one space (tables' padding, prose's line ends)."""
    return re.sub(r"\s+", " ", text)


# --- the prose-number check ----------------------------------------------------------------

FORMULA = re.compile(r"\d+(?: [-+=] (?:[A-Z]{1,3} )?\d+)+")  # "7 - BS 2 = 5"
NUMBER = re.compile(r'(?<![\w./])(?:d\d+|[-+]?\d+(?:[./]\d+)?(?:%|\+|")?)(?!\w|[./]\d)')


def prose_numbers(markdown: str, names: tuple[str, ...] = ()) -> list[str]:
    """The numbers a markdown text states: formulas whole ("7 - BS 2 = 5"), then each number
    with its sign, its "+" or "%" or '"' ("-1", "4+", "8.3%", '12"', "1/12", "d5"). Code spans
    are code, not claims, and ``names`` ("Scavvy 1") are names: both left out."""
    prose = re.sub(r"```.*?```|`[^`]*`", " ", markdown, flags=re.S)
    for name in names:
        prose = prose.replace(name, " ")
    formulas = FORMULA.findall(prose)
    return formulas + NUMBER.findall(FORMULA.sub(" ", prose))


def appears(number: str, text: str) -> bool:
    """``number`` shown in ``text`` as a whole token ("1" is not found inside "12" or "1.5";
    "10" is in "10.0")."""
    return re.search(rf"(?<![\w.]){re.escape(number)}(?!\w|\.0*[1-9])", text) is not None


def unshown_numbers(
    cells: list[nbformat.NotebookNode], names: tuple[str, ...] = ()
) -> list[tuple[str, str]]:
    """Every (number, prose) whose number no output of the code cells after that prose shows
    (up to the next prose after them: consecutive markdown cells are one prose)."""
    missing = []
    index = 0
    while index < len(cells):
        if cells[index].cell_type != "markdown":
            index += 1
            continue
        prose = []
        while index < len(cells) and cells[index].cell_type == "markdown":
            prose.append(cells[index].source)
            index += 1
        following = []
        while index < len(cells) and cells[index].cell_type == "code":
            following.append(cells[index])
            index += 1
        text = "\n\n".join(prose)
        outputs = shown(following)
        missing += [(n, text[:60]) for n in prose_numbers(text, names) if not appears(n, outputs)]
    return missing


def test_the_number_check_reads_formulas_modifiers_scores_and_fractions() -> None:
    text = (
        'BS 2: 7 - BS 2 = 5, partial cover -1, 7+, `EnteredDice([6, 4])`, 12" and 1/12, d5, 8.3%.'
    )
    assert prose_numbers(text) == ["7 - BS 2 = 5", "2", "-1", "7+", '12"', "1/12", "d5", "8.3%"]
    assert appears("1", "1 wound")
    assert not appears("1", "12 wounds")
    assert not appears("1", "1.5")
    assert appears("10", "at 10.0 cm")
    assert prose_numbers("Scavvy 1 at 2", ("Scavvy 1",)) == ["2"]


def test_the_number_check_catches_the_old_tours_plus_one() -> None:
    """The old Necromunda tour's prose said "+1 for partial cover" over an output showing -1."""
    old = nbformat.v4.new_markdown_cell(
        "7 - BS 2 = 5, +1 for partial cover, +1 at long range: 7 to hit"
    )
    shot = nbformat.v4.new_code_cell("print(result.explain())")
    shot.outputs = [
        nbformat.v4.new_output(
            "stream",
            text="To hit: hit (7 - BS 2 = 5; Partial cover -1, long range (laspistol) -1; "
            "6, then 4 against 4+ for 7+: success)",
        )
    ]
    missing = [number for number, _ in unshown_numbers([old, shot])]
    assert missing == ["+1", "+1"]


# --- the tours --------------------------------------------------------------------------


@pytest.mark.parametrize("name", TOURS)
def test_the_tour_is_stored_without_outputs_and_uses_public_api_only(name: str) -> None:
    notebook = nbformat.read(FOLDER / name, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code
    assert all(c.outputs == [] and c.execution_count is None for c in code)
    sources = "\n".join(cell.source for cell in code)
    assert [word for word in INTERNALS if word in sources] == []
    for call in (
        "prep.catalog(",
        "prep.bestiary(",
        "prep.npc",
        "prep.roster(",
        "prep.campaign(",
        "prep.encounter(",
        "fight.overview()",
        "fight.try_attack(",
        "EnteredDice([",
        "odds(fight.attack_request(",
        ".frame()",
        "fight.odds_frame(",
        "prep.odds_plot(",
        "fight.attack(",
        "fight.log_frame()",
        "fight.undo()",
        "tempfile.mkdtemp()",
    ):
        assert call in sources, f"{name} never calls {call}"
    assert code[-2].source.endswith("InitiativeTracker(fight, seed=7)")
    assert "AttackPanel(fight, seed=7)" in code[-1].source


@pytest.mark.parametrize("name", TOURS)
def test_the_tour_runs_top_to_bottom(tours: Tours, name: str) -> None:
    cells = tours[name].cells
    errors = [
        o for c in cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"
    ]
    assert errors == []
    assert all(c.outputs for c in cells if c.cell_type == "code"), "a cell shows nothing"


@pytest.mark.parametrize("name", TOURS)
def test_the_tour_shows_its_seed_numbers(tours: Tours, name: str) -> None:
    text = shown(tours[name].cells)
    for expected in SEED_NUMBERS[name]:
        assert expected in text, f"{name}: {expected!r} not shown"


@pytest.mark.parametrize("name", TOURS)
def test_every_number_of_the_prose_is_shown_by_the_cells_after_it(tours: Tours, name: str) -> None:
    assert unshown_numbers(tours[name].cells, NUMBERED_NAMES[name]) == []


@pytest.mark.parametrize("name", TOURS)
def test_the_prose_claims_are_what_the_outputs_show(tours: Tours, name: str) -> None:
    cells = tours[name].cells
    prose = flat("\n".join(cell.source for cell in cells if cell.cell_type == "markdown"))
    text = flat(shown(cells))
    for said, output in CLAIMS[name]:
        assert said in prose, f"{name}: the prose no longer says {said!r}"
        assert output in text, f"{name}: {said!r} but the outputs show no {output!r}"


@pytest.mark.parametrize("name", TOURS)
def test_the_tour_shows_an_odds_table_and_plot_then_the_widgets(tours: Tours, name: str) -> None:
    code = [cell for cell in tours[name].cells if cell.cell_type == "code"]
    pivot = next(c for c in code if "pivot_table" in c.source)
    table = output_text(pivot.outputs[0])
    for shown_there in ODDS_TABLES[name]:
        assert shown_there in table, f"{name}: {shown_there!r} not in the odds table"
    plot = next(c for c in code if "prep.odds_plot(" in c.source).outputs[0]
    assert WIDGET in plot.data
    assert "gmkit-odds-plot" in plot.data["text/plain"]
    tracker, panel = (cell.outputs[0] for cell in code[-2:])
    assert WIDGET in tracker.data
    assert tracker.data["text/plain"].startswith("InitiativeTracker(")
    assert WIDGET in panel.data
    assert panel.data["text/plain"].startswith("AttackPanel(")
