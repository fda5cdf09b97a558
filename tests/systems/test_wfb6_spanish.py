"""WFB 6e in Spanish: every text of a representative set of shots (targeting around a lone
character, a large target, hits shared in a small unit, left-over hits, "Look out, Sir!"
passed and failed, templates and cannon, saves, refusals) renders with no English left, and
the catalogs hold every message and every term of the data files."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gmkit.dice import EnteredDice
from gmkit.errors import GmkitError
from gmkit.messages import Message, catalogs, problems, render
from gmkit.messages._check import english_words
from gmkit.sheets._wfb6 import WFB6Character, troop_types
from gmkit.systems.base import AttackRequest, AttackResult, Step
from gmkit.systems.wfb6 import (
    Situation,
    UnitOnTable,
    allocate_hits,
    look_out_sir,
    may_shoot_at,
    may_target,
    resolve_attack,
    shot_modifiers,
)
from gmkit.systems.wfb6._data import shooting_rules, targeting_rules
from gmkit.systems.wfb6._offers import OFFERS

from ..shared.wfb6 import BOW, CROSSBOW, HANDGUN, ROCK, bretonnian

BALL = {"name": "iron ball", "range_cm": 150, "strength": 10, "special": ["cannon"]}
FIREBALL = {
    "name": "fireball",
    "range_cm": 60,
    "strength": 4,
    "shots": 7,
    "special": ["magic missile"],
}
CURSE = {"name": "curse", "range_cm": 60, "strength": 4, "special": ["spell"]}
SHOOTER = WFB6Character.build(
    name="Grik",
    side="Goblins",
    role="rank and file",
    unit="Skulkers",
    BS=3,
    weapons=[BOW, HANDGUN, CROSSBOW, ROCK, BALL, FIREBALL, CURSE],
)
CLUMSY = SHOOTER.edit(name="Snotling", BS=1)
PRIEST = WFB6Character.build(
    name="Anselm", side="Empire", T=4, armour=[{"name": "heavy armour", "save": 5}]
)
SWORDSMAN = WFB6Character.build(
    name="Swordsman",
    side="Empire",
    role="rank and file",
    unit="Swordsmen",
    armour=[{"name": "light armour", "save": 6}, {"name": "shield", "improves": 1}],
)
CAPTAIN = WFB6Character.build(
    name="Captain Hals", side="Empire", unit="Swordsmen", T=4, armour=[{"name": "plate", "save": 4}]
)
SWORDSMEN = UnitOnTable.of([SWORDSMAN, CAPTAIN], rank_and_file=15, shooter_distance_cm=30)
SCREEN = UnitOnTable(
    "Swordsmen", "Empire", rank_and_file=15, distance_cm=10, shooter_distance_cm=30
)
DRAGON = WFB6Character.build(name="Elector", side="Empire", troop_type="monster", T=6)
KNIGHT = bretonnian(
    armour=[{"name": "heavy armour", "save": 5}, {"name": "shield", "improves": 1}],
)
LORD = KNIGHT.edit(name="Lord", role="character", T=4, armour=[{"name": "plate", "save": 2}])
PALADIN = LORD.edit(name="Paladin", T=3)
KNIGHTS = UnitOnTable.of([KNIGHT, LORD, PALADIN], rank_and_file=3, shooter_distance_cm=40)
BRANDT = SWORDSMAN.edit(name="Brandt", role="champion")
FEW = UnitOnTable.of([SWORDSMAN, BRANDT], rank_and_file=4)
NAMES = (
    "Grik",
    "Snotling",
    "Skulkers",
    "Anselm",
    "Swordsmen",
    "Swordsman",
    "Captain Hals",
    "Elector",
    "Knights",
    "Knight",
    "Lord",
    "Paladin",
    "Brandt",
    "Boyz",
    "Trolls",
    "Gone",
    "Halberdiers",
    "charge",  # an action's id, as the panel asks it
    *(weapon["name"] for weapon in (BOW, HANDGUN, CROSSBOW, ROCK, BALL, FIREBALL, CURSE)),
    "sling",
    "shooting.yaml",  # a file's name
    "shooter_distance_cm",  # a field's name
)


HALBERDIERS = UnitOnTable("Halberdiers", "Empire", rank_and_file=9, distance_cm=2)


def shoot(weapon, target, dice, situation=None, shooter=SHOOTER, **request) -> AttackResult:
    options = request.pop("options", {})
    if situation is not None:
        options["situation"] = situation
    built = AttackRequest(shooter, weapon, target, options=options, **request)
    return resolve_attack(built, EnteredDice(dice))


def shots() -> dict[str, AttackResult]:
    """Representative shots, every die entered."""
    near = Situation((SCREEN,), distance_cm=28)
    far = Situation((SCREEN,), distance_cm=35)
    return {
        "closest lone character": shoot("bow", PRIEST, [6, 6, 1], near),
        "screened lone character": shoot("bow", PRIEST, [], far),
        "allowed by the GM": shoot("bow", PRIEST, [6, 5, 6], far, options={"gm_allows_shot": True}),
        "large target": shoot("bow", DRAGON, [3, 6], distance=20),
        "shared in a small unit": shoot(
            "fireball", KNIGHT, [4, 1, 3, 2, 4, 6, 1, 1, 4, 4, 3, 2, 5, 6], Situation((KNIGHTS,))
        ),
        "left-over at random, twice": shoot(
            "fireball",
            KNIGHT,
            [4, 4, *[3] * 7, *[4] * 7],
            Situation((KNIGHTS,)),
            options={"excess_distinct": False},
        ),
        "look out sir passed": shoot("rock", CAPTAIN, [2, 5], Situation((SWORDSMEN,))),
        "look out sir failed": shoot("rock", CAPTAIN, [1, 5, 6], Situation((SWORDSMEN,))),
        "look out sir for a champion": shoot("rock", BRANDT, [1, 5], Situation((FEW,))),
        "cannon on a lone character": shoot("iron ball", PRIEST, [4]),
        "armour piercing, no save": shoot("handgun", SWORDSMAN, [4, 3], distance=20),
        "a save rolled": shoot("bow", PRIEST, [5, 5, 5], distance=10),
        "the 7+ chart": shoot(
            "bow",
            SWORDSMAN,
            [6, 5, 1],
            shooter=CLUMSY,
            distance=10,
            circumstances={"soft_cover": True},
        ),
        "out of range": shoot("bow", SWORDSMAN, [], distance=61.5),
        "moved": shoot("crossbow", SWORDSMAN, [], distance=20, circumstances={"moved": True}),
        "cover and the GM's modifier": shoot(
            "bow", SWORDSMAN, [6, 2], distance=40, circumstances={"hard_cover": True, "gm": -1}
        ),
        "a character in a big unit": shoot("bow", CAPTAIN, [], Situation((SWORDSMEN,))),
        "a spell on a lone character": shoot("curse", PRIEST, [4, 6], far),
        "out of sight": shoot("bow", PRIEST, [], Situation(in_sight=False)),
    }


def result_texts(result: AttackResult) -> Iterator[str]:
    yield render(result.summary, "es")
    for step in result.steps:
        yield from step_texts(step)
    for effect in result.effects:
        yield render(effect.note, "es")


def step_texts(step: Step) -> Iterator[str]:
    yield step.render("es")
    yield from (modifier.render("es") for modifier in step.modifiers)
    yield from (render(roll.purpose, "es") for roll in step.rolls)


def refusals() -> Iterator[GmkitError]:
    weapon = SHOOTER.weapons[0]
    attempts = [
        lambda: shoot("sling", PRIEST, []),
        lambda: shoot("bow", CAPTAIN, [], Situation()),
        lambda: shoot("bow", PRIEST, [], Situation((SCREEN,))),
        lambda: shoot("bow", PRIEST, [], Situation((HALBERDIERS,), distance_cm=40)),
        lambda: shot_modifiers(weapon, 10, {"fog": True}),
        lambda: shot_modifiers(weapon, 10, {"moved": "yes"}),
        lambda: may_target(PRIEST, Situation(), "lightning"),
        lambda: UnitOnTable("X", "Empire", rank_and_file=-1),
        lambda: UnitOnTable("X", "Empire", troop_type="dragon"),
        lambda: UnitOnTable("X", "Empire", characters=(SWORDSMAN,)),
        lambda: UnitOnTable.of([]),
        lambda: Situation(distance_cm=-1),
        lambda: allocate_hits(UnitOnTable("Gone", "Empire"), 1, EnteredDice()),
        lambda: allocate_hits(KNIGHTS, -1, EnteredDice()),
        lambda: allocate_hits(KNIGHTS, 7, EnteredDice()),  # a die is needed
        lambda: shoot("rock", CAPTAIN, [], Situation((SWORDSMEN,))),  # "Look out, Sir!" die
        lambda: resolve_attack(AttackRequest(SHOOTER, "bow", PRIEST), EnteredDice()),
        lambda: may_shoot_at(SHOOTER, "bow", UnitOnTable("Boyz", "Orcs", 10)),
    ]
    for attempt in attempts:
        with pytest.raises(GmkitError) as refused:
            attempt()
        yield refused.value


def rulings() -> Iterator[Step]:
    boyz = UnitOnTable("Boyz", "Orcs", rank_and_file=10, shooter_distance_cm=50)
    trolls = UnitOnTable("Trolls", "Orcs", rank_and_file=3, shooter_distance_cm=90)
    archer = PRIEST.edit(weapons=[{"name": "long bow", "range_cm": 75, "strength": 3}])
    found = [
        may_shoot_at(archer, "long bow", boyz),
        may_shoot_at(archer, "long bow", boyz, primary=trolls),
        may_shoot_at(archer, "long bow", trolls, primary=boyz),
        may_target(PRIEST, Situation(engaged=True)),
        may_target(CAPTAIN, Situation((UnitOnTable.of([SWORDSMAN, CAPTAIN], rank_and_file=3),))),
        may_target(PRIEST, Situation((SCREEN,), distance_cm=40, reading="battlefield")),
    ]
    for ruling in found:
        yield from ruling.steps
    small = UnitOnTable("Swordsmen", "Empire", rank_and_file=4, characters=(CAPTAIN,))
    yield from look_out_sir(CAPTAIN, small, EnteredDice(), "template").steps
    yield from look_out_sir(CAPTAIN, SWORDSMEN, EnteredDice(), "missile").steps
    yield from look_out_sir(SWORDSMAN, SWORDSMEN, EnteredDice(), "template").steps
    yield from look_out_sir(PRIEST, None, EnteredDice(), "template").steps
    yield from allocate_hits(KNIGHTS, 2, EnteredDice([5, 2])).steps


def test_every_text_of_the_shots_reads_in_spanish():
    found = {}
    for name, result in shots().items():
        text = "\n".join(result_texts(result))
        found[name] = english_words(text, NAMES)
    assert found == {name: [] for name in found}


def test_refusals_rulings_and_offers_read_in_spanish():
    texts = [error.render("es") for error in refusals()]
    texts += [text for step in rulings() for text in step_texts(step)]
    for choice in OFFERS.circumstances("shoot"):
        texts += [render(choice.label, "es"), render(choice.help, "es")]
    texts.append(render(OFFERS.refusal(SHOOTER, "bow", "missile", "charge", {}), "es"))
    ids = (*(e.id for e in shooting_rules().to_hit), *targeting_rules().attack_kinds)  # typed
    names = (*NAMES, *ids)
    assert [
        (text, english_words(text, names)) for text in texts if english_words(text, names)
    ] == []


def test_the_spanish_of_a_shot_in_the_seeds_words():
    result = shots()["closest lone character"]
    assert [step.render("es") for step in result.steps] == [
        "Objetivo Anselm: puede ser designado como objetivo (protegido por Swordsmen, pero es el "
        "objetivo legal más cercano: Anselm a 28 cm, Swordsmen a 30 cm)",
        "Para impactar: 1 impacto de 1 disparo (HP 3 necesita 5+ [Personaje de infantería "
        "solitario -1]: 6 contra 5+: éxito)",
        "Para herir a Anselm: 1 herida de 1 impacto (F 3 contra R 4 necesita 5+: 6 contra 5+: "
        "éxito)",
        "Salvación por armadura de Anselm: 0 de 1 salvada (5+ [sin modificadores]: un 1 siempre "
        "falla)",
    ]
    assert render(result.summary, "es") == "1 impacto; heridas no salvadas: Anselm 1"
    passed = shots()["look out sir passed"]
    assert passed.steps[2].render("es") == (
        "¡Cuidado, señor! para Captain Hals: esquivado: una miniatura de tropa de Swordsmen "
        "recibe el impacto (15 miniaturas de su tamaño o mayor en Swordsmen; 2 contra 2+: "
        "éxito; el impacto va a la tropa aunque supere el número de miniaturas de la unidad)"
    )
    shared = shots()["shared in a small unit"]
    assert [step.render("es") for step in shared.steps[1:4]] == [
        "Para impactar: 7 impactos automáticos (un ataque de Proyectil Mágico)",
        "Impactos en Knights: 1 en cada miniatura, 2 sobrantes (3 miniaturas de tropa (< 5): 7 "
        "impactos repartidos entre 5 miniaturas, 1 a cada una, 2 al azar entre todas)",
        "Impacto sobrante 1: en Lord (d5=4 entre 1=Knights (tropa 1), 2=Knights (tropa 2), "
        "3=Knights (tropa 3), 4=Lord, 5=Paladin)",
    ]
    assert [render(e.note, "es") for e in shared.effects] == [
        "Knights (tropa 1)",
        "Knights (tropa 2)",
        "",
    ]
    far = shots()["out of range"]
    assert far.steps[-1].render("es") == (
        "Para impactar: fuera de alcance: todos los disparos fallan (61,5 cm supera los 60 cm de "
        "alcance de arco)"
    )


def test_the_english_is_the_rules_own_prose():
    result = shots()["shared in a small unit"]
    assert str(result.summary) == (
        "7 hits; unsaved wounds: Knights (rank and file 1) 1, Knights (rank and file 2) 1, Lord 1"
    )
    assert str(result.steps[2]) == (
        "Hits on Knights: 1 on each model, 2 left over (3 rank-and-file models (< 5): 7 hits "
        "shared among 5 models, 1 each, 2 at random among all of them)"
    )


# --- the catalogs --------------------------------------------------------------------------


def test_the_wfb6_catalogs_have_no_problems():
    assert [p for p in problems() if p.startswith("wfb6.")] == []


def test_every_term_of_the_data_files_is_in_the_catalogs_with_its_english():
    found = catalogs()
    english = found.english
    spanish = found.translations["es"]
    for entry in shooting_rules().to_hit:
        assert english(f"wfb6.modifier.{entry.id}") == entry.name
    for kind in targeting_rules().attack_kinds:
        assert english(f"wfb6.attack_kind.{kind}") == kind
    for rule in shooting_rules().save_specials:
        assert english(f"wfb6.save_special.{'_'.join(rule.split())}") == rule
    for kind in troop_types().values():
        assert english(f"wfb6.troop_type.{kind.id}") == kind.name
        assert spanish[f"wfb6.troop_type.{kind.id}"].translated == kind.name_es
    terms = [Message.term(f"wfb6.modifier.{e.id}", e.name) for e in shooting_rules().to_hit]
    assert [render(term, "es") for term in terms] == [
        "Largo alcance",
        "Mover y disparar",
        "Aguantar y disparar",
        "Cobertura ligera",
        "Cobertura pesada",
        "Disparos múltiples",
        "Personaje de infantería solitario",
        "Objetivo Grande",
        "Modificador del DJ",
    ]


def test_a_gm_renamed_term_reads_as_the_gm_wrote_it():
    renamed = Message.term("wfb6.modifier.soft_cover", "Hedges")
    assert (render(renamed, "en"), render(renamed, "es")) == ("Hedges", "Hedges")
