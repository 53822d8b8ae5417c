import pytest

from scoring.profiles import (
    BSV_HESSEN_2010,
    CUSTOM,
    DDV,
    EPPSTEIN_2001,
    PARAMETER_NAMES,
    PROFILES,
    NotInText,
    ProfileError,
    Scoring,
    derive,
    get_profile,
)


def test_it_ships_the_three_profiles_with_the_rule_book_game_counts():
    assert set(PROFILES) == {"ddv", "bsv-hessen-2010", "eppstein-2001"}
    ddv, bsv, epp = (get_profile(k) for k in ("ddv", "bsv-hessen-2010", "eppstein-2001"))
    assert (ddv.games_per_round(4), ddv.games_per_round(5)) == (24, 30)
    assert (bsv.games_per_round(4), bsv.games_per_round(5)) == (24, 30)
    assert (epp.games_per_round(4), epp.games_per_round(5)) == (16, 20)
    assert (ddv.cards, bsv.cards, epp.cards) == (48, 40, 48)
    assert (ddv.playing_minutes(5), bsv.playing_minutes(4)) == (125, 120)
    assert epp.scoring is Scoring.PLUS_POINTS and ddv.scoring is Scoring.PLUS_MINUS
    assert ddv.even_odd_rule_4 and bsv.even_odd_rule_4 and not epp.even_odd_rule_4
    assert ddv.max_deduction == 12 and bsv.max_deduction == 0


def test_it_derives_a_custom_profile_with_changed_parameters():
    custom = derive("eppstein-2001", {"games_per_round_4": 20, "even_odd_rule_4": True})
    assert custom.key == CUSTOM
    assert custom.games_per_round(4) == 20
    assert custom.even_odd_rule_4 is True
    assert custom.scoring is Scoring.PLUS_POINTS  # everything else stays
    assert custom.as_dict()["scoring"] == "plus-points"


@pytest.mark.parametrize(
    ("overrides", "code"),
    [
        ({"no_such_thing": 1}, "unknown-parameter"),
        ({"key": "ddv"}, "unknown-parameter"),
        ({"games_per_round_4": 0}, "bad-parameter"),
        ({"games_per_round_4": "24"}, "bad-parameter"),
        ({"games_per_round_4": True}, "bad-parameter"),
        ({"even_odd_rule_4": 1}, "bad-parameter"),
        ({"scoring": "fantasy"}, "bad-parameter"),
        ({"sanctions": ["flogging"]}, "bad-parameter"),
    ],
)
def test_it_refuses_impossible_custom_parameters(overrides, code):
    with pytest.raises(ProfileError) as info:
        derive("ddv", overrides)
    assert info.value.code == code


def test_it_refuses_an_unknown_profile():
    with pytest.raises(ProfileError) as info:
        get_profile("skat")
    assert info.value.code == "unknown-profile"


@pytest.mark.parametrize(
    ("base", "overrides", "code"),
    [
        ("ddv", {"games_per_round_4": 3}, "too-few-games-for-soli"),
        ("ddv", {"games_per_round_5": 4}, "too-few-games-for-soli"),
        ("bsv-hessen-2010", {"sanctions": ["warning", "deduction"]}, "deduction-without-maximum"),
    ],
)
def test_it_refuses_parameters_that_contradict_each_other(base, overrides, code):
    with pytest.raises(ProfileError) as info:
        derive(base, overrides)
    assert info.value.code == code


# --- what a profile takes from elsewhere than its rule text (not_in_text) ---------------------


def test_only_bsv_borrows_its_penalty_points_from_the_ddv_rules():
    """BSV 9.3 names geringfügige violations without points and has no scale for schwerwiegende
    ones: the TSR 9.3/9.4 amounts it applies are marked. DDV has them in its own text, and
    Eppstein 8.4/8.6 gives the same amounts itself."""
    penalties = {NotInText.PENALTY_GERINGFUEGIG, NotInText.PENALTY_SCHWERWIEGEND}
    assert penalties <= set(BSV_HESSEN_2010.not_in_text)
    assert not penalties & set(DDV.not_in_text)
    assert not penalties & set(EPPSTEIN_2001.not_in_text)
    assert NotInText.PFLICHTSOLO in BSV_HESSEN_2010.not_in_text
    assert NotInText.PFLICHTSOLO not in DDV.not_in_text + EPPSTEIN_2001.not_in_text


def test_no_profile_has_the_sitters_vorfuehren_from_its_text():
    for profile in PROFILES.values():
        assert NotInText.VORFUEHREN_SITTER_PASSES_DEAL in profile.not_in_text


@pytest.mark.parametrize("base", list(PROFILES))
def test_a_custom_profile_keeps_its_bases_notes(base):
    custom = derive(base, {"games_per_round_4": 20, "vorfuehren_sitter_passes_deal": False})
    assert custom.not_in_text == PROFILES[base].not_in_text


def test_the_notes_are_no_parameter():
    """No custom profile can change them, and they are not among the parameters the form
    shows and stores."""
    assert "not_in_text" not in PARAMETER_NAMES and "key" not in PARAMETER_NAMES
    assert "not_in_text" not in DDV.as_dict()
    with pytest.raises(ProfileError) as info:
        derive("bsv-hessen-2010", {"not_in_text": []})
    assert info.value.code == "unknown-parameter"


def test_a_pack_has_48_or_40_cards():
    with pytest.raises(ProfileError) as info:
        derive("ddv", {"cards": 44})
    assert (info.value.code, info.value.params["name"]) == ("bad-parameter", "cards")
    assert derive("ddv", {"cards": 40}).cards == 40
