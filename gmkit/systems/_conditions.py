"""Conditions as each game declares them: what one carries, when it ends, what it forbids.

A :class:`ConditionKind` is one condition of one game: its ``id`` (the name the encounter keeps,
``"stunned"``, ``"out of action"``), what it ``carries`` after a colon (a :class:`Carries`:
one of given values, ``"aimed: half"``, or a weapon's name, ``"jammed: Lasgun"``), its default
``rounds``, when it ``ends`` (:data:`Ending`), the actions a ``when_acts`` one outlasts
(``kept_by``: a 40k Delay keeps the Aim), its ``restrictions`` (the
:class:`~gmkit.systems.acting.Restriction` s it puts on its bearer's actions and reactions),
the kinds whose presence lifts them (``suspended_by``: a down Necromunda fighter's pin, a 40k
pin in melee), and whether it takes its bearer out of the fight (``fallen``: Next passes over
its turns and it may do nothing; ``out``: never a default attacker or target either).

A :class:`ConditionBook` is a game's declaration: each game's rules expose theirs as
``conditions`` (Dark Heresy and Deathwatch build it from conditions.yaml, WFRP 2e, Necromunda
and WFB 6e from a table in their package); its registry entry reads it (``Game.book``), and
:func:`book` finds it by the game's id (through :mod:`gmkit.plugins`).
The book is the one answer to:

- *what is this name?* ``book.of(name)``: a :class:`Held` (the kind and the value it carries)
  or a :class:`Note`: a name the game does not declare, or a payload its kind refuses
  (``"aimed: at the door"``). A note shows on the chips and no rule reads it.
- *what do these conditions forbid?* ``book.restrictions(names)``: the one mapping the
  encounter's permits and the games' resolvers both read.
- *what does this occasion end?* ``book.ended(names, occasion, action)``: the conditions an
  attack, an action, a reaction or a hit ends (an Aim, a feint, hiding); the moments of the
  turn are the encounter's (:mod:`gmkit.encounter._rounds`, the one place rounds tick).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, get_args, overload

from gmkit.messages import Message
from gmkit.plugins import entries, entry
from gmkit.systems.acting import Restriction

Ending = Literal[
    "start_of_turn",  # at the start of the bearer's turn (a count of rounds ticks then)
    "end_of_turn",  # at the end of the bearer's turn
    "end_of_round",  # at the end of the round
    "turns",  # a count of the bearer's turns: the encounter ticks it at their end, or at
    # their start when the bearer gained it in its own turn (an action's "until next turn")
    "when_hit",  # when an attack hits the bearer
    "after_attack",  # once the bearer has made one attack
    "when_acts",  # at the bearer's next action of any kind: an attack, an action, a reaction
    "removed",  # only when a rule's effect or the GM removes it
]
ENDINGS: tuple[Ending, ...] = get_args(Ending)
Timed = Literal["start_of_turn", "end_of_turn", "end_of_round"]
TIMED: tuple[Timed, ...] = get_args(Timed)
Occasion = Literal["attack", "action", "reaction", "hit"]
"""What happened to the bearer: it attacked, took another action, reacted, or was hit."""

_ENDS_ON: dict[Occasion, frozenset[str]] = {
    "attack": frozenset({"after_attack", "when_acts"}),
    "action": frozenset({"when_acts"}),
    "reaction": frozenset({"when_acts"}),
    "hit": frozenset({"when_hit"}),
}


@dataclass(frozen=True, slots=True)
class Carries:
    """What a condition carries after its colon: one of ``values`` (the Aim taken: half or
    full), or a weapon's name (``weapon``: the jammed one)."""

    values: tuple[str, ...] = ()
    weapon: bool = False

    def read(self, payload: str) -> str | None:
        """The value ``payload`` carries (one of the values as declared, or the weapon's name),
        or None when this condition does not carry it (the GM's words)."""
        if self.weapon:
            return payload or None
        folded = payload.casefold()
        return next((value for value in self.values if value.casefold() == folded), None)


