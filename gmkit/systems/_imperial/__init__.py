"""The rules Dark Heresy and Deathwatch share (the 40k d100 family), one module per rule.

``gmkit.systems.dark_heresy.SYSTEM`` and ``gmkit.systems.deathwatch.SYSTEM`` put them behind
the systems' protocol. An attack flows down this map: the setup before the dice, the
resolution, then the effects the encounter applies (each through ``SYSTEM.apply_effect``).
The tables and catalogs are data under ``systems/data/<game>/`` (Dark Heresy's files extend
Deathwatch's); each module's docstring gives its rules and the choices where the texts are
silent.

Every text the rules give (steps, summaries, notes, refusals, dice purposes) is a
:class:`~gmkit.messages.Message` of the ``imperial`` catalog, and every name a data file gives
(an action's, a circumstance's, a condition's, a modifier's source) a term of the game's own
catalog (``dark_heresy``, ``deathwatch``): ``terms`` gathers the words the rules name.

- ``options``: ``DarkHeresyOptions`` and ``DeathwatchOptions``, the typed options of an attack
  (the GM's choices and house rules); what the encounter knows comes in the request's standings.
- ``terms``: fire modes, weapon classes, qualities, damage types, the request's fields, the
  game's name for Righteous Fury, as messages.

Before the dice (request -> :class:`~gmkit.systems._imperial.setup.AttackSetup`):

- ``setup``: ``AttackSetup``, the attack as the rules see it before any die: the test and its
  modifiers, hit caps and rounds, jams, the reactions allowed, automatic hits and failures.
- ``modifiers``: ``attack_setup(request, game)`` builds it; ``defence_modifiers`` and
  ``target_modifiers`` give the target's own tests (Dodge, Parry, an opposed test).
- ``actions``: the action catalog (``actions.yaml``), modifier specs, jam thresholds.
- ``actions_request``: a request read against the catalog: weapon, mode, test, requirements,
  weapon training, the flags modifier specs test.
- ``circumstances``: the circumstance catalog, range bands, shooting into melee.
- ``circumstances_handling``: weapon handling (Deathwatch) and Dark Heresy's house rules.
- ``conditions``: the condition catalog (the one vocabulary of condition ids: ``gain`` and
  ``lose`` make their effects), their modifiers, limits, ticking and reminders.
- ``cover``: cover as armour at the covered locations against ranged attacks, worn down by the
  hits that beat it.

The attack (setup + dice -> ``AttackResult``: explained steps and effects, no sheet changed):

- ``resolve``: ``resolve_attack``, from the test to the effects; hordes, fire, special attacks
  dispatched from here.
- ``resolve_test``: the attack's test, jams, automatic hits and failures, extra hits.
- ``resolve_reactions``: Dodge and Parry, with ``modifiers.defence_modifiers``.
- ``resolve_hit``: one hit: damage, Righteous Fury, cover, armour, Toughness, unarmed fatigue.
- ``resolve_special``: stun, knock-down, feint, manoeuvre, grappling.
- ``resolve_fire``: pinning, overwatch, clearing a jam.
- ``damage``: damage dice one by one (degrees of success, Tearing, Proven, d5 from d10).
- ``damage_fury``: Righteous Fury and its confirmation, and 001's house rule.
- ``damage_soak``: what stands between the damage and the wounds.
- ``hordes``: Deathwatch's hordes: hits by weapon, magnitude, breaking.

After the attack (effects -> sheets):

- ``effects``: applying effects to a sheet (wounds, critical damage, fatigue, ammunition,
  magnitude), healing and rest; ``apply_for_encounter`` is ``SYSTEM.apply_effect``.
- ``criticals``: the critical effect tables (a GM's table file; the seeds lost them, so a
  critical no table covers is a ``CriticalPrompt`` the GM answers) and their effects.
- ``acting``: the rules of the turn beyond attacks (``DARK_HERESY``, ``DEATHWATCH``: the
  registry's ``acting``): what conditions forbid, from the catalog's flags;
  ``acting_actions``: the non-attack actions (Aim, Brace, Reload, Clear Jam...);
  ``acting_dues``: the rolls the turn asks for (on fire, blood loss, pinned).
"""
