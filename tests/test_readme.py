"""The README's Python examples run as written and print what their comments say."""

from __future__ import annotations

import re
from pathlib import Path

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL)


def _run(block: str, capsys) -> str:
    exec(compile(block, "README.md", "exec"), {})
    return capsys.readouterr().out


def test_the_dice_example_runs(capsys):
    block = next(b for b in BLOCKS if "distribution(" in b)
    _run(block, capsys)


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
