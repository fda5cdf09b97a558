"""Necromunda as data: the typed options, the standings, and every text in Spanish.

The shots are resolved with entered dice (each die named in a comment); every text a GM sees
(steps, summaries, effect notes, dice purposes, refusals, movement, hiding, recovery, the turn,
the panel's offers) is rendered in Spanish and must hold no English rule word.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from gmkit.dice import EnteredDice
from gmkit.errors import GmkitError, RulesError
from gmkit.games import game
from gmkit.messages import Message, catalogs, problems, render
from gmkit.messages._check import english_words
from gmkit.odds import odds
from gmkit.systems._tables import table
from gmkit.systems.base import AttackRequest, AttackResult, Standing, Step
from gmkit.systems.necromunda import (
    SYSTEM,
    FighterState,
    Leg,
    NecromundaOptions,
    Obstacle,
    OtherTarget,
    charge,
    hide,
    hide_checks,
    hiding_lost,
    move_order_check,
    plan_move,
    recovery_roll,
    start,
)
from gmkit.systems.necromunda._offers import OFFERS
from gmkit.systems.options import offered_options

from ..shared.necromunda import GANGER, GRENADE, TARGET, fighter, shot

JUVE = fighter("Jeb", fighter_type="juve", BS=2, weapons=["laspistol", "flamer"])
NOVICE = fighter("Rat", BS=1, weapons=["laspistol"])
THROWER = fighter("Gren", weapons=[{**GRENADE, "ammo_roll": "auto"}])
SARGE = fighter("Sarge", W=2)
GOLIATH = fighter("Goliath", armour={"name": "carapace", "save": 4})
FRAIL = fighter("Frail", WS=1, BS=1)
BIG = fighter("Ogg", W=3)
SCAVVY = fighter("Mange", I=3)
QUICK = fighter("Kael", I=5)

NAMES = (
    *(f.name for f in (JUVE, GANGER, NOVICE, THROWER, TARGET, SARGE, GOLIATH, FRAIL, BIG)),
    *(f.name for f in (SCAVVY, QUICK)),
    "laspistol",
    "flamer",
    "autogun",
    "boltgun",
    "lascannon",
    "krak grenade",
    "A",
)


def spanish(texts: Iterable[Any]) -> str:
    """Every text rendered in Spanish, one a line."""
    return "\n".join(render(text, "es") if not isinstance(text, str) else text for text in texts)


def shown(result: AttackResult) -> list[Any]:
    """Everything a GM reads of a result: the steps, the summary, the notes, the dice."""
    found: list[Any] = [result.explain("es"), result.summary]
    found += [effect.note for effect in result.effects if effect.note]
    found += [die.purpose for die in result.rolls]
    found += [modifier.source for step in result.steps for modifier in step.modifiers]
    return found


def no_english(texts: Iterable[Any]) -> str:
    text = spanish(texts)
    assert english_words(text, NAMES) == [], text
    return text


def steps_es(steps: Iterable[Step]) -> list[str]:
    return [step.render("es") for step in steps]


# --- the options ------------------------------------------------------------------------------


def test_the_registry_declares_the_options_model():
    assert game("necromunda").options is NecromundaOptions
    assert isinstance(shot().options, NecromundaOptions)
    offered = [info.name for info in offered_options(NecromundaOptions)]
    assert offered == [
        "gm_allows_shot",
        "in_arc",
        "in_sight",
        "target_is_nearest_or_easier",
        "sight_in_doubt",
        "disputed",
        "ammo_auto",
        "armour_saves",
    ]
    assert shot().options.in_arc is True
    assert shot(in_sight=False).options.in_sight is False


def test_an_unknown_option_is_refused_naming_the_nearest_and_the_valid_ones():
    with pytest.raises(RulesError) as refused:
        shot(gm_allow_shot=True)
    text = str(refused.value)
    assert "option 'gm_allow_shot'" in text
    assert "unknown option" in text
    assert "did you mean gm_allows_shot?" in text
    assert "valid options: gm_allows_shot, in_arc, in_sight" in text
    assert "target_state, wounds_left" in text
    assert isinstance(refused.value.message, Message)
    assert "opción desconocida" in refused.value.render("es")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"in_arc": "yes"}, "option 'in_arc': must be true or false \\(got 'yes'\\)"),
        ({"gm_allows_shot": 1}, "option 'gm_allows_shot': must be true or false"),
        ({"ammo_auto": "maybe"}, "option 'ammo_auto': must be one of fail, pass"),
        ({"wounds_left": -1}, "option 'wounds_left': must be at least 0"),
        ({"wounds_left": 1.5}, "option 'wounds_left': must be a whole number"),
        ({"target_state": {"down": True}}, "option 'target_state'"),
        ({"other_targets": [{"name": "A", "distance": 5}]}, "option 'other_targets'"),
    ],
)
def test_an_option_of_the_wrong_type_is_refused(options, message):
    with pytest.raises(RulesError, match=message):
        shot(**options)


def test_changed_options_keep_the_states_and_targets_as_values():
    state = FighterState(wounds_left=0, down=True)
    others = (OtherTarget("A", 5, {"cover": True}),)
    request = shot(target_state=state, other_targets=others)
    changed = request.with_options(gm_allows_shot=True)
    assert changed.options.target_state == state
    assert changed.options.other_targets == others
    assert changed.options.gm_allows_shot is True
    assert "gm_allows_shot" in changed.options
    assert "in_arc" not in changed.options


# --- the standings ----------------------------------------------------------------------------


def test_the_states_come_from_the_standings():
    request = AttackRequest(
        GANGER,
        "autogun",
        SARGE,
        distance=10,
        target_standing=Standing.of(conditions=["pinned"], counters={"damage": 1}),
    )
    # 5 hits (3+), 4 wounds (4+): Sarge had 1 wound left, the injury roll 1 a flesh wound
    result = SYSTEM.resolve_attack(request, EnteredDice([5, 4, 1]))
    assert result.request.options.target_state == FighterState(wounds_left=1, pinned=True)
    assert str(result.summary) == "Mordecai hits Sarge: flesh wound"
    down = AttackRequest(
        GANGER, "autogun", TARGET, distance=10, target_standing=Standing.of(conditions=["down"])
    )
    result = SYSTEM.resolve_attack(down, EnteredDice([5, 1]))
    assert str(result.steps[-2]) == "Pinned: not pinned: already down"
    pinned = AttackRequest(
        GANGER, "autogun", TARGET, distance=10, attacker_standing=Standing.of(["pinned"])
    )
    with pytest.raises(RulesError, match="pinned: a pinned fighter does not shoot"):
        SYSTEM.resolve_attack(pinned, EnteredDice([5]))


def test_a_state_given_in_the_options_wins_over_the_standing():
    request = AttackRequest(
        GANGER,
        "autogun",
        TARGET,
        distance=10,
        options={"target_state": FighterState()},
        target_standing=Standing.of(["down"]),
    )
    result = SYSTEM.resolve_attack(request, EnteredDice([5, 1]))
    assert str(result.steps[-2]) == "Pinned: Tom is pinned (every hit pins)"


def test_the_odds_read_the_standings_as_the_resolver_does():
    down = AttackRequest(
        GANGER, "autogun", TARGET, distance=10, target_standing=Standing.of(conditions=["down"])
    )
    assert odds(down).p("pinned by the hit") == 0  # already down: a hit does not pin
    assert odds(down).p("went down") == 0
    fresh = AttackRequest(GANGER, "autogun", TARGET, distance=10)
    assert odds(fresh).p("pinned by the hit") == odds(fresh).hit > 0
    pinned = AttackRequest(
        GANGER, "autogun", TARGET, distance=10, attacker_standing=Standing.of(["pinned"])
    )
    with pytest.raises(RulesError, match="a pinned fighter does not shoot"):
        odds(pinned)
    allowed = odds(pinned.with_options(gm_allows_shot=True))
    assert allowed.notes == ("allowed by the GM: pinned: a pinned fighter does not shoot",)


def test_a_jammed_weapon_is_read_from_the_shooters_standing():
    jammed = Standing.of(["jammed: autogun"])
    request = AttackRequest(GANGER, "autogun", TARGET, distance=10, attacker_standing=jammed)
    with pytest.raises(RulesError) as refused:
        SYSTEM.resolve_attack(request, EnteredDice([5]))
    assert str(refused.value) == (
        "Mordecai may not shoot Tom: ammunition: autogun failed its ammo roll: not usable again "
        "this battle"
    )
    assert refused.value.render("es") == (
        "Mordecai no puede disparar a Tom: munición: rifle automático falló su chequeo de "
        "munición: no puede volver a usarse en esta batalla"
    )


# --- shots in Spanish -------------------------------------------------------------------------


SHOTS = [
    # the seed's example: a 6, then 4 (7+); ammo 5 (2+) passes; wound 3 (4+) fails
    (shot(JUVE, "laspistol", distance=12, circumstances={"partial_cover": True}), [6, 4, 5, 3]),
    (shot(JUVE, "laspistol", distance=12, circumstances={"cover": True}), [6, 4, 2]),  # 8+
    (shot(), [2]),  # a miss (3+)
    (shot(), [1]),  # a natural 1
    (shot(), [6, 3, 1]),  # a 6 hits; ammo 3 (4+) fails; wound 1
    (shot(JUVE, "laspistol", distance=17), [6, 2]),  # out of range; ammo 2 passes
    (
        shot(NOVICE, "laspistol", distance=12, circumstances={"cover": True, "fast_moving": 12}),
        [6, 1],
    ),
    (shot(JUVE, "flamer", distance=None), [3, 6]),  # template; wound 3; injury 6
    (shot(THROWER, "krak grenade", distance=3, ammo_auto="pass"), [6, 1]),
    (shot(THROWER, "krak grenade", distance=3, ammo_auto="fail"), [6, 1]),
    (shot(attacker_state=FighterState(pinned=True), gm_allows_shot=True), [5, 5, 3]),
    (shot(in_arc=False, in_sight=False, gm_allows_shot=True), [5, 1]),
    (shot(target_is_nearest_or_easier=False, gm_allows_shot=True), [2]),
    (shot(other_targets=(OtherTarget("A", 5),), gm_allows_shot=True), [2]),
    (shot(attacker_state=FighterState(hidden=True, moved="run"), gm_allows_shot=True), [2]),
    (shot(distance=3, target_state=FighterState(hidden=True)), [2]),  # spotted
    (shot(distance=6, target_state=FighterState(hidden=True), gm_allows_shot=True), [2]),
    (shot(), [5, 4, 1]),  # flesh wound
    (shot(), [5, 4, 3]),  # down
    (shot(), [5, 4, 6]),  # out of action
    (shot(target=SARGE), [5, 5]),  # 1 wound left
    (shot(target=SARGE, wounds_left=1), [5, 5, 2]),  # the last wound: down
    (shot(target_state=FighterState(wounds_left=0, down=True)), [5, 5, 3]),  # down ignored
    (shot(weapon="boltgun", target=GOLIATH, armour_saves=True), [5, 5, 4, 3]),  # save fails
    (shot(weapon="boltgun", target=GOLIATH, armour_saves=True), [5, 5, 5]),  # saved
    (shot(weapon="lascannon", target=GOLIATH, armour_saves=True), [5, 2, 1, 6]),  # no save
    (shot(weapon="lascannon", distance=30), [4, 2, 3, 2, 4, 1]),  # 3 wounds, high impact
    (shot(weapon="lascannon", target=BIG, distance=30), [4, 2, 6, 5]),  # 6 wounds: out, 3 more
    (shot(weapon="lascannon", distance=10), [4, 6, 1, 5]),  # high impact: out on a 5
    (shot(JUVE, "flamer", FRAIL, distance=None), [3, 1]),  # a flesh wound bleeds out
    (shot(target=fighter("Brute", T=7)), [4]),  # no wound possible
]


@pytest.mark.parametrize(("request_", "dice"), SHOTS)
def test_every_shot_reads_in_spanish(request_, dice):
    source = EnteredDice(dice)
    result = SYSTEM.resolve_attack(request_, source)
    assert source.pending == ()
    no_english(shown(result))
    assert result.explain("es") != result.explain()


def test_the_seeds_example_in_spanish():
    request = shot(JUVE, "laspistol", distance=12, circumstances={"partial_cover": True})
    result = SYSTEM.resolve_attack(request, EnteredDice([6, 4, 5, 3]))
    assert steps_es(result.steps) == [
        'Alcance: largo alcance (12") (pistola láser)',  # the seed's own name for it
        "Para impactar: impacta (7 - HP 2 = 5; Parcialmente a cubierto -1, largo alcance "
        "(pistola láser) -1; 6, luego 4 contra 4+ para 7+: éxito)",
        "Aturdido: Tom queda aturdido (todo impacto aturde)",
        "Chequeo de munición: superado (5 contra 2+: éxito)",
        "Para herir: no hiere (F 3 contra R 3; 3 contra 4+: fallo)",
    ]
    assert render(result.summary, "es") == "Jeb impacta a Tom: no hiere"
    assert render(result.effects[0].note, "es") == "impactado por un disparo: boca arriba"
    assert [render(d.purpose, "es") for d in result.rolls] == [
        "para impactar",
        "para impactar (tras el 6)",
        "chequeo de munición",
        "para herir",
    ]


def test_several_wounds_and_their_injury_rolls_in_spanish():
    request = shot(weapon="lascannon", distance=30)
    result = SYSTEM.resolve_attack(request, EnteredDice([4, 2, 3, 2, 4, 1]))
    assert steps_es(result.steps)[-5:] == [
        "Heridas causadas: 3 (heridas: D6 = D6 (3) = 3)",
        "Heridas: 3 heridas: quedan 0 de 1 (3 tiradas de heridas)",
        "Tirada de heridas 1: neutralizado (alto impacto: 5-6 fuera de combate)",
        "Tirada de heridas 2: neutralizado, se ignora: ya estaba neutralizado (alto impacto: "
        "5-6 fuera de combate)",
        "Tirada de heridas 3: rasguño (alto impacto: 5-6 fuera de combate)",
    ]
    assert render(result.summary, "es") == "Mordecai impacta a Tom: neutralizado, rasguño"
    notes = [render(e.note, "es") for e in result.effects if e.kind == "injury"]
    assert notes == ["boca abajo", "-1 HA y HP hasta el final de la batalla (1 en total)"]


def test_wounds_left_and_saves_in_spanish():
    result = SYSTEM.resolve_attack(shot(target=SARGE), EnteredDice([5, 5]))
    assert render(result.summary, "es") == "Mordecai impacta a Sarge: le queda 1 herida"
    assert str(result.summary) == "Mordecai hits Sarge: 1 wound left"
    request = shot(weapon="boltgun", target=GOLIATH, armour_saves=True)
    result = SYSTEM.resolve_attack(request, EnteredDice([5, 5, 5]))
    assert result.steps[-1].render("es") == (
        "Salvación por armadura: salvado (salvación 4+, modificador del arma a la salvación -1; "
        "5 contra 5+: éxito)"
    )
    assert render(result.summary, "es") == "Mordecai impacta a Goliath: salvado"


@pytest.mark.parametrize(
    ("request_", "english", "spanish_text"),
    [
        (
            shot(attacker_state=FighterState(pinned=True)),
            "Mordecai may not shoot Tom: pinned: a pinned fighter does not shoot",
            "Mordecai no puede disparar a Tom: aturdido: un guerrero aturdido no dispara",
        ),
        (
            shot(other_targets=(OtherTarget("A", 5),)),
            "Mordecai may not shoot Tom: target choice: A: nearer and no harder to hit",
            "Mordecai no puede disparar a Tom: elección del objetivo: A: más próximo y no más "
            "difícil de impactar",
        ),
        (
            shot(distance=4, target_state=FighterState(hidden=True)),
            "Mordecai may not shoot Tom: hidden target: hidden, and beyond Mordecai's spotting "
            'range of 3"',
            "Mordecai no puede disparar a Tom: objetivo oculto: oculto, y más allá de la "
            'distancia de detección de Mordecai, 3"',
        ),
        (
            shot(target_state=FighterState(out_of_action=True), gm_allows_shot=True),
            "Mordecai may not shoot Tom: target on the table: Tom is gone",
            "Mordecai no puede disparar a Tom: objetivo en la mesa: Tom ya no está en juego",
        ),
        (
            shot(weapon="plasma gun"),
            "weapon: Mordecai carries no 'plasma gun' (carries autogun, boltgun, lascannon)",
            "arma: Mordecai no lleva 'plasma gun' (lleva autogun, boltgun, lascannon)",
        ),
        (
            shot(distance=None),
            "distance: a shot needs the distance to the target in inches",
            "distancia: un disparo necesita la distancia al objetivo en pulgadas",
        ),
    ],
)
def test_refused_shots_in_both_languages(request_, english, spanish_text):
    with pytest.raises(RulesError) as refused:
        SYSTEM.resolve_attack(request_, EnteredDice([4]))
    assert str(refused.value) == english
    assert refused.value.render("es") == spanish_text


@pytest.mark.parametrize(
    ("circumstances", "english"),
    [
        ({"darkness": True}, "circumstances: 'darkness' is not known; known: charging,"),
        ({"cover": 2}, "circumstances: 'cover' takes true or false (got 2)"),
        ({"cover": True, "partial_cover": True}, "cannot both apply"),
    ],
)
def test_refused_circumstances_in_both_languages(circumstances, english):
    with pytest.raises(GmkitError) as refused:
        SYSTEM.resolve_attack(shot(circumstances=circumstances), EnteredDice([4]))
    assert english in str(refused.value)
    assert refused.value.render("es").startswith("circunstancias: ")


# --- movement, hiding, recovery, the turn ------------------------------------------------------


def test_movement_reads_in_spanish():
    down = FighterState(down=True, wounds_left=0)
    plans = [
        plan_move(TARGET, "move", [Leg(1.5, "difficult")]),
        plan_move(TARGET, "move", [Leg(1, "very_difficult")]),
        plan_move(TARGET, "move", [Leg(1), Leg(0.5, "impassable")]),
        plan_move(TARGET, "move", [Leg(2)], [Obstacle(1.5)]),
        plan_move(TARGET, "move", [Leg(1)], [Obstacle(3)]),
        plan_move(TARGET, "run", [Leg(3), Leg(5)], run_stop_at=5),
        plan_move(TARGET, "crawl", [Leg(2)], state=down),
        plan_move(TARGET, "move", [Leg(2)], state=down),
        plan_move(TARGET, "crawl", [Leg(1)]),
        plan_move(TARGET, "compulsory", [Leg(1)], state=FighterState(pinned=True)),
        plan_move(TARGET, "move", [Leg(1)], state=FighterState(out_of_action=True)),
    ]
    charges = [
        charge(TARGET, "Mange", [Leg(6), Leg(1, "difficult")]),
        charge(TARGET, "Mange", [Leg(7)], across_low_wall=True),
        charge(TARGET, "Mange", [Leg(9)]),
    ]
    texts: list[Any] = [step for plan in plans for step in steps_es(plan.steps)]
    texts += [effect.note for plan in plans for effect in plan.effects]
    texts += [step for outcome in charges for step in steps_es(outcome.steps)]
    texts += [effect.note for outcome in charges for effect in outcome.effects]
    no_english(texts)
    assert steps_es(plans[0].steps) == [
        'Movimiento: movimiento: hasta 4" (M 4)',
        'Recorrido: cuesta 3" de 4" (1,5" de terreno difícil cuestan x2)',
    ]
    assert steps_es(plans[7].steps)[-1] == (
        'Denegado: neutralizado (un guerrero neutralizado solo puede arrastrarse 2")'
    )
    assert steps_es(charges[2].steps)[-1] == (
        'Carga: fallida (mueve 8" hacia Mange todo lo que puede; ninguna otra acción este turno)'
    )
    refusals = []
    for attempt in (
        lambda: charge(TARGET, "Mange", [Leg(3)], state=down),
        lambda: charge(TARGET, "Mange", [Leg(1)], state=FighterState(engaged=True)),
        lambda: plan_move(TARGET, "move", [Leg(1)], [Obstacle(0.5, 2)]),
        lambda: plan_move(TARGET, "move", [Leg(1, "lava")]),
    ):
        with pytest.raises(RulesError) as refused:
            attempt()
        refusals.append(refused.value.message)
    assert render(refusals[0], "es") == (
        'Tom no puede cargar: un guerrero neutralizado solo puede arrastrarse 2"'
    )
    no_english(refusals[:3])


def test_hiding_reads_in_spanish():
    steps: list[Any] = []
    notes: list[Any] = []
    for step, effects in (
        hide(TARGET, FighterState(), True, [(SCAVVY, 4)]),
        hide(TARGET, FighterState(moved="run"), False, [(SCAVVY, 2), (QUICK, 6)]),
        hide(TARGET, FighterState(engaged=True, out_of_action=True), True),
        hiding_lost(TARGET),
        hiding_lost(TARGET, shot=True, seen_moving=True, enemy_view=True),
        hiding_lost(TARGET, spotters=[(QUICK, 4.5)]),
    ):
        steps.append(step.render("es"))
        notes += [effect.note for effect in effects if effect.note]
    checks = [check.message for check in hide_checks(FighterState(), True)]
    text = no_english([*steps, *notes, *checks])
    assert steps[0] == "Ocultarse: oculto (mientras esté oculto no se le puede ver ni disparar)"
    assert steps[1] == (
        "Ocultarse: no puede ocultarse (debe acabar su movimiento donde una persona pudiera "
        "ocultarse; no puede ocultarse en un turno en que corrió o cargó; dentro de la "
        "distancia de detección de Mange)"
    )
    assert steps[-1] == 'Oculto: deja de estar oculto (Kael está a 4,5", dentro de 5")'
    assert "ficha de oculto" in text


def test_recovery_reads_in_spanish():
    down = FighterState(wounds_left=0, down=True)
    outcomes = [recovery_roll(TARGET, down, EnteredDice([face])) for face in (1, 3, 6)]
    outcomes.append(recovery_roll(FRAIL, down, EnteredDice([1])))
    texts: list[Any] = [step.render("es") for o in outcomes for step in o.steps]
    texts += [effect.note for o in outcomes for effect in o.effects if effect.note]
    texts += [roll.purpose for o in outcomes for step in o.steps for roll in step.rolls]
    no_english(texts)
    assert [o.steps[0].render("es") for o in outcomes] == [
        "Tirada de recuperación: se recupera con un rasguño (boca arriba, aturdido durante un "
        "turno; -1 HA y HP)",
        "Tirada de recuperación: sigue neutralizado",
        "Tirada de recuperación: fuera de combate",
        "Tirada de recuperación: rasguño: HA y HP a 0, fuera de combate",
    ]
    with pytest.raises(RulesError) as refused:
        recovery_roll(TARGET, FighterState(), EnteredDice([1]))
    assert refused.value.render("es") == (
        "Tom: solo un guerrero neutralizado hace la tirada de recuperación"
    )


def test_the_turn_reads_in_spanish():
    sides = ("Ashen Brethren", "Sump Scavvies")
    assert render(start(sides).describe(sides), "es") == (
        "ronda 1, turno de Ashen Brethren, fase de movimiento"
    )
    late = move_order_check(["move"], "charge")
    assert render(late.message, "es") == (
        "orden de movimiento: no (Cargas: deben ir antes que el resto)"
    )
    assert render(move_order_check([], "compulsory").reason, "es") == (
        "Movimientos obligatorios: en orden"
    )


def test_the_offers_read_in_spanish():
    choices = {choice.id: choice for choice in OFFERS.circumstances(None)}
    no_english([c.label for c in choices.values()] + [c.help for c in choices.values()])
    assert render(choices["partial_cover"].label, "es") == "Parcialmente a cubierto"
    assert str(choices["partial_cover"].help) == (
        "-1: at least half of the target's body can be seen, but not all of it (not with cover)"
    )
    assert render(choices["partial_cover"].help, "es") == (
        "-1: puede verse al menos la mitad del cuerpo del objetivo, pero no entero (no con a "
        "cubierto)"
    )
    assert str(choices["fast_moving"].help).endswith("; applies from 10")
    request = shot(JUVE, "laspistol", distance=12, circumstances={"partial_cover": True})
    preview = OFFERS.preview(request)
    assert (str(preview.base), render(preview.base, "es")) == ("7 - BS 2 = 5", "7 - HP 2 = 5")
    assert [str(n) for n in preview.notes] == ["long range"]
    assert [render(n, "es") for n in preview.notes] == ["largo alcance"]
    refused = OFFERS.preview(shot(attacker_state=FighterState(pinned=True)))
    assert [render(n, "es") for n in refused.notes] == [
        "corto alcance",
        "aturdido: un guerrero aturdido no dispara",
    ]


# --- the catalogs -------------------------------------------------------------------------------


def test_the_necromunda_catalog_has_no_problems():
    assert [p for p in problems() if p.startswith("necromunda.")] == []


def _data_terms() -> list[tuple[str, str]]:
    """(message id, the data's English) for every term of the packaged YAML."""
    terms = []
    for item in table("necromunda", "to_hit_modifiers"):
        terms.append((f"necromunda.modifier.{item['id']}", item["name"]))
        terms.append((f"necromunda.modifier_when.{item['id']}", item["when"]))
        terms.append((f"necromunda.modifier_id.{item['id']}", item["id"]))
    injuries = table("necromunda", "injuries")
    results = {*injuries["normal"].values(), *injuries["high_impact"].values()}
    results |= set(table("necromunda", "recovery").values())
    terms += [(f"necromunda.injury.{r.replace(' ', '_')}", r) for r in sorted(results)]
    for terrain in table("necromunda", "movement")["terrain"]:
        terms.append((f"necromunda.terrain.{terrain}", terrain.replace("_", " ")))
    turn = table("necromunda", "turn")
    terms += [(f"necromunda.phase.{p['id']}", p["name"]) for p in turn["phases"]]
    terms += [(f"necromunda.move_group.{g['id']}", g["name"]) for g in turn["movement_order"]]
    return terms


def test_every_data_term_has_an_entry_whose_english_is_the_yaml_name():
    found = catalogs()
    terms = _data_terms()
    assert len(terms) == 6 * 3 + 3 + 4 + 4 + 3
    for message_id, english in terms:
        assert found.english(message_id) == english, message_id
        assert found.translated(message_id, "es", english), message_id
