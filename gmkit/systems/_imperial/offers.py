"""What the attack panel may offer in Dark Heresy and Deathwatch, from the 40k catalogs.

Weapons: the sheet's and "Unarmed". Modes: "melee" and "thrown" for melee weapons with a range,
"thrown" for thrown weapons, and for ranged weapons "single", "semi", "full" from the rate of
fire plus "suppressing" where an action allows it, and "melee" for what needs no weapon (Stun,
Knock-Down). An action is offered in a mode when the rules accept it there, read it as ranged
exactly when the mode is, and fire it in that mode (Semi-Auto Burst under "semi" only).
Actions whose options the panel cannot ask for (Grapple's controller options) are refused with
that reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gmkit.errors import GmkitError
from gmkit.messages import Message, Text, catalogs
from gmkit.sheets.base import Sheet
from gmkit.systems import _percentile as percentile
from gmkit.systems._imperial import actions as catalog
from gmkit.systems._imperial import circumstances as circ
from gmkit.systems._imperial import sizes
from gmkit.systems._imperial.actions_request import MODE_ACTIONS, read_attack
from gmkit.systems._imperial.modifiers import attack_setup
from gmkit.systems._imperial.terms import tested
from gmkit.systems.base import AttackRequest, Choice, Standing
from gmkit.systems.offers import UNARMED, Preview, first_preferred, mode_label, reaction_choice

_CIRCUMSTANCE_KINDS = {"flag": "flag", "number": "number", "cover": "number", "choice": "choice"}
_TERRAIN = ("both", "attacker", "target")
_FIRE_MODES = ("single", "semi", "full", "suppressing")
_RANGED_MODES = (*_FIRE_MODES, "thrown")


def _option_label(option: str) -> Message:
    """A circumstance option's words: a range band, or a side of terrain."""
    found = f"imperial.circumstance_option.{option}"
    return Message(found) if catalogs().english(found) is not None else Message.verbatim(option)


