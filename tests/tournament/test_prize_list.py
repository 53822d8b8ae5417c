"""The prize list from a tournament's standings and the director's categories (issue 38)."""

from decimal import Decimal

import pytest

from tests.factories import (
    EntryFactory,
    PlayerFactory,
    TournamentFactory,
    five_player_round,
    prize_category,
)
from tournament.models import (
    EntryStatus,
    FeeStatus,
    Measure,
    PrizeKind,
)
from tournament.queries.prizes import prize_list

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup():
    """Five players at one five-player table, one closed round of two games: Anna 3,
    Bernd 1, Clara -1, Dieter -1, Emil -2 (the dealer of each game sits out)."""
    t = TournamentFactory(planned_rounds=2, entry_fee=Decimal("10"))
    people = [
        ("Anna", "f", 1950, False),
        ("Bernd", "m", 1980, False),
        ("Clara", "f", 1990, False),
        ("Dieter", "m", 1955, False),
        ("Emil", "m", 2000, True),
    ]
    entries = []
    for number, (name, sex, year, guest) in enumerate(people, start=1):
        entries.append(
            EntryFactory(
                tournament=t,
                start_number=number,
                player=PlayerFactory(first_name=name, last_name="Muster"),
                sex=sex,
                birth_year=year,
                guest=guest,
                fee=FeeStatus.PAID if number < 5 else FeeStatus.OPEN,
                publish=number != 3,
            )
        )
    five_player_round(t, entries)
    return t, entries


def rows(listing):
    return [
        (c.name, [(a.place, a.shared, a.name, a.score, a.amount, a.goods) for a in c.awards])
        for c in listing.categories
    ]


def test_it_applies_the_categories_to_the_standings_with_the_fee_pool(cup):
    t, entries = cup
    prize_category(t, "Gesamt", 1, [(PrizeKind.SHARE, "50"), (PrizeKind.SHARE, "30")])
    prize_category(t, "Damen", 2, [(PrizeKind.AMOUNT, "15"), (PrizeKind.GOODS, "Blumen")], sex="f")
    prize_category(
        t, "Beste Runde", 3, [(PrizeKind.GOODS, "Sekt")], measure=Measure.BEST_ROUND,
        also_for_winners=True,
    )  # fmt: skip
    listing = prize_list(t)
    assert listing.pool == Decimal("40.00")  # four fees paid, one open
    assert rows(listing) == [
        ("Gesamt", [(1, 1, "Anna Muster", 3, Decimal("20.00"), ""),
                    (2, 1, "Bernd Muster", 1, Decimal("12.00"), "")]),
        # Anna won overall: the women's prize goes to Clara; nobody is left for the flowers.
        ("Damen", [(1, 1, "Clara Muster", -1, Decimal("15.00"), "")]),
        ("Beste Runde", [(1, 1, "Anna Muster", 3, Decimal("0.00"), "Sekt")]),
    ]  # fmt: skip
    assert listing.categories[1].unawarded == [2]
    assert listing.paid_out == Decimal("47.00") and listing.left == Decimal("-7.00")
    assert listing.provisional
    # Clara did not consent: the public name is her pseudonym, the office's is her own.
    clara = listing.categories[1].awards[0]
    assert clara.public_name != "Clara Muster" and clara.public_club == ""


def test_equal_players_share_and_the_disqualified_take_nothing(cup):
    t, entries = cup
    prize_category(t, "Gesamt", 1, [(PrizeKind.AMOUNT, "5")] * 4)
    shared = rows(prize_list(t))[0][1]
    assert shared[2:] == [
        (3, 2, "Clara Muster", -1, Decimal("5.00"), ""),
        (3, 2, "Dieter Muster", -1, Decimal("5.00"), ""),
    ]
    entries[0].status = EntryStatus.DISQUALIFIED
    entries[0].save()
    names = [a.name for a in prize_list(t).categories[0].awards]
    assert "Anna Muster" not in names and names[0] == "Bernd Muster"


def test_the_best_five_table_result_and_the_seniors(cup):
    t, _entries = cup
    prize_category(t, "5er-Tisch", 1, [(PrizeKind.AMOUNT, "3")], measure=Measure.BEST_FIVE_TABLE)
    prize_category(t, "Senioren", 2, [(PrizeKind.AMOUNT, "4")], born_until=1960)
    prize_category(t, "Gäste", 3, [(PrizeKind.AMOUNT, "2")], guests_only=True)
    assert rows(prize_list(t)) == [
        ("5er-Tisch", [(1, 1, "Anna Muster", 3, Decimal("3.00"), "")]),
        ("Senioren", [(1, 1, "Dieter Muster", -1, Decimal("4.00"), "")]),
        ("Gäste", [(1, 1, "Emil Muster", -2, Decimal("2.00"), "")]),
    ]


def test_the_list_is_final_once_the_tournament_is_finished(cup):
    t, _entries = cup
    prize_category(t, "Gesamt", 1, [(PrizeKind.AMOUNT, "5")])
    assert prize_list(t).provisional
    t.planned_rounds = 1
    t.save()
    assert not prize_list(t).provisional


def test_a_constant_number_of_queries(cup, django_assert_num_queries):
    t, _entries = cup
    for order in range(6):
        prize_category(t, f"K{order}", order, [(PrizeKind.AMOUNT, "1")] * 3)
    with django_assert_num_queries(10):
        prize_list(t)


def test_a_withdrawn_player_keeps_their_place_in_the_prize_list(cup):
    # Withdrawn players keep their points and their rank in the standings (only a
    # disqualification removes the rank); the prize list follows the standings.
    t, entries = cup
    prize_category(t, "Gesamt", 1, [(PrizeKind.AMOUNT, "5")])
    entries[0].status = EntryStatus.WITHDRAWN
    entries[0].save()
    assert [a.name for a in prize_list(t).categories[0].awards] == ["Anna Muster"]
