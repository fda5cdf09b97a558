"""A CSV roster is refused by what it would cost before its sheets are built (issue 27, item
6): a cell of 20,000 catalog names (a 2 MB file of them took 26 s and 189 MiB to build before
the output's budget refused it), a roster whose cells name more than 40,000 in all, and a row
of 960 columns that are no field of a sheet (a 115 KB error: now ten named and a count)."""

from __future__ import annotations

import csv
import io

import pytest

from gmkit.demo import demo_campaign
from gmkit.errors import SheetError
from gmkit.sheets._io import MAX_NAMES, MAX_NAMES_IN_A_CELL, from_csv, to_csv


def acolyte_csv(weapons: str, rows: int, extra_columns: int = 0) -> str:
    """The demo's first acolyte as CSV, its weapons cell ``weapons``, ``rows`` times."""
    header, *lines = list(csv.reader(io.StringIO(to_csv(demo_campaign().rosters[1].sheets[:1]))))
    row = lines[0]
    row[header.index("weapons")] = weapons
    extra = [f"x{i}" for i in range(extra_columns)]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header + extra)
    for _ in range(rows):
        writer.writerow(row + ["1"] * extra_columns)
    return out.getvalue()


def test_names_typed_by_hand_still_read() -> None:
    (sheet,) = from_csv(acolyte_csv("Lasgun; Knife", 1))
    assert [w.name for w in sheet.weapons] == ["Lasgun", "Knife"]  # type: ignore[attr-defined]


def test_a_cell_of_twenty_thousand_names_is_refused_naming_row_and_field() -> None:
    text = acolyte_csv("; ".join(["Lasgun"] * 20_000), 10)
    assert len(text) > 1_000_000
    with pytest.raises(SheetError) as refused:
        from_csv(text)
    assert str(refused.value) == (
        "character 'roster (row 1)': field 'weapons': 20000 names in one cell; at most 100"
    )
    assert "nombres en una celda" in refused.value.render("es")


def test_names_in_all_are_bounded_before_building() -> None:
    per_cell = MAX_NAMES_IN_A_CELL
    rows = MAX_NAMES // per_cell + 1
    with pytest.raises(SheetError, match=f"give {rows * per_cell} names in all; at most 40000"):
        from_csv(acolyte_csv("; ".join(["Lasgun"] * per_cell), rows))


def test_hundreds_of_unknown_columns_give_a_short_error() -> None:
    with pytest.raises(SheetError) as refused:
        from_csv(acolyte_csv("Lasgun", 1, extra_columns=960))
    said = str(refused.value)
    assert len(said) < 1_000
    assert "field 'x0': is not a field of this sheet" in said
    assert "field 'x9': is not a field of this sheet" in said
    assert "'x10'" not in said
    assert said.endswith("and 950 more problems")
    assert len(refused.value.problems) == 960  # all kept for code that reads them