class ImperialOffers:
    def __init__(self, game: str) -> None:
        self.game = game
        # the attack actions and circumstances offered, made once while the catalogs they
        # come from are the same objects (every panel asks after every event)
        self._made: dict[str, tuple[tuple[object, ...], tuple[Choice, ...]]] = {}

    def _kept(self, what: str, sources: tuple[object, ...]) -> tuple[Choice, ...] | None:
        kept = self._made.get(what)
        if kept is not None and all(a is b for a, b in zip(kept[0], sources, strict=True)):
            return kept[1]
        return None

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
        sources = (catalog.actions(self.game), catalogs())
        made = self._kept("actions", sources)
        if made is None:
            made = tuple(
                Choice(
                    item.id,
                    item.label,
                    help=Message("imperial.offers.action_help", types=item.types_named),
                )
                for item in catalog.actions(self.game).values()
                if item.is_attack
            )
            self._made["actions"] = (sources, made)
        return made

    def refusal(
        self, sheet: Sheet, weapon: str, mode: str, action: str, options: Mapping[str, Any]
    ) -> Text:
        chosen = catalog.action(self.game, action)
        if chosen.options:
            return Message(
                "imperial.offers.options_not_in_panel",
                action=chosen.label,
                options=tuple(option.label for option in chosen.options.values()),
            )
        location = self.locations(action)
        standing = Standing.of(
            options.get("attacker_conditions") or (),
            options.get("attacker_counters") or {},
            options.get("attacker_reactions") or {},
        )
        request = AttackRequest(
            sheet,
            weapon,
            sheet,
            action=action,
            mode=mode,
            called_location=location[0] if location else None,
            attacker_standing=standing,
        )
        try:
            attack_setup(request, self.game)
            reading = read_attack(request, self.game)
        except GmkitError as error:
            problem = getattr(error, "problem", None)
            return problem if problem is not None else error.message
        if reading.ranged != (mode in _RANGED_MODES):
            which = "imperial.offers.is_ranged" if reading.ranged else "imperial.offers.not_ranged"
            return Message(which, action=chosen.label)
        if mode in _FIRE_MODES and reading.mode != mode:
            return Message(
                "imperial.offers.fires_other_mode",
                action=chosen.label,
                fires=mode_label(reading.mode),
                mode=mode_label(mode),
            )
        return ""

    def circumstances(self, action: str | None) -> tuple[Choice, ...]:
        """Every circumstance of the game's catalog (whatever ``action``)."""
        sources = (circ.circumstances(self.game), sizes.sizes(self.game), catalogs())
        made = self._kept("circumstances", sources)
        if made is None:
            made = self._circumstances()
            self._made["circumstances"] = (sources, made)
        return made

    def _circumstances(self) -> tuple[Choice, ...]:
        found, seen = [], set()
        for item in circ.circumstances(self.game).values():
            if item.id in seen:
                continue  # an alias
            seen.add(item.id)
            kind = _CIRCUMSTANCE_KINDS.get(item.kind, "choice")
            options: tuple[str, ...] = ()
            labels: tuple[Text, ...] = ()
            if item.kind == "choice":
                options = item.listed("choices")
            elif item.kind == "terrain":
                options = _TERRAIN
            elif item.kind == "size":  # a dropdown of the categories (a number: from Python)
                options = tuple(sizes.sizes(self.game))
                labels = tuple(size.label for size in sizes.sizes(self.game).values())
            parts: list[Message] = [
                Message(
                    "imperial.offers.modifier",
                    tests=tuple(tested(test) for test in sorted(s.tests)),
                    value=s.value,
                )
                for s in item.modifiers
                if s.value
            ]
            if item.kind == "cover":
                parts.append(Message("imperial.offers.cover"))
            if item.kind == "size":
                parts.append(Message("imperial.offers.size"))
            if item.get("steps"):
                steps = tuple(
                    Message("imperial.offers.step", start=int(s["from"]), value=int(s["value"]))
                    for s in item.get("steps")
                )
                parts.append(Message("common.list", items=steps))
            help_text: Text = Message("common.join", parts=tuple(parts)) if parts else ""
            labels = labels or tuple(_option_label(option) for option in options)
            found.append(Choice(item.id, item.label, kind, options, help_text, labels))  # type: ignore[arg-type]
        return tuple(found)

    def reactions(self) -> tuple[Choice, ...]:
        sources = (catalog.actions(self.game), catalogs())
        made = self._kept("reactions", sources)
        if made is None:
            made = self._reactions()
            self._made["reactions"] = (sources, made)
        return made

    def _reactions(self) -> tuple[Choice, ...]:
        return tuple(
            reaction_choice(
                item.id,
                item.label,
                Message(
                    "imperial.preview.test",
                    characteristic=percentile.characteristic(str(item.test)),
                ),
            )
            for item in catalog.actions(self.game).values()
            if "reaction" in item.types
        )

    def action_types(self, action: str) -> tuple[str, ...]:
        return tuple(catalog.action(self.game, action).types)

    def locations(self, action: str) -> tuple[str, ...]:
        chosen = catalog.action(self.game, action)
        if chosen.attack is not None and "called_location" in chosen.attack.requires:
            return tuple(percentile.LOCATIONS)
        return ()

    def default_action(self, mode: str, offered: Iterable[str]) -> str:
        return first_preferred(
            [MODE_ACTIONS.get(mode, "standard_attack"), "standard_attack"], offered
        )

    def preview(self, request: AttackRequest) -> Preview:
        setup = attack_setup(request, self.game)
        base = int(getattr(request.attacker.characteristics, setup.characteristic))  # type: ignore[attr-defined]
        total = percentile.capped(setup.modifiers, 60)
        notes: list[Text] = [*setup.warnings, *setup.notes]
        if sum(m.value for m in setup.modifiers) != total:
            notes.insert(0, Message("imperial.preview.capped", total=total))
        if setup.max_hits > 1:
            notes.insert(0, Message("imperial.preview.max_hits", hits=setup.max_hits))
        if setup.auto_hit:
            notes.insert(0, Message("imperial.preview.auto_hit"))
        named = percentile.characteristic(setup.characteristic)
        return Preview(
            Message("imperial.preview.test", characteristic=named),
            "d100",
            Message("imperial.preview.base", characteristic=named, base=base),
            setup.modifiers,
            total,
            None if setup.auto_hit else base + total,
            tuple(notes),
        )

    def target_refusal(self, request: AttackRequest) -> Text:
        return ""  # no target the request names is refused before the roll

    def reactions_available(self, request: AttackRequest) -> dict[str, Text]:
        setup = attack_setup(request, self.game)
        why: Text = (
            Message("common.join", parts=tuple(setup.notes))
            if setup.notes
            else Message("imperial.offers.as_action_has_it")
        )
        found: dict[str, Text] = {}
        horde = getattr(request.target, "is_horde", False) and not request.options.horde_reacts
        for choice in self.reactions():
            if horde:
                found[choice.id] = Message("imperial.offers.hordes_do_not_react")
            elif choice.id == "dodge":
                found[choice.id] = (
                    "" if setup.can_dodge else Message("imperial.offers.cannot_dodge", why=why)
                )
            elif choice.id == "parry":
                if setup.characteristic == "BS":
                    found[choice.id] = Message("imperial.offers.only_melee_parried")
                else:
                    found[choice.id] = (
                        "" if setup.can_parry else Message("imperial.offers.cannot_parry", why=why)
                    )
        return found

    def implied(
        self,
        action: str,
        attacker: Iterable[str],
        target: Iterable[str],
        target_sheet: Sheet | None = None,
    ) -> dict[str, Any]:
        return {}  # the rules read the conditions from the standings themselves

    def state_options(self, request: AttackRequest) -> dict[str, Any]:
        return {}


DARK_HERESY = ImperialOffers("dark_heresy")
DEATHWATCH = ImperialOffers("deathwatch")
