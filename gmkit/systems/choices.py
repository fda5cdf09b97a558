"""What an attack panel may offer, read from each game's own catalogs and rules.

A panel asks here instead of knowing any rule: :func:`attack_choices` gives the actions, fire
modes, circumstances and reactions a game offers an attacker with a weapon, and the distance
unit; :func:`refused_actions` says why an action is not offered (the rules' own refusal);
:func:`action_types` prices an action in the game's turn budget (``systems.turns``);
:func:`attack_preview` lists and totals the modifiers before any die where the rules expose
them (WFRP 2e ``attack_setup``, Necromunda ``shot_setup``, the 40k ``attack_setup``);
:func:`reactions_available` says which reactions the target may use against a request;
:func:`state_options` and :func:`implied_circumstances` turn what the encounter knows (the
conditions and counters it merges into ``request.options``) into what a game's rules read.

Nothing here is a rule of its own: legality comes from asking the rules (a refused request is
not offered, and its refusal is the reason shown), labels and modifiers from the catalogs. Only
the labels of fire modes and reactions, which no catalog names, are given here (English and
Spanish). The 40k games (``gmkit.systems.imperial``) are imported on first use.

Choices made:

- Weapons offered: WFRP 2e and the 40k games list the sheet's weapons and "Unarmed" (both
  rules accept bare hands); Necromunda its shooting weapons (seed 000 has no close combat);
  WFB 6e the weapons that make an attack (a range, or a special rule naming a kind of attack).
- Modes: WFRP 2e "melee" or "ranged" (a weapon is used in its own mode only); Necromunda
  "shooting"; WFB 6e the kind of attack the weapon makes (missile, template...); the 40k games
  "melee" and "thrown" for melee weapons with a range, "thrown" for thrown weapons, and for
  ranged weapons "single", "semi", "full" from the rate of fire plus "suppressing" where an
  action allows it, and "melee" for what needs no weapon (Stun, Knock-Down). An action is
  offered in a mode when the rules accept it there, read it as ranged exactly when the mode is,
  and fire it in that mode (Semi-Auto Burst under "semi" only); a mode is offered only when
  some attack action is legal in it.
- Actions whose options the panel cannot ask for (the 40k Grapple: its controller options) are
  refused with that reason.
- Necromunda's fighter state (:class:`~gmkit.systems.necromunda.state.FighterState`) is read
  from the encounter: conditions "pinned", "down", "out of action", "hidden", "flesh wound"
  (the encounter keeps one condition of a name, so it counts as one flesh wound more than the
  sheet's), and the ``damage`` counter as wounds lost.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from importlib import import_module
from typing import Any, Protocol

from gmkit.errors import GmkitError
from gmkit.sheets.base import Sheet
from gmkit.systems.base import AttackChoices, AttackRequest, Choice, Modifier

UNITS: dict[str, str] = {
    "dark_heresy": "m",
    "deathwatch": "m",
    "wfrp2": "m",
    "necromunda": "in",
    "wfb6": "cm",
}
"""The unit each game measures distances in."""

UNARMED = "Unarmed"
MODE_LABELS: dict[str, tuple[str, str]] = {
    "melee": ("Melee", "Cuerpo a cuerpo"),
    "ranged": ("Ranged", "A distancia"),
    "thrown": ("Thrown", "Arrojada"),
    "single": ("Single shot", "Disparo único"),
    "semi": ("Semi-auto burst", "Ráfaga semiautomática"),
    "full": ("Full auto burst", "Ráfaga automática"),
    "suppressing": ("Suppressing fire", "Fuego de supresión"),
    "shooting": ("Shooting", "Disparo"),
}
REACTION_LABELS: dict[str, tuple[str, str]] = {
    "parry": ("Parry", "Parada"),
    "dodge": ("Dodge", "Esquiva"),
}
SHOOT = Choice("shoot", "Shoot", label_es="Disparar", help="one shot in the shooting phase")


@dataclass(frozen=True, slots=True)
class Preview:
    """An attack's test before the dice: what it is rolled against, and why.

    ``target`` is the number to roll: at most ``target`` on a d100 for the d100 games, at
    least ``target`` on the 7+ chart (a 6, then ``target - 3``) for Necromunda; None when no
    test is rolled (a template).
    """

    title: str  # "BS test", "To hit"
    die: str  # "d100" (roll at most the target) or "D6" (the 7+ chart: at least the target)
    base: str  # "BS 43", "7 - BS 2 = 5"
    modifiers: tuple[Modifier, ...]
    total: int  # the modifiers' total as applied (capped at +/-60 in the 40k games)
    target: int | None
    notes: tuple[str, ...] = ()

    @property
    def uncapped(self) -> int:
        return sum(modifier.value for modifier in self.modifiers)


class _Rules(Protocol):
    game: str

    def weapons(self, sheet: Sheet) -> tuple[str, ...]: ...
    def modes(self, sheet: Sheet, weapon: str) -> tuple[str, ...]: ...
    def actions(self) -> tuple[Choice, ...]: ...
    def refusal(
        self, sheet: Sheet, weapon: str, mode: str, action: str, options: Mapping[str, Any]
    ) -> str: ...
    def circumstances(self, action: str | None) -> tuple[Choice, ...]: ...
    def reactions(self) -> tuple[Choice, ...]: ...
    def action_types(self, action: str) -> tuple[str, ...]: ...
    def locations(self, action: str) -> tuple[str, ...]: ...
    def preview(self, request: AttackRequest) -> Preview | None: ...
    def reactions_available(self, request: AttackRequest) -> dict[str, str]: ...
    def implied(
        self, action: str, attacker: Iterable[str], target: Iterable[str]
    ) -> dict[str, Any]: ...
    def state_options(self, request: AttackRequest) -> dict[str, Any]: ...


def _mode_choice(mode: str, help_text: str = "") -> Choice:
    en, es = MODE_LABELS.get(mode, (mode.replace("_", " ").capitalize(), ""))
    return Choice(mode, en, help=help_text, label_es=es)


def _reaction_choice(reaction: str, en: str = "", es: str = "", help_text: str = "") -> Choice:
    known_en, known_es = REACTION_LABELS.get(reaction, (reaction.capitalize(), ""))
    return Choice(reaction, en or known_en, help=help_text, label_es=es or known_es)


def _signed(values: Mapping[str, int]) -> str:
    return ", ".join(f"{key} {value:+d}" for key, value in values.items())


def _message(error: Exception) -> str:
    return str(error)


# --- WFRP 2e ----------------------------------------------------------------------------------


class _WFRP2:
    game = "wfrp2"

    def __init__(self) -> None:
        self.rules = import_module("gmkit.systems.wfrp2")

    def weapons(self, sheet: Sheet) -> tuple[str, ...]:
        return (*(weapon.name for weapon in getattr(sheet, "weapons", ())), UNARMED)

    def modes(self, sheet: Sheet, weapon: str) -> tuple[str, ...]:
        found = import_module("gmkit.systems.wfrp2.setup").find_weapon(sheet, weapon)
        return ("ranged",) if found.is_ranged else ("melee",)

    def actions(self) -> tuple[Choice, ...]:
        return tuple(
            Choice(item.id, item.name, help=f"{item.type} action: {item.note}".strip(": "))
            for item in self.rules.actions().values()
            if item.is_attack
        )

    def refusal(
        self, sheet: Sheet, weapon: str, mode: str, action: str, options: Mapping[str, Any]
    ) -> str:
        request = AttackRequest(sheet, weapon, sheet, action=action, mode=mode)
        try:
            self.rules.attack_setup(request)
        except GmkitError as error:
            return _message(error)
        return ""

    def circumstances(self, action: str | None) -> tuple[Choice, ...]:
        found = []
        for item in self.rules.circumstances().values():
            if action is not None and item.actions and action not in item.actions:
                continue
            parts = [_signed(item.modifiers)] if item.modifiers else []
            if item.reaction_modifier:
                parts.append(f"target's parry and dodge {item.reaction_modifier:+d}")
            if item.no_reactions:
                parts.append("no parry or dodge")
            parts += [f"allows {name}" for name in item.allows]
            parts += [f"no {name}" for name in item.blocks]
            if item.auto_hit:
                parts.append("hits automatically")
            if item.extra_damage:
                parts.append(f"+{item.extra_damage} damage")
            if item.actions:
                parts.append(f"only with {', '.join(item.actions)}")
            kind = "number" if item.value else "flag"
            help_text = "the modifier itself" if item.value else "; ".join(parts)
            found.append(Choice(item.id, item.name, kind, help=help_text))
        return tuple(found)

    def reactions(self) -> tuple[Choice, ...]:
        catalogs = import_module("gmkit.systems.wfrp2.catalogs")
        return tuple(_reaction_choice(name) for name in catalogs.REACTIONS)

    def action_types(self, action: str) -> tuple[str, ...]:
        return (self.rules.actions()[action].type,)

    def locations(self, action: str) -> tuple[str, ...]:
        return ()  # 002 has no called shots

    def preview(self, request: AttackRequest) -> Preview:
        setup = self.rules.attack_setup(request)
        total = sum(modifier.value for modifier in setup.modifiers)
        notes = list(setup.notes)
        if setup.auto_hit:
            notes.insert(0, "hits automatically (the d100 still gives the location)")
        if setup.attacks > 1:
            notes.insert(0, f"{setup.attacks} attacks, each its own test")
        return Preview(
            f"{setup.characteristic} test",
            "d100",
            f"{setup.characteristic} {setup.base}",
            setup.modifiers,
            total,
            setup.base + total,
            tuple(notes),
        )

    def reactions_available(self, request: AttackRequest) -> dict[str, str]:
        return {
            name: "" if option.available else option.reason
            for name, option in self.rules.reactions_available(request).items()
        }

    def implied(
        self, action: str, attacker: Iterable[str], target: Iterable[str]
    ) -> dict[str, Any]:
        held = {"attacker": set(attacker), "target": set(target)}
        return {
            item.id: True
            for item in self.rules.circumstances().values()
            if item.condition
            and item.condition in held[item.bearer]
            and not (item.actions and action not in item.actions)
        }

    def state_options(self, request: AttackRequest) -> dict[str, Any]:
        return {}


# --- Necromunda -------------------------------------------------------------------------------

_FIGHTER_CONDITIONS = {
    "pinned": "pinned",
    "down": "down",
    "out of action": "out_of_action",
    "hidden": "hidden",
}


class _Necromunda:
    game = "necromunda"

    def __init__(self) -> None:
        self.rules = import_module("gmkit.systems.necromunda")
        self.shooting = import_module("gmkit.systems.necromunda.shooting")

    def weapons(self, sheet: Sheet) -> tuple[str, ...]:
        return tuple(weapon.name for weapon in self.shooting.shooting_weapons(sheet))

    def modes(self, sheet: Sheet, weapon: str) -> tuple[str, ...]:
        return ("shooting",)

    def actions(self) -> tuple[Choice, ...]:
        return (SHOOT,)

    def refusal(
        self, sheet: Sheet, weapon: str, mode: str, action: str, options: Mapping[str, Any]
    ) -> str:
        if action != SHOOT.id:
            return f"{action}: seed 000 resolves shots only"
        try:
            found = self.shooting.weapon_of(sheet, weapon)
        except GmkitError as error:
            return _message(error)
        if found.kind == "close combat":
            return f"{found.name} is a close combat weapon; seed 000 has no close combat rules"
        return ""

    def circumstances(self, action: str | None) -> tuple[Choice, ...]:
        found = []
        for item in self.shooting.catalog().values():
            help_text = f"{item.value:+d}: {item.when}" if item.when else f"{item.value:+d}"
            if item.excludes:
                help_text += f" (not with {', '.join(item.excludes)})"
            if item.threshold is not None:
                help_text += f"; applies from {item.threshold:g}"
                found.append(Choice(item.id, item.name, "number", help=help_text))
            else:
                found.append(Choice(item.id, item.name, help=help_text))
        return tuple(found)

    def reactions(self) -> tuple[Choice, ...]:
        return ()

    def action_types(self, action: str) -> tuple[str, ...]:
        return ("shoot",)

    def locations(self, action: str) -> tuple[str, ...]:
        return ()

    def preview(self, request: AttackRequest) -> Preview:
        setup = self.shooting.shot_setup(request, self.rules.SYSTEM.settings)
        notes = [f"{check.rule}: {check.reason}" for check in setup.refused]
        if setup.band is not None:
            notes.insert(0, f"{setup.band} range")
        if setup.weapon.template:
            notes.insert(0, "template weapon: no to-hit roll; the GM places the template")
        total = sum(modifier.value for modifier in setup.modifiers)
        return Preview(
            "To hit",
            "D6",
            f"7 - BS {setup.bs} = {7 - setup.bs}",
            setup.modifiers,
            total,
            setup.needed,
            tuple(notes),
        )

    def reactions_available(self, request: AttackRequest) -> dict[str, str]:
        return {}

    def implied(
        self, action: str, attacker: Iterable[str], target: Iterable[str]
    ) -> dict[str, Any]:
        return {}

    def _state(self, sheet: Sheet, conditions: Any, counters: Any) -> dict[str, Any]:
        held = set(conditions or ())
        state: dict[str, Any] = {
            field: True for name, field in _FIGHTER_CONDITIONS.items() if name in held
        }
        lost = int(dict(counters or {}).get("damage", 0))
        if lost:
            state["wounds_left"] = max(0, int(sheet.W) - lost)  # type: ignore[attr-defined]
        if "flesh wound" in held:
            state["flesh_wounds"] = int(sheet.flesh_wounds) + 1  # type: ignore[attr-defined]
        return state

    def state_options(self, request: AttackRequest) -> dict[str, Any]:
        options = request.options
        found: dict[str, Any] = {}
        for role, sheet in (("attacker", request.attacker), ("target", request.target)):
            if f"{role}_state" in options:
                continue
            state = self._state(
                sheet, options.get(f"{role}_conditions"), options.get(f"{role}_counters")
            )
            if state:
                found[f"{role}_state"] = state
        return found


# --- WFB 6e -----------------------------------------------------------------------------------


class _WFB6:
    game = "wfb6"

    def __init__(self) -> None:
        self.rules = import_module("gmkit.systems.wfb6")
        self.data = import_module("gmkit.systems.wfb6.data")

    def _weapon(self, sheet: Sheet, weapon: str) -> Any:
        for found in getattr(sheet, "weapons", ()):
            if found.name.casefold() == weapon.strip().casefold():
                return found
        known = ", ".join(w.name for w in getattr(sheet, "weapons", ())) or "none"
        raise GmkitError(f"{sheet.name} has no weapon {weapon!r}; known: {known}")

    def _kind(self, sheet: Sheet, weapon: str) -> str:
        return str(self.data.targeting_rules().kind_of(self._weapon(sheet, weapon)).id)

    def weapons(self, sheet: Sheet) -> tuple[str, ...]:
        names = []
        for weapon in getattr(sheet, "weapons", ()):
            kind = self.data.targeting_rules().kind_of(weapon)
            if weapon.is_missile or kind.to_hit != "roll":
                names.append(weapon.name)
        return tuple(names)

    def modes(self, sheet: Sheet, weapon: str) -> tuple[str, ...]:
        return (self._kind(sheet, weapon),)

    def actions(self) -> tuple[Choice, ...]:
        return (SHOOT,)

    def refusal(
        self, sheet: Sheet, weapon: str, mode: str, action: str, options: Mapping[str, Any]
    ) -> str:
        if action != SHOOT.id:
            return f"{action}: seed 003 resolves shooting only"
        try:
            found = self._weapon(sheet, weapon)
            kind = self.data.targeting_rules().kind_of(found, mode)
        except GmkitError as error:
            return _message(error)
        if kind.to_hit == "roll" and not found.is_missile:
            return f"the {found.name} is not a missile weapon"
        return ""

    def circumstances(self, action: str | None) -> tuple[Choice, ...]:
        found = []
        for entry in self.data.shooting_rules().to_hit:
            if entry.automatic:
                continue
            if entry.value:
                found.append(Choice(entry.id, entry.name, help=f"{entry.value:+d} to hit"))
            else:
                found.append(Choice(entry.id, entry.name, "number", help="the modifier itself"))
        return tuple(found)

    def reactions(self) -> tuple[Choice, ...]:
        return ()

    def action_types(self, action: str) -> tuple[str, ...]:
        return ("shoot",)

    def locations(self, action: str) -> tuple[str, ...]:
        return ()

    def preview(self, request: AttackRequest) -> Preview | None:
        return None  # the target's modifiers come with may_target: shown from the steps

    def reactions_available(self, request: AttackRequest) -> dict[str, str]:
        return {}

    def implied(
        self, action: str, attacker: Iterable[str], target: Iterable[str]
    ) -> dict[str, Any]:
        return {}

    def state_options(self, request: AttackRequest) -> dict[str, Any]:
        return {}


# --- Dark Heresy and Deathwatch -----------------------------------------------------------------

_CIRCUMSTANCE_KINDS = {"flag": "flag", "number": "number", "cover": "number", "choice": "choice"}
_TERRAIN = ("both", "attacker", "target")
_FIRE_MODES = ("single", "semi", "full", "suppressing")
_RANGED_MODES = (*_FIRE_MODES, "thrown")


class _Imperial:
    def __init__(self, game: str) -> None:
        self.game = game
        try:
            self.catalog = import_module("gmkit.systems.imperial.actions")
            self.circ = import_module("gmkit.systems.imperial.circumstances")
            self.setup = import_module("gmkit.systems.imperial.modifiers")
            self.reading = import_module("gmkit.systems.imperial.actions_request")
            self.percentile = import_module("gmkit.systems.percentile")
        except ImportError as error:
            raise GmkitError(
                f"the {game} attack rules are not in this gmkit yet ({error})"
            ) from None

    def _weapon(self, sheet: Sheet, weapon: str) -> Any | None:
        wanted = weapon.strip().casefold()
        return next((w for w in getattr(sheet, "weapons", ()) if w.name.casefold() == wanted), None)

    def weapons(self, sheet: Sheet) -> tuple[str, ...]:
        return (*(weapon.name for weapon in getattr(sheet, "weapons", ())), UNARMED)

    def modes(self, sheet: Sheet, weapon: str) -> tuple[str, ...]:
        found = self._weapon(sheet, weapon)
        if found is None:
            return ("melee",)
        if found.weapon_class == "melee":
            return ("melee", "thrown") if found.range else ("melee",)
        if found.weapon_class == "thrown":
            return ("thrown",)
        modes = ["single"] if found.single else []
        modes += ["semi"] if found.semi else []
        modes += ["full", "suppressing"] if found.full else []
        modes.append("melee")  # the actions that do not use the weapon: Stun, Knock-Down...
        return tuple(modes)

    def actions(self) -> tuple[Choice, ...]:
        return tuple(
            Choice(item.id, item.name, help=f"{'/'.join(item.types)} action", label_es=item.name_es)
            for item in self.catalog.actions(self.game).values()
            if item.is_attack
        )

    def refusal(
        self, sheet: Sheet, weapon: str, mode: str, action: str, options: Mapping[str, Any]
    ) -> str:
        chosen = self.catalog.action(self.game, action)
        if chosen.options:
            return f"{chosen.name}: its options ({', '.join(chosen.options)}) are not in this panel"
        location = self.locations(action)
        request = AttackRequest(
            sheet,
            weapon,
            sheet,
            action=action,
            mode=mode,
            called_location=location[0] if location else None,
            options={k: v for k, v in options.items() if k.startswith("attacker_")},
        )
        try:
            self.setup.attack_setup(request, self.game)
            reading = self.reading.read_attack(request, self.game)
        except GmkitError as error:
            return str(getattr(error, "problem", None) or error)
        if reading.ranged != (mode in _RANGED_MODES):
            return f"{chosen.name} is {'a ranged' if reading.ranged else 'not a ranged'} attack"
        if mode in _FIRE_MODES and reading.mode != mode:
            fires = MODE_LABELS.get(reading.mode, (reading.mode,))[0].lower()
            return f"{chosen.name} is a {fires}, not a {MODE_LABELS[mode][0].lower()}"
        return ""

    def circumstances(self, action: str | None) -> tuple[Choice, ...]:
        found, seen = [], set()
        for item in self.circ.circumstances(self.game).values():
            if item.id in seen:
                continue  # an alias
            seen.add(item.id)
            kind = _CIRCUMSTANCE_KINDS.get(item.kind, "choice")
            options: tuple[str, ...] = ()
            if item.kind == "choice":
                options = item.listed("choices")
            elif item.kind == "terrain":
                options = _TERRAIN
            parts = [f"{'/'.join(sorted(s.tests))} {s.value:+d}" for s in item.modifiers if s.value]
            if item.kind == "cover":
                parts.append("armour points in front of the covered locations")
            if item.get("steps"):
                parts.append(
                    ", ".join(f"{s['from']}+: {int(s['value']):+d}" for s in item.get("steps"))
                )
            found.append(
                Choice(item.id, item.name, kind, options, "; ".join(parts), label_es=item.name_es)
            )
        return tuple(found)

    def reactions(self) -> tuple[Choice, ...]:
        return tuple(
            _reaction_choice(item.id, item.name, item.name_es, f"{item.test} test")
            for item in self.catalog.actions(self.game).values()
            if "reaction" in item.types
        )

    def action_types(self, action: str) -> tuple[str, ...]:
        return tuple(self.catalog.action(self.game, action).types)

    def locations(self, action: str) -> tuple[str, ...]:
        chosen = self.catalog.action(self.game, action)
        if chosen.attack is not None and "called_location" in chosen.attack.requires:
            return tuple(self.percentile.LOCATIONS)
        return ()

    def preview(self, request: AttackRequest) -> Preview:
        setup = self.setup.attack_setup(request, self.game)
        base = int(getattr(request.attacker.characteristics, setup.characteristic))  # type: ignore[attr-defined]
        total = self.percentile.capped(setup.modifiers, 60)
        notes = [*setup.warnings, *setup.notes]
        if sum(m.value for m in setup.modifiers) != total:
            notes.insert(0, f"modifiers capped at {total:+d} (+/-60)")
        if setup.max_hits > 1:
            notes.insert(0, f"at most {setup.max_hits} hits")
        if setup.auto_hit:
            notes.insert(0, "hits automatically")
        return Preview(
            f"{setup.characteristic} test",
            "d100",
            f"{setup.characteristic} {base}",
            setup.modifiers,
            total,
            None if setup.auto_hit else base + total,
            tuple(notes),
        )

    def reactions_available(self, request: AttackRequest) -> dict[str, str]:
        setup = self.setup.attack_setup(request, self.game)
        why = "; ".join(setup.notes) or "as the action and circumstances have it"
        found: dict[str, str] = {}
        horde = getattr(request.target, "is_horde", False) and not request.options.get(
            "horde_reacts"
        )
        for choice in self.reactions():
            if horde:
                found[choice.id] = "hordes do not dodge or parry (004)"
            elif choice.id == "dodge":
                found[choice.id] = "" if setup.can_dodge else f"cannot be dodged ({why})"
            elif choice.id == "parry":
                if setup.characteristic == "BS":
                    found[choice.id] = "only melee attacks can be parried"
                else:
                    found[choice.id] = "" if setup.can_parry else f"cannot be parried ({why})"
        return found

    def implied(
        self, action: str, attacker: Iterable[str], target: Iterable[str]
    ) -> dict[str, Any]:
        return {}  # the rules read the conditions from options themselves

    def state_options(self, request: AttackRequest) -> dict[str, Any]:
        return {}


# --- the public functions ---------------------------------------------------------------------

_FACTORIES = {
    "wfrp2": _WFRP2,
    "necromunda": _Necromunda,
    "wfb6": _WFB6,
    "dark_heresy": lambda: _Imperial("dark_heresy"),
    "deathwatch": lambda: _Imperial("deathwatch"),
}


def _rules(game: str) -> _Rules:
    if game not in _FACTORIES:
        raise GmkitError(f"unknown game {game!r}; known: {', '.join(_FACTORIES)}")
    made: _Rules = _FACTORIES[game]()  # type: ignore[no-untyped-call]
    return made


def weapons(game: str, sheet: Sheet) -> tuple[str, ...]:
    """The names of the weapons ``sheet`` can attack with in ``game``."""
    return _rules(game).weapons(sheet)


def refused_actions(
    game: str,
    sheet: Sheet,
    weapon: str,
    mode: str,
    *,
    options: Mapping[str, Any] | None = None,
) -> dict[str, str]:
    """Every attack action of ``game``: "" when legal with ``weapon`` in ``mode``, else why not.

    ``options`` may carry the encounter's ``attacker_conditions`` (a pinned attacker...).
    """
    rules = _rules(game)
    return {
        choice.id: rules.refusal(sheet, weapon, mode, choice.id, options or {})
        for choice in rules.actions()
    }


def attack_choices(
    game: str,
    attacker_sheet: Sheet,
    weapon_name: str,
    *,
    mode: str | None = None,
    action: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> AttackChoices:
    """What ``attacker_sheet`` may do with ``weapon_name`` in ``game``.

    The actions legal in some mode (in ``mode`` when given), the modes in which some action is
    legal, the circumstances (those that go with ``action`` when given), the defender's
    reactions and the distance unit.
    """
    rules = _rules(game)
    candidates = rules.modes(attacker_sheet, weapon_name)
    legal: dict[str, set[str]] = {}
    for candidate in candidates:
        refused = refused_actions(game, attacker_sheet, weapon_name, candidate, options=options)
        legal[candidate] = {key for key, why in refused.items() if not why}
    modes = tuple(_mode_choice(candidate) for candidate in candidates if legal.get(candidate))
    wanted = legal.get(mode, set()) if mode is not None else set().union(*legal.values())
    return AttackChoices(
        actions=tuple(choice for choice in rules.actions() if choice.id in wanted),
        modes=modes,
        circumstances=rules.circumstances(action),
        reactions=rules.reactions(),
        distance_unit=UNITS[game],
    )


def actions(game: str) -> tuple[Choice, ...]:
    """Every attack action of ``game``'s catalog, legal or not."""
    return _rules(game).actions()


