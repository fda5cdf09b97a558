"""The README's Python examples run as written and print what their comments say."""

from __future__ import annotations

import re
from pathlib import Path

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL)


def _run(block: str, capsys) -> str:
    exec(compile(block, "README.md", "exec"), {})
    return capsys.readouterr().out


def test_the_dice_example_prints_what_the_readme_says(capsys):
    block = next(b for b in BLOCKS if "distribution(" in b)
    assert _lines(_run(block, capsys)) == _lines(_after(block))


def test_the_rules_examples_print_the_games_numbers(capsys):
    block = next(b for b in BLOCKS if "resolve_attack" in b)
    printed = _run(block, capsys)
    assert "Soak (hit 1): 7 damage taken (10 damage - AP 0 - TB 3 = 7)" in printed
    assert "Ork Boyz mob" in printed
    assert "magnitude" in printed
    assert "Hit location: head (31 reversed: 13)" in printed
    assert "Wounds: 3 lost: 11 -> 8" in printed
    assert "To hit: hit (7 - BS 2 = 5; Partial cover -1; 6 against 6+: success)" in printed
    assert "screened by Reikland Swordsmen, not the closest legal target" in printed


def test_the_messages_example_reads_in_spanish_and_refuses_an_unknown_option(capsys):
    block = next(b for b in BLOCKS if "reactons_left" in b)
    printed = _run(block, capsys)
    assert "Tirada de Habilidad de Proyectiles: impacto, 1 grado de éxito" in printed
    assert "Localización del impacto: cuerpo (34 invertido da 43)" in printed
    assert "option 'reactons_left': unknown option (did you mean reactions_left?)" in printed


def test_the_keyword_sheet_example_prints_what_the_readme_says(capsys):
    block = next(b for b in BLOCKS if "Brother Aquila" in b)
    assert _lines(_run(block, capsys)) == _lines(_after(block))


def _after(block: str) -> str:
    """The ```text block that follows ``block`` in the README: what it prints."""
    rest = README[README.index(block) + len(block) :]
    found = re.match(r"```\n\nprints\n\n```text\n(.*?)```", rest, flags=re.DOTALL)
    assert found, "no ```text block of what it prints follows the example"
    return found.group(1)


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip("\n").splitlines()]


def test_the_prep_example_prints_what_the_readme_says_and_runs_again(tmp_path, monkeypatch, capsys):
    """README's "Prepare a fight of your own": at most 25 lines of public API, run twice on the
    same campaign (the notebook run again), printing exactly the README's text both times; one
    encounter, not two; the players' notebook holds no GM value; the backup holds the fight."""
    import shutil

    from gmkit.encounter import Encounter
    from gmkit.store import CampaignStore

    block = next(b for b in BLOCKS if "prep.campaign(" in b)
    assert len(block.strip().splitlines()) <= 25
    shutil.copy(Path(__file__).resolve().parent.parent / "notebooks" / "acolytes.csv", tmp_path)
    monkeypatch.chdir(tmp_path)
    expected = _lines(_after(block))
    for _ in range(2):
        assert _lines(_run(block, capsys)) == expected
    with CampaignStore(tmp_path / "next-week.gmk", readonly=True) as store:
        assert [(e.name, e.game) for e in store.encounters()] == [("Chapel raid", "dark_heresy")]
        fight = Encounter.open(store, "Chapel raid")
        assert [c.name for c in fight.state.combatants.values() if c.hidden] == [
            "Ganger 4",
            "Ganger 5",
            "Magos Vorn",
        ]
        vorn = fight.combatant("Magos Vorn").sheet
        laspistol = next(w for w in vorn.weapons if w.name == "Laspistol")
        assert (laspistol.damage, laspistol.pen) == ("1d10+4", 2)
        assert fight.state.settings["enemy_wounds"] == "band"
        assert len(fight.events) == 13  # 11 added, 2 settings, 1 note: no trial attack
    players = (tmp_path / "players.ipynb").read_bytes()
    for secret in (b"Magos Vorn", b"Ganger 4", b"Ganger 5", b"vestry", b"8/8", b"1d10+4"):
        assert secret not in players, secret
    assert b"Ganger 1" in players
    assert b"unhurt" in players
    with CampaignStore(tmp_path / "next-week-copy.gmk", readonly=True) as copy:
        assert [e.name for e in copy.encounters()] == ["Chapel raid"]


def test_every_python_example_of_the_readme_is_run_by_a_test_here():
    markers = (
        "distribution(",
        "resolve_attack",
        "reactons_left",
        "prep.campaign(",
        "Brother Aquila",
    )
    assert len(BLOCKS) == len(markers)
    for block in BLOCKS:
        assert sum(marker in block for marker in markers) >= 1, block[:80]
