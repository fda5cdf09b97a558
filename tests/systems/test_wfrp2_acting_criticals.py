"""WFRP 2e critical hits per the seeds README's ruling: 002 has no critical table, so the
packaged placeholder rows never apply; a critical asks the GM (a typed prompt and a note) unless
the GM gives a table file of their own (its path), which then decides."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice
from gmkit.errors import GmkitError
from gmkit.messages import render
from gmkit.systems.base import AttackRequest, Effect
from gmkit.systems.wfrp2 import SYSTEM, CriticalPrompt, load_critical_table, roll_critical

EXAMPLE = Path(__file__).parents[2] / "examples" / "criticals" / "wfrp2_example.yaml"
SHEETS = {s.name: s for r in demo_campaign().rosters if r.game == "wfrp2" for s in r.sheets}
ELSA, UNGOR = SHEETS["Elsa Wendt"], SHEETS["Ungor Snitch"].edit(wounds_current=3)


def shot(dice: list[int], **options: Any) -> Any:
    request = AttackRequest(attacker=ELSA, weapon="Bow", target=UNGOR, options=options)
    return SYSTEM.resolve_attack(request, EnteredDice(dice))


def test_the_packaged_placeholder_rows_never_apply_the_gm_is_asked() -> None:
    source = EnteredDice([])
    critical = roll_critical("Gor", 10, "body", source)  # the placeholder's row 10 is "dead"
    assert source.history == []  # nothing rolled on a table that is not there
    assert critical.prompt == CriticalPrompt("Gor", 10, "body")
    assert critical.effects == (Effect("critical", "Gor", 10, "body", note=critical.prompt.note),)
    assert str(critical.prompt.note) == (
        "critical hit on Gor, critical value +10 at the body: give its effect from your table "
        "(its text, and any condition or death it causes)"
    )
    assert render(critical.prompt.note, "es").startswith("golpe crítico a Gor, valor crítico +10")
    assert (
        str(critical.steps[0].outcome) == "critical value +10 at the body: the GM gives the effect"
    )


def test_an_attack_below_zero_carries_the_typed_prompt_and_applies_no_placeholder_effect() -> None:
    result = shot([43, 9])  # 43 hits; reversed 34: right arm; 9 + 3 - TB 3 = 9 lost: 3 -> -6
    assert result.prompts == (CriticalPrompt("Ungor Snitch", 6, "right_arm", 9),)
    assert [(e.kind, e.amount) for e in result.effects] == [("damage", 9), ("critical", 6)]
    step = next(s for s in result.steps if str(s.title) == "Critical hit")
    assert str(step.outcome) == "critical value +6 at the right arm: the GM gives the effect"
    assert "no critical table is loaded (seed 002 has none" in str(step.detail)


def test_the_gms_table_file_given_by_its_path_replaces_the_prompt() -> None:
    critical = roll_critical("Gor", 2, "head", EnteredDice([70]), table_path=EXAMPLE)
    assert (critical.prompt, critical.result, str(critical.text)) == (
        None,
        2,
        "a blow to the head: stunned for 2 rounds",
    )
    assert critical.effects[1] == Effect(
        "condition", "Gor", location="head", condition="stunned", rounds=2
    )
    killed = roll_critical("Gor", 9, "body", EnteredDice([51]), table_path=EXAMPLE)  # cap 3
    assert (killed.value, killed.effects[1].condition) == (3, "dead")


def test_the_attack_option_names_the_gms_table() -> None:
    result = shot([43, 9, 55], critical_table=str(EXAMPLE))  # value 6, capped at 3; d100 55
    assert result.prompts == ()
    assert [(e.kind, e.condition) for e in result.effects[1:]] == [
        ("critical", None),
        ("condition", "dead"),
    ]


def test_a_row_the_gms_table_lacks_asks_the_gm_too(tmp_path: Path) -> None:
    mine = tmp_path / "mine.yaml"
    mine.write_text(yaml.safe_dump({"max_value": 5, "chart": [], "results": []}))
    critical = roll_critical("Gor", 4, "left_leg", EnteredDice([]), table_path=mine)
    assert critical.prompt == CriticalPrompt("Gor", 4, "left_leg")
    assert [e.kind for e in critical.effects] == ["critical"]


def test_a_missing_or_malformed_table_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(GmkitError, match=r"no critical table file at .*nowhere\.yaml"):
        load_critical_table(tmp_path / "nowhere.yaml")
    broken = tmp_path / "broken.yaml"
    broken.write_text("- just a list\n")
    with pytest.raises(GmkitError, match=r"broken\.yaml"):
        roll_critical("Gor", 1, "body", EnteredDice([1]), table_path=broken)
    assert load_critical_table(EXAMPLE)["placeholder"] is False