@dataclass(frozen=True, slots=True)
class ConditionKind:
    """One condition of one game (see the module docstring)."""

    id: str
    game: str
    label: Message
    carries: Carries | None = None
    rounds: int | None = None  # rounds it lasts when the rules give none (None: until it ends)
    ends: tuple[Ending, ...] = ("removed",)
    kept_by: frozenset[str] = frozenset()  # the bearer's actions a ``when_acts`` one outlasts
    restrictions: tuple[Restriction, ...] = ()
    suspended_by: frozenset[str] = frozenset()  # kinds whose presence lifts its restrictions
    fallen: bool = False  # out of the fight: Next passes over its turns, it may do nothing
    out: bool = False  # never a default attacker or target (the fallen are not either)

    @property
    def ticks(self) -> Timed | None:
        """The moment its count of rounds goes down, when the game fixes one (stunned: the end
        of the bearer's turn); None leaves it to the encounter's rule (``turns``)."""
        return next((end for end in TIMED if end in self.ends), None)


@dataclass(frozen=True, slots=True)
class Held:
    """A name a combatant bears read as its game's condition: the kind, and what it carries
    (``"aimed: half"``: aimed, ``"half"``; "" when nothing follows the name)."""

    name: str
    kind: ConditionKind
    value: str = ""


@dataclass(frozen=True, slots=True)
class Note:
    """A name no rule reads: the GM's words (``"behind the pews"``), or a declared condition
    with a payload its kind refuses (``"aimed: at the door"``). ``why`` says which."""

    name: str
    why: Message


def _split(name: str) -> tuple[str, str]:
    head, _, tail = name.partition(":")
    return head.strip(), tail.strip()


@dataclass(frozen=True)
class ConditionBook:
    """The conditions one game declares, by id, in the order the rules weigh them."""

    game: str
    kinds: Mapping[str, ConditionKind] = field(default_factory=dict)

    def of(self, name: str) -> Held | Note:
        """``name`` (as the encounter keeps it) read as a condition of the game, or a note."""
        text = str(name)
        kind = self.kinds.get(text)
        if kind is not None:
            return Held(text, kind)
        key, payload = _split(text)
        kind = self.kinds.get(key)
        if kind is None:
            return Note(text, Message("turns.note.unknown_condition", name=repr(text)))
        if not payload:
            return Held(text, kind)
        value = kind.carries.read(payload) if kind.carries is not None else None
        if value is None:
            why = Message("turns.note.condition_payload", name=repr(text), condition=kind.label)
            return Note(text, why)
        return Held(text, kind, value)

    def held(self, names: Iterable[str]) -> tuple[Held, ...]:
        """The names among ``names`` that are the game's conditions, each once, in order."""
        found = (self.of(name) for name in dict.fromkeys(names))
        return tuple(item for item in found if isinstance(item, Held))

    def notes(self, names: Iterable[str]) -> tuple[Note, ...]:
        """The names among ``names`` that no rule reads, each once, in order."""
        found = (self.of(name) for name in dict.fromkeys(names))
        return tuple(item for item in found if isinstance(item, Note))

    def restrictions(self, names: Iterable[str]) -> tuple[Restriction, ...]:
        """What a bearer of ``names`` may not do, in the order the game declares its kinds:
        the one mapping the permits and the resolvers read."""
        held = self.held(names)
        if not held:
            return ()
        present = {item.kind.id for item in held}
        order = {key: index for index, key in enumerate(self.kinds)}
        found: list[Restriction] = []
        for item in sorted(held, key=lambda one: order[one.kind.id]):
            if item.kind.suspended_by & present:
                continue
            for rule in item.kind.restrictions:
                found.append(rule if rule.condition == item.name else _named(rule, item.name))
        return tuple(found)

    def barring(self, names: Iterable[str], action_type: str, action: str = "") -> frozenset[str]:
        """The ids of the kinds among ``names`` that forbid an action of ``action_type``
        (``action``: its catalog id): the resolvers' view of :meth:`restrictions`."""
        ids = {item.name: item.kind.id for item in self.held(names)}
        return frozenset(
            ids[rule.condition]
            for rule in self.restrictions(names)
            if rule.forbids(action_type, action)
        )

    def ended(self, names: Iterable[str], occasion: Occasion, action: str = "") -> tuple[str, ...]:
        """The names among ``names`` that ``occasion`` ends for their bearer: an attack ends
        those ending ``after_attack`` or ``when_acts``; an action or a reaction those ending
        ``when_acts``, unless ``action`` (its catalog id) is one they are ``kept_by``; a hit
        those ending ``when_hit``."""
        ends = _ENDS_ON[occasion]
        return tuple(
            item.name
            for item in self.held(names)
            if ends & set(item.kind.ends) and action not in item.kind.kept_by
        )

    def ticks(self, name: str) -> Timed | None:
        """When the rounds of ``name`` tick, if its kind fixes it (else the encounter's rule)."""
        found = self.of(name)
        return found.kind.ticks if isinstance(found, Held) else None

    @property
    def fallen(self) -> tuple[str, ...]:
        """The ids of the kinds that take their bearer out of the fight."""
        return tuple(key for key, kind in self.kinds.items() if kind.fallen)

    @property
    def out(self) -> frozenset[str]:
        """The ids of the kinds whose bearer is never a default attacker or target."""
        return frozenset(key for key, kind in self.kinds.items() if kind.fallen or kind.out)


