"""Every public Encounter command answers hostile arguments only with gmkit's errors (issue
27, item 6): 10,000 generated calls, each of a command of
:data:`~gmkit.encounter._arguments.COMMANDS` on a fight of the five games kept in a real
campaign file, each argument either a fitting value (a combatant's id or name, a weapon of
theirs, typed dice, a condition) or a hostile one (a number for a name, a list for a number,
a lone surrogate, a control character, bytes, an object, a 20,000-character text, a missing
or unknown argument). Every call either works or raises a GmkitError; a refused call leaves
the log as it was. The draws come from a seeded random source, the same every run."""

from __future__ import annotations

import inspect
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gmkit.demo import demo_campaign
from gmkit.dice import EnteredDice, SeededDice
from gmkit.encounter import Encounter
from gmkit.encounter._arguments import COMMANDS
from gmkit.errors import GmkitError
from gmkit.store import CampaignStore
from gmkit.systems.base import Effect

CALLS = 10_000
GAMES = ("dark_heresy", "deathwatch", "wfrp2", "necromunda", "wfb6")
HOSTILE: tuple[Any, ...] = (
    None,
    0,
    -1,
    10**30,
    3.5,
    float("nan"),
    float("inf"),
    True,
    b"bytes",
    [],
    [1, 2],
    ["\udc80"],
    {},
    {"a": 1},
    {1: "x"},
    {"\ud800": "x"},
    object(),
    "",
    " ",
    "\udc80",
    "Tull\udcff",
    "bell\x07",
    "nul\x00",
    "x" * 20_000,
    "no such one",
    ("a", 3),
    {"x"},
)
TEXTS = ("stunned", "prone", "on fire", "aimed: half", "Aim", "Reload", "a GM's note", "half")


def fitting(rng: random.Random, fight: Encounter, name: str) -> Any:
    """A value that could fit the argument ``name`` of a command on ``fight``."""
    combatants = list(fight.state.combatants.values())
    someone = rng.choice(combatants)
    if name in ("ident", "attacker", "target", "actor", "first", "second", "a", "b"):
        return rng.choice((someone.id, someone.name))
    if name == "ident_or_name":
        return someone.name
    if name == "weapon":
        weapons = [w.name for w in getattr(someone.sheet, "weapons", ())]
        return rng.choice(weapons) if weapons else "Hand Weapon"
    if name in ("source",):
        return rng.choice((SeededDice(rng.randrange(1000)), EnteredDice([rng.randint(1, 10)])))
    if name in ("index", "rounds", "score", "die"):
        return rng.randint(0, 3)
    if name in ("distance",):
        return rng.choice((1, 12.5, 30))
    if name in ("hidden", "gm_only", "apply", "secret", "spend", "engaged", "visible"):
        return rng.random() < 0.5
    if name in ("sheet",):
        return someone.sheet
    if name in ("sheets",):
        return [someone.sheet]
    if name in ("surprised", "ids"):
        return [someone.id]
    if name in ("circumstances",):
        return ["short_range"]
    return rng.choice(TEXTS)


def call(rng: random.Random, fight: Encounter) -> None:
    command = rng.choice(COMMANDS)
    method = getattr(fight, command)
    parameters = [
        p
        for p in inspect.signature(method.__wrapped__).parameters.values()
        if p.name != "self" and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)
    ]
    kwargs: dict[str, Any] = {}
    for parameter in parameters:
        required = parameter.default is inspect.Parameter.empty
        if not required and rng.random() < 0.6:
            continue
        if required and rng.random() < 0.03:
            continue  # a missing argument
        hostile = rng.random() < 0.5
        kwargs[parameter.name] = (
            rng.choice(HOSTILE) if hostile else fitting(rng, fight, parameter.name)
        )
    if rng.random() < 0.05:
        kwargs[rng.choice(("bogus", "\udc80", "mode"))] = rng.choice(HOSTILE)
    before = fight.events
    try:
        method(**kwargs)
    except GmkitError:
        assert fight.events == before, f"{command}({kwargs!r}) refused but wrote"
    except Exception as error:
        pytest.fail(f"{command}({_shown(kwargs)}) raised {type(error).__name__}: {error}")


def _shown(kwargs: dict[str, Any]) -> str:
    return ", ".join(f"{k!r}={v!r:.60}" for k, v in kwargs.items())


@pytest.fixture
def fights(tmp_path: Path) -> Iterator[list[Encounter]]:
    with CampaignStore(tmp_path / "fuzz.gmk", create=True) as store:
        made = []
        for roster in demo_campaign().rosters:
            fight = Encounter.create(store, roster.game, roster.game)
            fight.add_many(roster.sheets)
            made.append(fight)
        yield made


def test_hostile_calls_get_only_gmkits_errors(fights: list[Encounter]) -> None:
    rng = random.Random(27)
    for index in range(CALLS):
        fight = fights[index % len(fights)]
        call(rng, fight)
    assert sum(len(f.events) for f in fights) > len(fights)  # some calls did work


def test_a_lone_surrogate_or_a_control_character_is_named_not_a_raw_error(
    fights: list[Encounter],
) -> None:
    fight = fights[1]  # the demo's Dark Heresy roster
    tull = fight.combatant("Sergeant Varro Tull")
    before = fight.events
    with pytest.raises(GmkitError) as refused:
        fight.note("the door\udc80")
    assert str(refused.value) == (
        "note: the argument text: the character U+DC80 at position 9 is half of a character"
        " (a lone surrogate): no file can hold it; nothing was changed"
    )
    assert "sustituto suelto" in refused.value.render("es")
    with pytest.raises(
        GmkitError, match=r"rename: the argument name: the control character U\+0007"
    ):
        fight.rename(tull.id, "Tull\x07")
    with pytest.raises(
        GmkitError, match="add_condition: the argument ident: expected str, not int"
    ):
        fight.add_condition(7, "stunned")  # type: ignore[arg-type]
    wound = Effect("wounds", tull.name, amount=1, note="a splinter\udc80")
    with pytest.raises(GmkitError, match=r"a text in it cannot be saved: the character U\+DC80"):
        fight.apply_effects([wound])  # inside an effect: the event's own check, before the store
    assert fight.events == before
