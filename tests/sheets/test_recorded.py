"""A sheet as an event records it (gmkit.sheets._recorded): the fold of a command's own event
reads back the very sheet the command made; any other record is validated as before."""

from __future__ import annotations

import json

import pytest

from gmkit.demo import demo_campaign
from gmkit.errors import SheetError
from gmkit.sheets._recorded import as_record, from_record


@pytest.fixture
def sheet():
    roster = next(r for r in demo_campaign().rosters if r.game == "dark_heresy")
    return roster.sheets[0]


def test_a_record_read_back_is_the_sheet_recorded(sheet):
    data = as_record(sheet)
    assert data == sheet.model_dump(mode="json")
    assert from_record(json.loads(json.dumps(data))) is sheet  # the JSON an event keeps


def test_another_record_is_validated(sheet):
    data = json.loads(json.dumps(as_record(sheet)))
    data["notes"] = "changed in the file"
    read = from_record(data)
    assert read is not sheet
    assert read.notes == "changed in the file"
    assert read.name == sheet.name


def test_a_bad_record_is_refused_naming_the_field(sheet):
    data = json.loads(json.dumps(as_record(sheet)))
    data["name"] = ""
    with pytest.raises(SheetError, match="name"):
        from_record(data)
