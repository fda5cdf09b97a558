"""The rules Dark Heresy and Deathwatch share (the 40k d100 family).

- ``setup``: :class:`AttackSetup`, what the action and circumstances make of an attack before
  the dice: the test's characteristic and modifiers, hit caps, what the target may react with.
- ``modifiers``: actions and circumstances as catalogs (data with behaviour) -> AttackSetup.
- ``resolve``: the attack from the test to the effects (jams, reactions, hits, damage,
  Righteous Fury, soak, hordes).
- ``effects``: applying effects to a sheet; conditions and critical tables.
"""
