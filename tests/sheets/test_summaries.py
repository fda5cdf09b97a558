"""Each game's roster line: the profile as the game prints it, wounds and armour."""

from __future__ import annotations

from gmkit.demo import demo_campaign


def _sheet(game: str, name: str):
    roster = next(r for r in demo_campaign().rosters if r.game == game)
    return next(s for s in roster.sheets if s.name == name)


def test_necromunda_line_shows_flesh_wounds_and_save():
    kael = _sheet("necromunda", "Brother Kael").edit(flesh_wounds=1)
    line = kael.summary()
    assert list(line)[:9] == ["M", "WS", "BS", "S", "T", "W", "I", "A", "Ld"]
    assert (line["WS"], line["BS"]) == (3, 3)  # 4 and 4, less one flesh wound
    assert line["Sv"] == "6+"  # flak armour
    assert line["weapons"] == "bolt pistol, sword"


def test_dark_heresy_line_counts_wounds_left():
    tull = _sheet("dark_heresy", "Sergeant Varro Tull").edit(damage=5)
    line = tull.summary()
    assert line["W"] == "8/13"
    assert line["AP body"] == 4  # Imperial Guard flak armour
    assert line["Per"] == 31


def test_deathwatch_horde_line_shows_magnitude():
    mob = _sheet("deathwatch", "Ork Boyz mob")
    assert mob.summary()["Mag"] == "30/30"
    assert "Mag" not in _sheet("deathwatch", "Brother Castor").summary()


def test_wfrp_line_has_main_profile_and_wounds_left():
    matthias = _sheet("wfrp2", "Brother Matthias")
    line = matthias.summary()
    assert "Per" not in line
    assert line["W"] == "9/12"
    assert line["M"] == 4


def test_wfb_line_has_save_and_unit():
    hals = _sheet("wfb6", "Captain Ottilie Hals")
    line = hals.summary()
    assert line["Sv"] == "3+"  # full plate 4+ improved by a shield
    assert line["role"] == "character (Reikland Swordsmen)"
