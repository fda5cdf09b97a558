"""A prepared fight as DataFrames: ``overview()`` and ``odds_frame()``; ``Odds.rows``/repr;
the odds plot; ``try_attack`` recording nothing.

The fight is the demo's Dark Heresy encounter (``gmkit.campaign.demo_campaign_file``): four
acolytes (the players' side) against the Pale Throne cult, Demagogue Ostrava hidden, enemy
wounds shown as bands (the default). Numbers (seed 001): a cultist has 8 wounds, TB 3, no
armour; Sergeant Tull's lasgun at 20 m (short range, +10) hits on 52 or less and does
1d10+3; a 15 hits the body (reversed, 51). So ``EnteredDice([15, d])`` takes d wounds off.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from gmkit import prep
from gmkit.campaign import open_campaign
from gmkit.dice import EnteredDice, SeededDice
from gmkit.encounter import Encounter
from gmkit.encounter._overview import ODDS_COLUMNS, OVERVIEW_COLUMNS
from gmkit.errors import DiceValueError, LeftoverDice, NeedDice, NeedDie, RulesError
from gmkit.odds import odds
from gmkit.store import CampaignStore

CHAPEL = "The Chapel of the Pale Throne"
TULL, BAN = "Sergeant Varro Tull", "Cultist Ban"
ACOLYTES = ["Sergeant Varro Tull", "Ilse Marr", "Adept Cornelius Fenn", "Jessa Kell"]
CULT = ["Demagogue Ostrava", "Cultist Ban", "Cultist Hesk", "Cultist Lorn"]
DEMO_FIGHTS = {
    "necromunda": "Ambush at the Sump Pipes",
    "dark_heresy": CHAPEL,
    "deathwatch": "The Breach at Vaxanide",
    "wfrp2": "Beastmen on the Drakwald Road",
    "wfb6": "Arrows over the Reikland Ford",
}


@pytest.fixture
def store(demo_file: Path, tmp_path: Path) -> Any:
    with open_campaign(demo_file, readonly=True) as original:
        copy = original.backup(tmp_path / "demo.gmk")
    with open_campaign(copy) as opened:
        yield opened


@pytest.fixture
def fight(store: CampaignStore) -> Encounter:
    return Encounter.open(store, CHAPEL)


def row_of(fight: Encounter, name: str) -> dict[str, Any]:
    frame = fight.overview()
    (found,) = frame[frame["name"] == name].to_dict("records")
    return {str(key): value for key, value in found.items()}


# --- overview -------------------------------------------------------------------------------


def test_the_overview_of_the_prepared_fight(fight: Encounter) -> None:
    frame = fight.overview()
    assert list(frame.columns) == list(OVERVIEW_COLUMNS)
    assert list(OVERVIEW_COLUMNS) == [
        "name",
        "side",
        "players",
        "hidden",
        "wounds",
        "players see",
        "initiative",
        "conditions",
    ]
    rows = [tuple(row.values()) for row in frame.to_dict("records")]
    acolyte = ("Acolytes", True, False)
    cult = ("Pale Throne cult", False, False)
    assert rows == [
        ("Sergeant Varro Tull", *acolyte, "13/13", "13/13", None, ""),
        ("Ilse Marr", *acolyte, "10/10", "10/10", None, ""),
        ("Adept Cornelius Fenn", *acolyte, "9/9", "9/9", None, ""),
        ("Jessa Kell", *acolyte, "11/11", "11/11", None, ""),
        ("Demagogue Ostrava", "Pale Throne cult", False, True, "12/12", "", None, ""),
        ("Cultist Ban", *cult, "8/8", "unhurt", None, ""),
        ("Cultist Hesk", *cult, "8/8", "unhurt", None, ""),
        ("Cultist Lorn", *cult, "8/8", "unhurt", None, ""),
    ]


@pytest.mark.parametrize(
    ("damage_die", "wounds", "band"),
    [(1, "7/8", "hurt"), (3, "5/8", "hurt"), (4, "4/8", "bloodied"), (7, "1/8", "bloodied")],
)
def test_a_recorded_damaging_attack_shows_in_the_band(
    fight: Encounter, damage_die: int, wounds: str, band: str
) -> None:
    result = fight.attack(TULL, "Lasgun", BAN, EnteredDice([15, damage_die]), distance=20)
    assert result.explain().splitlines()[-1] == (
        f"Soak (hit 1): {damage_die} damage taken "
        f"({damage_die + 3} damage - AP 0 - TB 3 = {damage_die})"
    )
    row = row_of(fight, BAN)
    assert (row["wounds"], row["players see"]) == (wounds, band)
    assert row_of(fight, "Cultist Hesk")["players see"] == "unhurt"


def test_two_attacks_take_a_cultist_down(fight: Encounter) -> None:
    fight.attack(TULL, "Lasgun", BAN, EnteredDice([15, 4]), distance=20)
    fight.attack(TULL, "Lasgun", BAN, EnteredDice([15, 5]), distance=20)
    row = row_of(fight, BAN)
    assert (row["wounds"], row["players see"]) == ("0/8", "down")


@pytest.mark.parametrize(
    ("shown", "seen"), [("exact", "1/8"), ("hidden", ""), ("band", "bloodied")]
)
def test_what_the_players_see_follows_the_setting(fight: Encounter, shown: str, seen: str) -> None:
    fight.set("enemy_wounds", shown)
    fight.attack(TULL, "Lasgun", BAN, EnteredDice([15, 7]), distance=20)
    assert row_of(fight, BAN)["players see"] == seen
    assert row_of(fight, TULL)["players see"] == "13/13"  # the players' own: always whole


def test_a_hidden_combatant_stays_blank_to_the_players_even_when_hurt(fight: Encounter) -> None:
    fight.set("enemy_wounds", "exact")
    fight.attack(TULL, "Lasgun", "Demagogue Ostrava", EnteredDice([15, 7]), distance=20)
    row = row_of(fight, "Demagogue Ostrava")
    # 10 damage - AP 3 (Flak Coat) - TB 3 = 4 wounds
    assert (row["hidden"], row["wounds"], row["players see"]) == (True, "8/12", "")
    fight.reveal("Demagogue Ostrava")
    row = row_of(fight, "Demagogue Ostrava")
    assert (row["hidden"], row["players see"]) == (False, "8/12")


def test_initiative_and_conditions_show(fight: Encounter) -> None:
    dice = [7, 4, 1, 2, 3, 5, 6, 8]
    fight.roll_initiative(EnteredDice(dice))
    fight.add_condition(BAN, "Stunned", rounds=1)
    fight.add_condition(BAN, "Prone")
    frame = fight.overview()
    agility = [c.sheet.characteristics.Ag // 10 for c in fight.state.combatants.values()]  # type: ignore[attr-defined]
    assert frame["initiative"].tolist() == [d + a for d, a in zip(dice, agility, strict=True)]
    assert frame["initiative"].tolist()[:2] == [10, 8]
    assert row_of(fight, BAN)["conditions"] == "Prone, Stunned"
    assert row_of(fight, "Cultist Hesk")["conditions"] == ""


def test_the_overview_in_spanish_says_the_band_in_spanish(fight: Encounter) -> None:
    english = row_of(fight, BAN)["players see"]
    spanish = fight.overview("es")
    (ban,) = spanish[spanish["name"] == BAN].to_dict("records")
    assert english == "unhurt"
    assert ban["players see"] not in ("", "unhurt")


# --- odds_frame -------------------------------------------------------------------------------


def test_the_odds_of_one_attack_are_odds_of_its_request_exactly(fight: Encounter) -> None:
    frame = fight.odds_frame([TULL], [BAN], weapons=["lasgun"], distance=20)
    assert list(frame.columns) == [*ODDS_COLUMNS, "exact"]
    assert set(frame["weapon"]) == {"Lasgun"}
    assert list(dict.fromkeys(frame["mode"])) == ["single", "semi", "melee"]  # every mode
    frame = frame[frame["mode"] == "single"]
    (mode,) = set(frame["mode"])
    (action,) = set(frame["action"])
    assert (mode, action) == ("single", "standard_attack")
    request = fight.attack_request(TULL, "Lasgun", BAN, mode=mode, action=action, distance=20)
    expected = odds(request).rows()
    head = {"attacker": TULL, "weapon": "Lasgun", "mode": mode, "action": action, "target": BAN}
    assert frame.to_dict("records") == [{**head, **row} for row in expected]
    assert all(isinstance(row["exact"], Fraction) for row in expected)
    hit = frame[frame["kind"] == "hit"]["exact"].tolist()
    assert hit == [Fraction(13, 25)]  # 52 or less on a d100: 52 in 100
    states = frame[frame["kind"] == "state"]
    assert dict(zip(states["outcome"], states["exact"], strict=True)) == {
        "unharmed": Fraction(12, 25),
        "lightly damaged": Fraction(39, 125),
        "heavily damaged": Fraction(13, 125),
        "critically damaged": Fraction(13, 125),
    }


def test_every_attacks_states_sum_to_exactly_one(fight: Encounter) -> None:
    frame = fight.odds_frame(distance=20)
    states = frame[frame["kind"] == "state"]
    groups = states.groupby(["attacker", "weapon", "mode", "target"], sort=False)["exact"]
    totals = groups.apply(lambda values: sum(values, Fraction(0)))
    assert len(totals) == len(frame[frame["kind"] == "hit"])
    assert set(totals) == {Fraction(1)}
    assert all(isinstance(value, Fraction) for value in states["exact"])
    assert (states["value"] == states["exact"].map(float)).all()


def test_by_default_the_players_sides_attack_everyone_else(fight: Encounter) -> None:
    frame = fight.odds_frame(distance=20)
    assert list(dict.fromkeys(frame["attacker"])) == ACOLYTES
    assert list(dict.fromkeys(frame["target"])) == CULT  # the hidden demagogue too: GM's table
    weapons = frame[frame["attacker"] == "Ilse Marr"]["weapon"]
    assert list(dict.fromkeys(weapons)) == ["Laspistol", "Sword", "Unarmed"]


def test_without_player_sides_everyone_attacks(store: CampaignStore) -> None:
    from gmkit.demo import demo_campaign

    fight = Encounter("dark_heresy")
    sheets = demo_campaign().rosters[1].sheets
    fight.add(sheets[0])
    fight.add(sheets[5])
    frame = fight.odds_frame(distance=20)
    assert list(dict.fromkeys(frame["attacker"])) == [TULL, BAN]
    assert set(frame[frame["attacker"] == BAN]["target"]) == {TULL}


def test_odds_frame_records_nothing(fight: Encounter, store: CampaignStore) -> None:
    before = fight.events
    stored = store.events(store.encounter_id(CHAPEL))
    fight.odds_frame(distance=20)
    assert fight.events == before
    assert store.events(store.encounter_id(CHAPEL)) == stored


def test_an_unknown_attacker_is_refused_by_name(fight: Encounter) -> None:
    with pytest.raises(RulesError, match="'Nobody'"):
        fight.odds_frame(["Nobody"], distance=20)


def test_a_single_name_may_be_given_as_a_string(fight: Encounter) -> None:
    one = fight.odds_frame(TULL, BAN, distance=20)
    listed = fight.odds_frame([TULL], [BAN], distance=20)
    assert one.equals(listed)
    assert set(one["attacker"]) == {TULL}


# --- Odds repr, per game ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "game",
    [
        "necromunda",
        pytest.param("dark_heresy", marks=()),
        pytest.param("deathwatch", marks=()),
        "wfrp2",
        "wfb6",
    ],
)
def test_the_odds_repr_is_short(store: CampaignStore, game: str) -> None:
    fight = Encounter.open(store, DEMO_FIGHTS[game])
    frame = fight.odds_frame(distance=10)
    first = frame.iloc[0]
    request = fight.attack_request(
        first["attacker"],
        first["weapon"],
        first["target"],
        mode=first["mode"],
        action=first["action"],
        distance=10,
    )
    found = odds(request)
    text = repr(found)
    assert len(text) < 300, text[:400]
    assert text.startswith(f"Odds({game}: hit ")


def test_the_odds_frame_method_is_rows_as_a_frame(fight: Encounter) -> None:
    request = fight.attack_request(TULL, "Lasgun", BAN, distance=20)
    found = odds(request)
    assert found.frame().to_dict("records") == found.rows()
    assert [row["kind"] for row in found.rows()][:5] == ["hit", "state", "state", "state", "state"]


# --- the odds plot ----------------------------------------------------------------------------

SPAN = re.compile(r"<span class='gmkit-state' data-state='([^']+)' style='width:([0-9.]+)px")


def test_the_plot_has_one_bar_per_attack_and_widths_follow_the_values(fight: Encounter) -> None:
    frame = fight.odds_frame([TULL, "Ilse Marr"], ["Cultist Ban", "Cultist Hesk"], distance=20)
    html = prep.odds_plot(frame).value
    bars = re.findall(r"<tr>(.*?)</tr>", html)
    attacks = frame[frame["kind"] == "hit"][["attacker", "weapon", "mode", "target"]]
    # Tull: lasgun single and semi-auto, knife thrown; Ilse: laspistol; at 20 m no melee
    assert len(bars) == len(attacks) == 4 * 2
    words = {"single": "Single shot", "semi": "Semi-auto burst", "thrown": "Thrown"}
    for bar, (attacker, weapon, mode, target) in zip(
        bars, attacks.itertuples(index=False), strict=True
    ):
        cells = re.findall(r"<td>([^<]*)</td>", bar)
        assert cells == [attacker, weapon, words[mode], target]
        rows = frame[
            (frame["kind"] == "state")
            & (frame["attacker"] == attacker)
            & (frame["weapon"] == weapon)
            & (frame["mode"] == mode)
            & (frame["target"] == target)
        ]
        shown = [(state, float(width)) for state, width in SPAN.findall(bar)]
        wanted = [
            (state, round(value * 360, 1))
            for state, value in zip(rows["outcome"], rows["value"], strict=True)
            if value > 0
        ]
        assert shown == wanted
        assert abs(sum(width for _, width in shown) - 360) < 0.05 * len(shown)


def test_the_lasgun_bar_in_numbers(fight: Encounter) -> None:
    frame = fight.odds_frame([TULL], [BAN], weapons=["Lasgun"], distance=20)
    frame = frame[frame["mode"] == "single"]
    html = prep.odds_plot(frame).value
    assert SPAN.findall(html) == [
        ("unharmed", "172.8"),  # 12/25 of 360
        ("lightly damaged", "112.3"),  # 39/125
        ("heavily damaged", "37.4"),  # 13/125
        ("critically damaged", "37.4"),
    ]
    assert "title='unharmed: 48.0%'" in html


def test_a_table_without_attacks_plots_a_sentence(fight: Encounter) -> None:
    frame = fight.odds_frame([TULL], [BAN], weapons=["no such weapon"], distance=20)
    assert frame.empty
    assert prep.odds_plot(frame).value == "<p>(no attacks: the table has no state rows)</p>"


def test_the_plot_colours_follow_severity_whatever_attack_comes_first(fight: Encounter) -> None:
    frame = fight.odds_frame([TULL], [BAN], weapons=["Knife", "Unarmed"], distance=2)
    legend = re.findall(r"color:(#\w+)'>&#9632;</span> ([a-z ]+)<", prep.odds_plot(frame).value)
    assert [name for _, name in legend] == [
        "unharmed",
        "lightly damaged",
        "heavily damaged",
        "critically damaged",
    ]


# --- try_attack -------------------------------------------------------------------------------


def test_try_attack_records_nothing_and_gives_what_attack_gives(
    fight: Encounter, store: CampaignStore
) -> None:
    before, stored = fight.events, store.events(store.encounter_id(CHAPEL))
    state = fight.state
    tried = fight.try_attack(TULL, "Lasgun", BAN, EnteredDice([15, 7]), distance=20)
    assert fight.events == before
    assert store.events(store.encounter_id(CHAPEL)) == stored
    assert fight.state is state
    assert fight.combatant(TULL).sheet.weapons[0].loaded == 60  # type: ignore[attr-defined]
    assert tried.explain().splitlines() == [
        "Ballistic Skill test: hit, 3 degrees of success (BS 42 +10 = 52 [Short range +10]; "
        "rolled 15: success, 3 degrees of success)",
        "Hit location: body (15 reversed reads 51)",
        "Damage (hit 1): 10 at body (1d10+3: [7] +3 = 10)",
        "Soak (hit 1): 7 damage taken (10 damage - AP 0 - TB 3 = 7)",
    ]
    done = fight.attack(TULL, "Lasgun", BAN, EnteredDice([15, 7]), distance=20)
    assert done == tried
    assert len(fight.events) == len(before) + 1
    assert row_of(fight, BAN)["wounds"] == "1/8"


def test_try_attack_with_seeded_dice_matches_attack_with_the_same_seed(fight: Encounter) -> None:
    tried = fight.try_attack("Ilse Marr", "Laspistol", "Cultist Hesk", SeededDice(7), distance=10)
    again = fight.try_attack("Ilse Marr", "Laspistol", "Cultist Hesk", SeededDice(7), distance=10)
    done = fight.attack("Ilse Marr", "Laspistol", "Cultist Hesk", SeededDice(7), distance=10)
    assert tried == again == done


def test_try_attack_refuses_as_attack_does(fight: Encounter) -> None:
    before = fight.events
    with pytest.raises(RulesError, match="'Nobody'"):
        fight.try_attack(TULL, "Lasgun", "Nobody", EnteredDice([15, 7]), distance=20)
    assert fight.events == before


def test_an_attack_the_rules_refuse_is_one_refused_row_and_the_rest_of_the_table_stands(
    monkeypatch,
) -> None:
    from gmkit.encounter import Encounter
    from gmkit.errors import RulesError
    from gmkit.messages import Message

    fight = Encounter("dark_heresy")
    for sheet in prep.npcs("dark_heresy", "Cultist", 2, side="Cult"):
        fight.add(sheet)
    fight.add(prep.npc("dark_heresy", "Enforcer", name="Drax", side="Arbites"))
    real = fight.attack_request

    def refusing(attacker, weapon, target, **request):
        if fight.combatant(target).name == "Cultist 2":
            raise RulesError(Message("commands.no_one_called", name="'Cultist 2'"))
        return real(attacker, weapon, target, **request)

    monkeypatch.setattr(fight, "attack_request", refusing)
    table = fight.odds_frame(["Drax"], distance=None)  # no distance: melee in reach too
    refused = table[table["label"].str.contains("Cultist 2", na=False)]
    assert set(refused["kind"]) == {"refused"}
    assert set(refused["target"]) == {"Cultist 2"}
    attacks = refused[["weapon", "mode"]].drop_duplicates()
    assert len(refused) == len(attacks)  # one row per refused attack
    stood = table[(table["target"] == "Cultist 1") & (table["kind"] == "hit")]
    assert len(stood) >= 2  # Cultist 1's attacks have their odds (a shotgun's feint: none)
    assert refused["value"].isna().all()
    assert refused["label"].str.contains("Cultist 2").all()
    standing = table[(table["target"] == "Cultist 1") & (table["kind"] == "state")]
    assert standing.groupby("weapon")["exact"].sum().eq(1).all()


def test_a_roster_list_may_hold_frames_and_files_among_sheets(tmp_path) -> None:
    import pandas as pd

    path = tmp_path / "more.yaml"
    path.write_text("- {npc: Cultist, name: Ban, side: Cult}\n")
    frame = pd.DataFrame([{"npc": "Cultist", "count": 2, "name": "Ganger", "side": "Cult"}])
    sheets = prep.roster(
        [prep.npc("dark_heresy", "Heretek", name="Vorn"), frame, path], game="dark_heresy"
    )
    assert [sheet.name for sheet in sheets] == ["Vorn", "Ganger 1", "Ganger 2", "Ban"]


# --- every mode, melee in reach, a horde's magnitude (issue 21, item 15) --------------------

CASTOR, BOLTER, NOB, BOYZ = (
    "Brother Castor",
    "Astartes Bolter (Godwyn)",
    "Nob Gritfang",
    "Ork Boyz mob",
)


@pytest.fixture
def breach(store: CampaignStore) -> Encounter:
    return Encounter.open(store, DEMO_FIGHTS["deathwatch"])


def test_a_bolter_has_the_odds_of_every_fire_mode(breach: Encounter) -> None:
    """A bolter was only ever a single shot: every mode the rules allow has its odds, each
    the odds of that mode's own request (004: BS 47, short range at 30 m +10; semi-auto +10,
    full auto +20, suppressing fire -20)."""
    frame = breach.odds_frame(CASTOR, NOB, weapons=[BOLTER], distance=30)
    hits = frame[frame["kind"] == "hit"]
    assert dict(zip(hits["mode"], hits["exact"], strict=True)) == {
        "single": Fraction(57, 100),
        "semi": Fraction(67, 100),
        "full": Fraction(77, 100),
        "suppressing": Fraction(37, 100),
    }
    assert list(hits["action"]) == [
        "standard_attack",
        "semi_auto_burst",
        "full_auto_burst",
        "suppressing_fire",
    ]
    full = frame[frame["mode"] == "full"]
    request = breach.attack_request(
        CASTOR, BOLTER, NOB, mode="full", action="full_auto_burst", distance=30
    )
    shown = full[["kind", "outcome", "exact"]].to_dict("records")
    assert shown == [
        {k: row[k] for k in ("kind", "outcome", "exact")} for row in odds(request).rows()
    ]


def test_a_melee_weapon_out_of_reach_is_a_refused_row_saying_why(fight: Encounter) -> None:
    """A knife had 54% to hit at 30 m: melee needs an adjacent foe; thrown, it has its odds."""
    far = fight.odds_frame(TULL, BAN, weapons=["Knife"], distance=30)
    melee = far[far["mode"] == "melee"]
    assert melee[["kind", "label"]].to_dict("records") == [
        {
            "kind": "refused",
            "label": "a melee attack reaches an adjacent foe (2 m); this target stands 30 m away",
        }
    ]
    assert list(far[far["kind"] == "hit"]["mode"]) == ["thrown"]
    spanish = fight.odds_frame(TULL, BAN, weapons=["Knife"], distance=30, language="es")
    (why,) = spanish[spanish["mode"] == "melee"]["label"]
    assert why == (
        "un ataque cuerpo a cuerpo alcanza a un adversario adyacente (2 m); este objetivo "
        "está a 30 m"
    )
    near = fight.odds_frame(TULL, BAN, weapons=["Knife"], distance=2)
    knife = near[(near["mode"] == "melee") & (near["kind"] == "hit")]
    request = fight.attack_request(TULL, "Knife", BAN, mode="melee", distance=2)
    assert list(knife["exact"]) == [odds(request).hit]
    untold = fight.odds_frame(TULL, BAN, weapons=["Knife"])  # no distance: engaged
    assert set(untold[untold["mode"] == "melee"]["kind"]) != {"refused"}


def test_a_hordes_states_are_the_magnitude_it_loses(breach: Encounter) -> None:
    """A horde read "standing 100%": one shot seldom breaks it. Its states are the magnitude it
    loses: a bolt hits (57 + 10 for a horde of magnitude 30: 67 in 100) and, Explosive, counts
    one more hit (004); 2d10+5 Tearing, Pen 5, against AP 2 and TB 8 damages unless low."""
    frame = breach.odds_frame(CASTOR, BOYZ, weapons=[BOLTER], distance=30)
    single = frame[frame["mode"] == "single"]
    states = single[single["kind"] == "state"]
    request = breach.attack_request(CASTOR, BOLTER, BOYZ, distance=30)
    lost = odds(request).details["magnitude lost"]
    assert list(states["outcome"]) == ["magnitude -0", "magnitude -1", "magnitude -2"]
    assert list(states["exact"]) == [lost.p(0), lost.p(1), lost.p(2)]
    assert sum(states["exact"], Fraction(0)) == 1
    assert lost.p(0) > 1 - Fraction(67, 100)  # a miss, or two hits that both fail to damage
    assert list(states["label"]) == ["loses no magnitude", "loses 1 magnitude", "loses 2 magnitude"]
    assert "standing" not in set(single["outcome"])
    (expected,) = single[(single["kind"] == "expected") & (single["outcome"] == "magnitude lost")][
        "exact"
    ]
    assert expected == lost.mean()
    spanish = breach.odds_frame(CASTOR, BOYZ, weapons=[BOLTER], distance=30, language="es")
    labels = spanish[(spanish["mode"] == "single") & (spanish["kind"] == "state")]["label"]
    assert list(labels) == ["no pierde magnitud", "pierde 1 de magnitud", "pierde 2 de magnitud"]
    html = prep.odds_plot(spanish).value
    assert "data-state='magnitude -2'" in html
    assert "<td>Ráfaga semiautomática</td>" in html  # the mode in the reader's language
    assert "en pie" not in html


# --- the dice an attack needs, from Python (issue 21, item 14) -------------------------------


def test_dice_needed_gives_the_dice_up_front(fight: Encounter) -> None:
    """Tull's lasgun at 20 m hits on 52 or less (BS 42, short range +10)."""
    plan = fight.dice_needed(TULL, "Lasgun", BAN, distance=20)
    assert [die.label() for die in plan.needed] == ["d100 · to hit"]
    assert str(plan).startswith("now: d100 to hit; if the d100 to hit shows 1–52: d10 damage")
    after = fight.dice_needed(TULL, "Lasgun", BAN, [15], distance=20)
    assert [die.label() for die in after.needed] == ["d10 · damage (hit 1)"]
    assert after.explain("es").startswith("ahora: d10 daño (impacto 1)")
    assert fight.dice_needed(TULL, "Lasgun", BAN, ["15", 7], distance=20).summary is None
    with pytest.raises(DiceValueError, match="150 cannot come from a d100"):
        fight.dice_needed(TULL, "Lasgun", BAN, ["150"], distance=20)


