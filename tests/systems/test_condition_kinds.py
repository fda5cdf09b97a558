"""Typed conditions (issue 22): each game declares its conditions (what they carry, when they
end, what they forbid); a name the game does not declare, or a payload its kind refuses, is a
note no rule reads; the fallen set is the one the pacing (Next) reads."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gmkit.errors import RulesError
from gmkit.games import game as find_game
from gmkit.systems._conditions import (
    Carries,
    Held,
    Note,
    book,
    fallen,
    out_of_the_fight,
)
from gmkit.systems._imperial.conditions import conditions as imperial_catalog
from gmkit.systems._imperial.modifiers import clear_caches
from gmkit.systems._tables import table
from gmkit.systems.turns import turn_structure
from gmkit.systems.wfrp2._catalogs import actions as wfrp2_actions

GAMES = ("dark_heresy", "deathwatch", "wfrp2", "necromunda", "wfb6")


def test_each_game_declares_its_conditions_through_its_rules() -> None:
    assert tuple(book("wfrp2").kinds) == (
        "dead", "stunned", "helpless", "defensive_stance", "surprised", "aiming", "feint",
        "cautious_attack", "all_out_attack", "running", "parry_stance", "delayed_half_action",
    )  # fmt: skip
    assert tuple(book("necromunda").kinds) == (
        "out of action", "down", "pinned", "failed_charge", "run", "charging", "engaged",
        "hidden", "flesh wound", "crawl", "compulsory",
    )  # fmt: skip
    assert tuple(book("wfb6").kinds) == ("dead",)
    for game in ("dark_heresy", "deathwatch"):  # built from conditions.yaml, not a copy of it
        assert tuple(book(game).kinds) == tuple(imperial_catalog(game))
    for game in GAMES:  # the registry's rules give it; every kind names its own game
        assert find_game(game).rules.conditions is book(game)  # type: ignore[attr-defined]
        assert {kind.game for kind in book(game).kinds.values()} == {game}


def test_what_each_kind_carries_and_when_it_ends() -> None:
    aimed = book("dark_heresy").kinds["aimed"]
    assert aimed.carries == Carries(values=("half", "full"))
    assert (aimed.ends, aimed.ticks, aimed.kept_by) == (
        ("start_of_turn", "when_acts"),
        "start_of_turn",
        frozenset({"delay"}),
    )
    assert book("deathwatch").kinds["jammed"].carries == Carries(weapon=True)
    assert book("deathwatch").kinds["stunned"].ends == ("end_of_turn",)
    assert book("deathwatch").kinds["surprised"].ends == ("end_of_round",)
    assert book("deathwatch").kinds["blood_loss"].ends == ("removed",)
    wfrp2 = book("wfrp2").kinds
    assert (wfrp2["aiming"].ends, wfrp2["feint"].ends) == (("start_of_turn", "when_acts"),) * 2
    assert (wfrp2["stunned"].ends, wfrp2["stunned"].ticks) == (("turns",), None)
    assert wfrp2["running"].ticks == "start_of_turn"
    necromunda = book("necromunda").kinds
    assert necromunda["hidden"].ends == ("after_attack",)
    assert (necromunda["pinned"].ends, necromunda["down"].ends) == (("turns",), ("removed",))


def _rules(game: str, name: str) -> list[tuple[object, ...]]:
    return [
        (r.condition, r.no_actions, r.types, dict(r.caps), r.actions, r.no_reactions)
        for r in book(game).restrictions([name])
    ]


def test_each_kinds_restriction() -> None:
    half_free = frozenset({"half", "free"})
    assert _rules("dark_heresy", "pinned") == [("pinned", False, None, {"actions": 1}, None, False)]
    assert _rules("deathwatch", "pinned") == [("pinned", False, half_free, {}, None, False)]
    assert _rules("deathwatch", "stunned") == [("stunned", True, None, {}, None, True)]
    assert _rules("deathwatch", "grappled") == [
        ("grappled", False, None, {}, frozenset({"grapple"}), False),
        ("grappled", False, None, {}, None, True),
    ]
    assert _rules("dark_heresy", "broken") == [
        ("broken", False, None, {}, frozenset({"run"}), False)
    ]
    # the fallen are the permits' own; All Out Attack's reactions are counted with the pools
    assert _rules("deathwatch", "dead") == _rules("deathwatch", "all_out_attack") == []
    assert _rules("wfrp2", "stunned") == [("stunned", True, None, {}, None, True)]
    assert _rules("wfrp2", "helpless") == [("helpless", False, None, {}, None, True)]
    others = frozenset(a.id for a in wfrp2_actions().values() if not a.is_attack)
    assert _rules("wfrp2", "defensive_stance") == [
        ("defensive_stance", False, None, {}, others, False)
    ]
    assert "aim" in others
    assert "standard_attack" not in others
    assert _rules("wfrp2", "aiming") == _rules("wfrp2", "dead") == []
    assert _rules("necromunda", "down") == [
        ("down", False, frozenset({"move"}), {}, frozenset({"crawl"}), False)
    ]
    assert _rules("necromunda", "pinned") == [("pinned", True, None, {}, None, False)]
    no_shot = frozenset({"move", "run", "charge", "fight", "free"})
    assert _rules("necromunda", "run") == [("run", False, no_shot, {}, None, False)]
    assert _rules("necromunda", "charging") == [("charging", False, no_shot, {}, None, False)]
    assert _rules("necromunda", "failed_charge") == [("failed_charge", True, None, {}, None, False)]
    assert _rules("necromunda", "engaged") == [
        (
            "engaged",
            False,
            frozenset({"move", "run", "fight", "free"}),
            {},
            frozenset({"move", "run", "crawl"}),
            False,
        )
    ]


def test_one_condition_lifts_another() -> None:
    # a down Necromunda fighter crawls though pinned; a 40k pin binds no more in melee (001, 004)
    assert [r.condition for r in book("necromunda").restrictions(["pinned", "down"])] == ["down"]
    assert book("necromunda").barring(["pinned", "down"], "move", "crawl") == frozenset()
    assert book("necromunda").barring(["pinned", "down"], "shoot") == {"down"}
    assert book("dark_heresy").restrictions(["pinned", "engaged"]) == ()
    assert book("dark_heresy").restrictions(["engaged"]) == ()


def test_a_payload_its_kind_refuses_is_a_note() -> None:
    dark = book("dark_heresy")
    assert dark.of("aimed: Full") == Held("aimed: Full", dark.kinds["aimed"], "full")
    assert dark.of("jammed: Lasgun") == Held("jammed: Lasgun", dark.kinds["jammed"], "Lasgun")
    assert dark.of("aimed") == Held("aimed", dark.kinds["aimed"], "")
    door = dark.of("aimed: at the door")
    assert isinstance(door, Note)
    assert (door.why.id, str(door.why)) == (
        "turns.note.condition_payload",
        "'aimed: at the door': Aimed does not carry that; a note, no rule reads it",
    )
    stunned_gloss = dark.of("stunned: by the grenade")  # stunned carries nothing
    assert isinstance(stunned_gloss, Note)
    pews = book("wfrp2").of("behind the pews")
    assert isinstance(pews, Note)
    assert pews.why.id == "turns.note.unknown_condition"
    assert str(pews.why) == (
        "'behind the pews' is no condition of this game's rules: a note, no rule reads it"
    )
    # a note restricts nothing and nothing ends it
    assert book("wfrp2").restrictions(["stunned: by a club", "behind the pews"]) == ()
    assert dark.restrictions(["aimed: at the door", "stunned: by the grenade"]) == ()
    assert dark.ended(["aimed: at the door"], "attack") == ()
    assert isinstance(book("necromunda").of("Pinned"), Note)  # names are the rules' own


def test_what_an_attack_an_action_a_reaction_end() -> None:
    dark = book("dark_heresy")
    held = ["aimed: half", "pinned", "running"]
    assert dark.ended(held, "attack", "standard_attack") == ("aimed: half",)
    assert dark.ended(held, "action", "move") == ("aimed: half",)
    assert dark.ended(held, "action", "delay") == ()  # a Delay keeps the Aim
    assert dark.ended(held, "reaction") == ("aimed: half",)
    assert dark.ended(held, "hit") == ()
    wfrp2 = book("wfrp2")
    assert wfrp2.ended(["feint", "running", "aiming"], "attack") == ("feint", "aiming")
    assert wfrp2.ended(["running", "stunned"], "action", "move") == ()
    assert book("necromunda").ended(["hidden", "pinned"], "attack") == ("hidden",)
    assert book("necromunda").ended(["hidden"], "action", "move") == ()


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        ("dark_heresy", ("dead",)),
        ("deathwatch", ("dead",)),
        ("wfrp2", ("dead",)),
        ("necromunda", ("out of action",)),
        ("wfb6", ("dead",)),
    ],
)
def test_the_fallen_set_is_what_next_skips(game: str, expected: tuple[str, ...]) -> None:
    assert book(game).fallen == expected
    assert tuple(turn_structure(game).fallen) == expected  # what Next and the permits read
    assert fallen(game) == expected
    assert all(book(game).kinds[name].restrictions == () for name in expected)


def test_who_is_never_a_default_attacker_or_target() -> None:
    assert out_of_the_fight() == {"dead", "unconscious", "out of action"}
    assert out_of_the_fight(["necromunda"]) == {"out of action"}
    assert book("deathwatch").out == {"dead", "unconscious"}
    assert "unconscious" not in book("deathwatch").fallen  # its turns are played: blood loss


def test_a_carried_value_is_one_of_those_declared_or_a_weapon() -> None:
    assert Carries(values=("half", "full")).read("HALF") == "half"
    assert Carries(values=("half", "full")).read("at the door") is None
    assert Carries(weapon=True).read("Bolt pistol") == "Bolt pistol"
    assert Carries(weapon=True).read("") is None


def test_a_gms_conditions_file_changes_the_book_and_a_wrong_declaration_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "deathwatch"
    folder.mkdir()
    original = table("deathwatch", "conditions")

    def declare(**changes: object) -> None:
        items = [{**i, **changes} if i["id"] == "prone" else i for i in original["conditions"]]
        text = yaml.safe_dump({**original, "conditions": items})
        (folder / "conditions.yaml").write_text(text, encoding="utf-8")
        clear_caches()

    monkeypatch.setenv("GMKIT_DATA_PATH", str(tmp_path))
    try:
        declare(ends=["when_hit"])  # the book is built anew from the GM's file
        assert book("deathwatch").kinds["prone"].ends == ("when_hit",)
        assert book("deathwatch").ended(["prone", "stunned"], "hit") == ("prone",)
        declare(ends=["when_it_sneezes"])
        with pytest.raises(RulesError, match="prone: ends are among when_acts, after_attack, "):
            book("deathwatch")
        declare(carries="sword")
        with pytest.raises(RulesError, match=r"prone: carries is a list .*, or the word weapon"):
            book("deathwatch")
    finally:
        monkeypatch.delenv("GMKIT_DATA_PATH")
        clear_caches()
    assert book("deathwatch").kinds["prone"].ends == ("removed",)
