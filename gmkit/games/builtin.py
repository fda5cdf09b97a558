"""The five games of the seeds, registered (imported by the registry on its first lookup)."""

from gmkit.games import dark_heresy, deathwatch, necromunda, wfb6, wfrp2
from gmkit.games.registry import register

BUILTIN = (necromunda.GAME, dark_heresy.GAME, deathwatch.GAME, wfrp2.GAME, wfb6.GAME)
"""In the seeds' order (000 Necromunda, 001 Dark Heresy, 004 Deathwatch, 002 WFRP, 003 WFB)."""

for entry in BUILTIN:
    register(entry)