def test_too_few_typed_dice_say_all_the_attack_needs_now(breach: Encounter) -> None:
    """A burst at the horde failed one die at a time (four tries): one failure says every die
    needed now (the hits are known once the d100 is typed) and what may follow."""
    before = breach.events
    with pytest.raises(NeedDice) as raised:
        breach.attack(
            CASTOR, BOLTER, BOYZ, EnteredDice([40]), mode="full", action="full_auto_burst"
        )
    need = raised.value
    assert isinstance(need, NeedDie)  # what a caller catching NeedDie already catches
    assert (need.sides, need.index) == (10, 1)
    said = str(need)
    assert said.startswith("damage (hit 2) die 1: roll a d10 and enter its value; this attack")
    assert "needs now: 3 d10 damage (hit 2); if one of the d10 damage (hit 2) shows 10:" in said
    assert said.endswith("then: 3 d10 damage (hit 3), and likewise for 2 more")
    assert "este ataque necesita ahora: 3 d10 daño (impacto 2)" in need.render("es")
    assert breach.events == before
    dice = [40, *[3] * 12]  # hits 2 to 5 (the Explosive one), no 10: no Righteous Fury
    result = breach.attack(
        CASTOR, BOLTER, BOYZ, EnteredDice(dice), mode="full", action="full_auto_burst"
    )
    assert [(e.kind, e.amount) for e in result.effects if e.kind == "magnitude"] == [
        ("magnitude", 5)  # every hit damages: 3 + 3 + 5 = 11 against TB 8
    ]


def test_typed_dice_left_over_are_named_and_nothing_is_recorded(fight: Encounter) -> None:
    before = fight.events
    with pytest.raises(LeftoverDice) as raised:
        fight.attack(TULL, "Lasgun", BAN, EnteredDice([15, 7, 3, "09"]), distance=20)
    assert str(raised.value) == "2 typed values left over: 3, 09; the attack took 2 dice"
    assert raised.value.render("es") == (
        "2 valores tecleados de sobra: 3, 09; el ataque tomó 2 dados"
    )
    assert fight.events == before
    with pytest.raises(LeftoverDice, match="1 typed value left over: 7; the attack took 1 die"):
        fight.try_attack(TULL, "Lasgun", BAN, EnteredDice([99, 7]), distance=20)