def circumstances(game: str, action: str | None = None) -> tuple[Choice, ...]:
    """The circumstances of ``game`` (those that go with ``action`` when given)."""
    return _rules(game).circumstances(action)


def reactions(game: str) -> tuple[Choice, ...]:
    """The defender's reactions in ``game`` (none in the D6 games)."""
    return _rules(game).reactions()


def default_action(game: str, mode: str, offered: Iterable[str]) -> str:
    """The action a panel selects first among ``offered`` in ``mode`` ("" when none): the one
    the game's rules take a plain attack in that mode to be, else the first offered."""
    ids = list(offered)
    preferred = ["standard_attack", SHOOT.id]
    if game in ("dark_heresy", "deathwatch"):
        modes = import_module("gmkit.systems.imperial.actions_request").MODE_ACTIONS
        preferred.insert(0, modes.get(mode, "standard_attack"))
    return next((action for action in preferred if action in ids), ids[0] if ids else "")


def action_types(game: str, action: str) -> tuple[str, ...]:
    """The action types (``systems.turns`` action costs) ``action`` may be taken as."""
    return _rules(game).action_types(action)


def locations(game: str, action: str) -> tuple[str, ...]:
    """The locations ``action`` asks for (a called shot), or () when it names none."""
    return _rules(game).locations(action)