def _named(rule: Restriction, name: str) -> Restriction:
    return replace(rule, condition=name)


def kind(
    game: str,
    key: str,
    *,
    why: str = "",
    label: Message | None = None,
    **fields: Any,
) -> ConditionKind:
    """A game's condition from a table: ``why`` the id of the message its restrictions give
    (every restriction field passed here goes into one :class:`Restriction`), the rest the
    fields of :class:`ConditionKind`; its label the catalogs' ``<game>.condition.<key>``."""
    rule_fields = {
        name: fields.pop(name)
        for name in ("no_actions", "types", "caps", "actions", "no_reactions")
        if name in fields
    }
    restrictions = (Restriction(key, Message(why), **rule_fields),) if why else ()
    slug = key.replace(" ", "_")
    named = label if label is not None else Message.term(f"{game}.condition.{slug}", key)
    return ConditionKind(key, game, named, restrictions=restrictions, **fields)


def declared(game: str, kinds: Iterable[ConditionKind]) -> ConditionBook:
    """A game's book of ``kinds`` (in the order its rules weigh them)."""
    return ConditionBook(game, {item.id: item for item in kinds})


EMPTY = ConditionBook("")


class DeclaredFallen(Sequence[str]):
    """The fallen conditions some books declare, read from them when asked: the ``fallen`` of a
    turn structure the games of those books share (so the pacing and the books never disagree).
    Each book is given as the function that returns it (read when first asked)."""

    def __init__(self, *books: Callable[[], ConditionBook]) -> None:
        self.books = books
        self._kept: tuple[tuple[object, ...], tuple[str, ...]] = ((), ())

    def _names(self) -> tuple[str, ...]:
        found = tuple(read() for read in self.books)  # read again only if a book is replaced
        if self._kept[0] != tuple(map(id, found)):
            names = [name for one in found for name in one.fallen]
            self._kept = (tuple(map(id, found)), tuple(dict.fromkeys(names)))
        return self._kept[1]

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...
    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return self._names()[index]

    def __len__(self) -> int:
        return len(self._names())

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __repr__(self) -> str:
        return f"DeclaredFallen({len(self.books)} books)"


def book(game: str) -> ConditionBook:
    """The conditions ``game`` declares: its rules' ``conditions`` (none for a game whose rules
    declare none: every name it bears is then a note)."""
    return entry(game).book


def fallen(game: str) -> tuple[str, ...]:
    """The conditions that take a combatant of ``game`` out of the fight: those it declares,
    and those its turn structure names (a game that declares no conditions)."""
    return entry(game).fallen


def out_of_the_fight(games: Iterable[str] | None = None) -> frozenset[str]:
    """The names that make a combatant never a default attacker or target, in ``games``
    (every registered game when None)."""
    found: frozenset[str] = frozenset()
    for one in entries() if games is None else map(entry, games):
        found |= one.out_of_the_fight
    return found


__all__ = [
    "EMPTY",
    "ENDINGS",
    "TIMED",
    "Carries",
    "ConditionBook",
    "ConditionKind",
    "DeclaredFallen",
    "Ending",
    "Held",
    "Note",
    "Occasion",
    "Timed",
    "book",
    "declared",
    "fallen",
    "kind",
    "out_of_the_fight",
]
