"""Deathwatch (seed 004) combat rules (``SYSTEM``).

>>> from gmkit.dice import EnteredDice
>>> from gmkit.sheets._deathwatch import DeathwatchCharacter
>>> from gmkit.systems.base import AttackRequest
>>> from gmkit.systems.deathwatch import SYSTEM
>>> from gmkit.systems._imperial.setup import AttackSetup
>>> profile = dict(WS=44, BS=47, S=45, T=43, Ag=40, Int=38, Per=41, WP=42, Fel=35)
>>> bolter = dict(name="Bolter", weapon_class="basic", range=100, rof="S/2/4",
...               damage="2d10+5", damage_type="X", pen=5, clip=28, reload="Full")
>>> brother = DeathwatchCharacter.build(name="Castor", characteristics=profile,
...                                     wounds=20, weapons=[bolter])
>>> mob = DeathwatchCharacter.build(name="Ork mob", characteristics=profile, wounds=12,
...                                 tier="troop", horde={"magnitude_max": 30})
>>> setup = AttackSetup("BS", (), "full", max_hits=4, rounds=4, jam_from=94)
>>> dice = EnteredDice([25, 4, 6, 3, 3, 2, 2, 9, 9])  # 25 vs 47: 2 degrees, 3 hits
>>> result = SYSTEM.resolve_attack(AttackRequest(brother, "Bolter", mob), dice, setup)
>>> str(result.summary)  # 3 hits, and the Explosive extra hit: 4 magnitude
'Castor hits Ork mob 4 times with Bolter: magnitude -4'

Deathwatch's own choices (004): degrees of success are the least the attack's first damage die
reads; Righteous Fury adds a die (a d5 is a d10 halved, its natural 10 counting); a helpless
target's two 10s confirm it; hordes (:mod:`gmkit.systems._imperial.hordes`) lose a magnitude
per damaging hit; clearing a jam empties the weapon. Initiative is 1d10 + Agility Bonus (with
Unnatural Agility), ties to the higher bonus, then a roll-off.
"""

from __future__ import annotations

from gmkit.systems.dark_heresy import ImperialSystem, InitiativeResult, initiative

__all__ = ["SYSTEM", "DeathwatchSystem", "InitiativeResult", "initiative"]


class DeathwatchSystem(ImperialSystem):
    """Deathwatch's rules."""

    game = "deathwatch"


SYSTEM = DeathwatchSystem()
"""Deathwatch's rules, as :func:`gmkit.systems.system` returns them."""