def attack_preview(game: str, request: AttackRequest) -> Preview | None:
    """The test before the dice, or None where the rules give it only with the dice."""
    return _rules(game).preview(request)


def reactions_available(game: str, request: AttackRequest) -> dict[str, str]:
    """Each reaction of ``game``: "" when the target may use it against ``request``, else why."""
    return _rules(game).reactions_available(request)


def implied_circumstances(
    game: str, action: str, attacker_conditions: Iterable[str], target_conditions: Iterable[str]
) -> dict[str, Any]:
    """Circumstances the combatants' conditions set (WFRP 2e: a running target, an aim)."""
    return _rules(game).implied(action, attacker_conditions, target_conditions)


def state_options(game: str, request: AttackRequest) -> dict[str, Any]:
    """Options the game's rules read, built from the encounter's conditions and counters in
    ``request.options`` (Necromunda's ``attacker_state`` and ``target_state``)."""
    return _rules(game).state_options(request)


def with_options(request: AttackRequest, extra: Mapping[str, Any]) -> AttackRequest:
    """``request`` with ``extra`` options added."""
    return replace(request, options={**request.options, **extra})


__all__ = [
    "MODE_LABELS",
    "REACTION_LABELS",
    "UNITS",
    "Preview",
    "action_types",
    "actions",
    "attack_choices",
    "attack_preview",
    "circumstances",
    "default_action",
    "implied_circumstances",
    "locations",
    "reactions",
    "reactions_available",
    "refused_actions",
    "state_options",
    "weapons",
    "with_options",
]
