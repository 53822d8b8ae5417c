"""The prize rules, by hand on known standings (issue 38): places, priorities between
categories, ties shared or decided, shares of the pool to the cent, the conditions."""

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from scoring.prizes import (
    AMOUNT,
    BEST_FIVE_TABLE,
    BEST_ROUND,
    GOODS,
    SHARE,
    TIEBREAK_TIES,
    CategoryRule,
    Contender,
    PrizeRule,
    allocate,
    prize_amounts,
)

D = Decimal


def player(key, total, *, tiebreak=(), best_round=None, five=None, **attributes):
    return Contender(
        key=key,
        start_number=key,
        total=total,
        tiebreak=tiebreak,
        best_round=best_round,
        best_five_table=five,
        **attributes,
    )


def money(*values, key=1, name="Gesamt", **options):
    prizes = tuple(PrizeRule(place, AMOUNT, D(v)) for place, v in enumerate(values, start=1))
    return CategoryRule(key=key, name=name, prizes=prizes, **options)


def table(awards):
    """(category, player, place, shared, amount, goods) per award."""
    return [(a.category, a.key, a.place, a.shared, a.amount, a.goods) for a in awards]


def test_it_gives_the_places_their_prizes_in_standings_order():
    field = [player(1, 90), player(2, 120), player(3, 60), player(4, 30)]
    awards = allocate(field, [money("50", "30", "20")], D("0"))
    assert table(awards) == [
        (1, 2, 1, 1, D("50.00"), ()),
        (1, 1, 2, 1, D("30.00"), ()),
        (1, 3, 3, 1, D("20.00"), ()),
    ]


def test_a_winner_of_an_earlier_category_takes_no_second_prize():
    # Player 1 wins overall and is the best senior; the senior prize goes to player 3.
    field = [
        player(1, 120, birth_year=1950),
        player(2, 100, birth_year=1990),
        player(3, 80, birth_year=1955),
        player(4, 70, birth_year=1940),
    ]
    overall = money("50", "30")
    seniors = money("20", key=2, name="Senioren", born_until=1960)
    awards = allocate(field, [overall, seniors], D("0"))
    assert table(awards) == [
        (1, 1, 1, 1, D("50.00"), ()),
        (1, 2, 2, 1, D("30.00"), ()),
        (2, 3, 1, 1, D("20.00"), ()),
    ]
    # The director's order decides: seniors first, then overall.
    swapped = allocate(field, [seniors, overall], D("0"))
    assert table(swapped) == [
        (2, 1, 1, 1, D("20.00"), ()),
        (1, 2, 1, 1, D("50.00"), ()),
        (1, 3, 2, 1, D("30.00"), ()),
    ]


def test_a_category_also_for_winners_neither_blocks_nor_is_blocked():
    field = [
        player(1, 120, best_round=40),
        player(2, 100, best_round=70),
        player(3, 50, best_round=45),
    ]
    best_round = money("10", key=2, name="Beste Runde", measure=BEST_ROUND, also_for_winners=True)
    awards = allocate(field, [best_round, money("50", "30")], D("0"))
    assert table(awards) == [
        (2, 2, 1, 1, D("10.00"), ()),
        (1, 1, 1, 1, D("50.00"), ()),
        (1, 2, 2, 1, D("30.00"), ()),
    ]
    assert awards[0].score == 70


def test_equal_players_share_the_prizes_of_their_places():
    # Players 2 and 3 are equal on 2nd: they share 30 + 20; player 4 is 4th and gets nothing.
    field = [player(1, 100), player(2, 80), player(3, 80), player(4, 70)]
    awards = allocate(field, [money("50", "30", "20")], D("0"))
    assert table(awards) == [
        (1, 1, 1, 1, D("50.00"), ()),
        (1, 2, 2, 2, D("25.00"), ()),
        (1, 3, 2, 2, D("25.00"), ()),
    ]


def test_a_shared_amount_that_does_not_divide_gives_the_cents_to_the_first():
    # 10.01 among three: 3.34 + 3.34 + 3.33, and the cents add up.
    field = [player(3, 50), player(1, 50), player(2, 50)]
    awards = allocate(field, [money("5", "3", "2.01")], D("0"))
    assert [(a.key, a.amount) for a in awards] == [
        (1, D("3.34")),
        (2, D("3.34")),
        (3, D("3.33")),
    ]
    assert sum(a.amount for a in awards) == D("10.01")
    assert {a.place for a in awards} == {1}


def test_a_tie_at_the_last_prize_splits_that_prize_only():
    field = [player(1, 100), player(2, 90), player(3, 80), player(4, 80), player(5, 10)]
    awards = allocate(field, [money("50", "30", "15")], D("0"))
    assert table(awards)[2:] == [(1, 3, 3, 2, D("7.50"), ()), (1, 4, 3, 2, D("7.50"), ())]


def test_the_tie_breakers_decide_when_the_director_says_so():
    # Equal totals; the tournament's tie-breaker (best round, smaller key is better) separates
    # 2 and 3; players 4 and 5 are equal in everything and still share.
    field = [
        player(1, 100, tiebreak=(-30,)),
        player(2, 80, tiebreak=(-20,)),
        player(3, 80, tiebreak=(-25,)),
        player(4, 60, tiebreak=(-10,)),
        player(5, 60, tiebreak=(-10,)),
    ]
    awards = allocate(field, [money("50", "30", "20", "10", ties=TIEBREAK_TIES)], D("0"))
    assert table(awards) == [
        (1, 1, 1, 1, D("50.00"), ()),
        (1, 3, 2, 1, D("30.00"), ()),
        (1, 2, 3, 1, D("20.00"), ()),
        (1, 4, 4, 2, D("5.00"), ()),
        (1, 5, 4, 2, D("5.00"), ()),
    ]


def test_shares_of_the_pool_that_do_not_divide_evenly_add_up_to_the_cent():
    thirds = CategoryRule(
        key=1,
        name="Gesamt",
        prizes=tuple(
            PrizeRule(p, SHARE, D(v)) for p, v in [(1, "33.33"), (2, "33.33"), (3, "33.34")]
        ),
    )
    assert prize_amounts([thirds], D("10.00")) == {
        (1, 1): D("3.33"),
        (1, 2): D("3.33"),
        (1, 3): D("3.34"),
    }
    # 100.01 at 40/35/25 %: 40.004 + 35.0035 + 25.0025; the lost cent goes to the largest rest.
    split = CategoryRule(
        key=1,
        name="Gesamt",
        prizes=tuple(PrizeRule(p, SHARE, D(v)) for p, v in [(1, "40"), (2, "35"), (3, "25")]),
    )
    amounts = prize_amounts([split], D("100.01"))
    assert amounts == {(1, 1): D("40.01"), (1, 2): D("35.00"), (1, 3): D("25.00")}
    assert sum(amounts.values()) == D("100.01")


def test_a_ddv_tournament_pays_out_the_whole_pool_over_categories():
    # 37 fees of 10 EUR: 370 EUR, 60 % overall (3 places), 40 % to two more categories.
    overall = CategoryRule(
        key=1,
        name="Gesamt",
        prizes=tuple(PrizeRule(p, SHARE, D(v)) for p, v in [(1, "30"), (2, "20"), (3, "10")]),
    )
    women = CategoryRule(key=2, name="Damen", prizes=(PrizeRule(1, SHARE, D("13.33")),), sex="f")
    seniors = CategoryRule(
        key=3, name="Senioren", prizes=(PrizeRule(1, SHARE, D("26.67")),), born_until=1960
    )
    amounts = prize_amounts([overall, women, seniors], D("370.00"))
    assert sum(amounts.values()) == D("370.00")
    assert amounts[2, 1] == D("49.32") and amounts[3, 1] == D("98.68")


def test_goods_go_with_their_place_and_with_money():
    cups = CategoryRule(
        key=1,
        name="Gesamt",
        prizes=(
            PrizeRule(1, GOODS, goods="Pokal"),
            PrizeRule(2, AMOUNT, D("20")),
            PrizeRule(3, GOODS, goods="Buch"),
        ),
    )
    field = [player(1, 90), player(2, 80), player(3, 80)]
    awards = allocate(field, [cups], D("0"))
    # 2 and 3 share places 2 and 3: the money split, the book to the first of them.
    assert table(awards) == [
        (1, 1, 1, 1, D("0.00"), ("Pokal",)),
        (1, 2, 2, 2, D("10.00"), ("Buch",)),
        (1, 3, 2, 2, D("10.00"), ()),
    ]


def test_the_conditions_of_a_category():
    field = [
        player(1, 100, sex="m", birth_year=2010, guest=True),
        player(2, 90, sex="f", birth_year=None, newcomer=True),
        player(3, 80, sex="f", birth_year=1950),
        player(4, 70, sex="", birth_year=2009, guest=True, newcomer=True),
        player(5, 60, eligible=False, sex="f", birth_year=1940),
    ]

    def winners(**conditions):
        category = money("1", "1", "1", "1", "1", **conditions)
        return [a.key for a in allocate(field, [category], D("0"))]

    assert winners(sex="f") == [2, 3]  # the disqualified player 5 never wins
    assert winners(born_from=2008) == [1, 4]  # an unknown year meets no condition on it
    assert winners(born_until=1960) == [3]
    assert winners(guests_only=True) == [1, 4]
    assert winners(newcomers_only=True) == [2, 4]
    assert winners(sex="f", newcomers_only=True) == [2]


def test_best_five_table_counts_only_players_who_sat_at_one():
    field = [player(1, 100, five=None), player(2, 50, five=12), player(3, 40, five=30)]
    category = money("10", "5", "1", measure=BEST_FIVE_TABLE)
    awards = allocate(field, [category], D("0"))
    assert [(a.key, a.place, a.score) for a in awards] == [(3, 1, 30), (2, 2, 12)]


def test_nobody_eligible_leaves_the_prizes_unawarded():
    assert allocate([player(1, 10, sex="m")], [money("5", sex="f")], D("0")) == []


contenders = st.lists(
    st.builds(
        Contender,
        key=st.integers(1, 10_000),
        start_number=st.integers(1, 500),
        total=st.integers(-50, 50),
        tiebreak=st.tuples(st.integers(-3, 0)),
        best_round=st.integers(-20, 20),
        best_five_table=st.none() | st.integers(-20, 20),
        sex=st.sampled_from(["", "f", "m"]),
        birth_year=st.none() | st.integers(1940, 2015),
        guest=st.booleans(),
        newcomer=st.booleans(),
        eligible=st.booleans(),
    ),
    max_size=25,
    unique_by=lambda c: c.key,
)
prize_rules = st.lists(
    st.tuples(
        st.sampled_from([AMOUNT, SHARE, GOODS]),
        st.decimals("0", "60", places=2),
    ),
    min_size=1,
    max_size=6,
)
categories = st.lists(
    st.builds(
        lambda prizes, measure, ties, sex, also: CategoryRule(
            key=0,
            name="c",
            prizes=tuple(
                PrizeRule(p, kind, value, "Pokal" if kind == GOODS else "")
                for p, (kind, value) in enumerate(prizes, 1)
            ),
            measure=measure,
            ties=ties,
            sex=sex,
            also_for_winners=also,
        ),
        prize_rules,
        st.sampled_from(["total", BEST_ROUND, BEST_FIVE_TABLE]),
        st.sampled_from(["share", TIEBREAK_TIES]),
        st.sampled_from(["", "f"]),
        st.booleans(),
    ),
    max_size=4,
)


@given(contenders, categories, st.decimals("0", "5000", places=2))
def test_the_money_of_every_awarded_place_is_paid_to_the_cent(field, rules, pool):
    rules = [CategoryRule(**{**vars(r), "key": k}) for k, r in enumerate(rules, start=1)]
    awards = allocate(field, rules, pool)
    amounts = prize_amounts(rules, pool)
    for rule in rules:
        own = [a for a in awards if a.category == rule.key]
        covered = {p for a in own for p in range(a.place, a.place + a.shared)}
        due = sum(
            (amounts.get((rule.key, p.place), D(0)) for p in rule.prizes if p.place in covered),
            D(0),
        )
        assert sum((a.amount for a in own), D(0)) == due
        assert all(a.amount == a.amount.quantize(D("0.01")) for a in own)
    blocking = [a.key for a in awards if not rules[a.category - 1].also_for_winners]
    assert len(blocking) == len(set(blocking)), "one prize per player"
    assert all(next(c for c in field if c.key == a.key).eligible for a in awards)


@given(
    st.lists(st.decimals("0.01", "100", places=2), min_size=1, max_size=8),
    st.decimals("0", "9999", places=2),
)
def test_shares_that_make_the_whole_pool_pay_it_out_exactly(weights, pool):
    total = sum(weights)
    percents = [w * 100 / total for w in weights]
    percents = [p.quantize(D("0.01")) for p in percents[:-1]]
    percents.append(D(100) - sum(percents))
    if percents[-1] < 0:
        return
    rule = CategoryRule(
        key=1, name="c", prizes=tuple(PrizeRule(p, SHARE, v) for p, v in enumerate(percents, 1))
    )
    assert sum(prize_amounts([rule], pool).values()) == pool


def test_a_tied_player_left_without_goods_takes_no_prize_and_may_win_later():
    # Players 2 and 3 share 2nd place, whose prize is one bottle of wine: it goes to 2 (start
    # number), and 3 (a senior on 90 points) still wins the seniors' prize over player 4.
    field = [
        player(1, 100),
        player(2, 90, birth_year=1950),
        player(3, 90, birth_year=1950),
        player(4, 10, birth_year=1950),
    ]
    overall = CategoryRule(
        key=1,
        name="Gesamt",
        prizes=(PrizeRule(1, AMOUNT, D("50")), PrizeRule(2, GOODS, goods="Wein")),
    )
    seniors = money("20", key=2, name="Senioren", born_until=1960)
    assert table(allocate(field, [overall, seniors], D("0"))) == [
        (1, 1, 1, 1, D("50.00"), ()),
        (1, 2, 2, 2, D("0.00"), ("Wein",)),
        (2, 3, 1, 1, D("20.00"), ()),
    ]


def test_less_than_a_cent_each_leaves_the_last_of_a_tie_without_a_prize():
    field = [player(1, 5), player(2, 5), player(3, 5)]
    awards = allocate(field, [money("0.02")], D("0"))
    assert [(a.key, a.amount, a.shared) for a in awards] == [(1, D("0.01"), 3), (2, D("0.01"), 3)]


def test_the_tie_breakers_decide_only_where_they_separate():
    # A tournament without tie-breakers: "the tie-breakers decide" leaves equal players equal,
    # and they share.
    field = [player(1, 100), player(2, 100)]
    awards = allocate(field, [money("30", "10", ties=TIEBREAK_TIES)], D("0"))
    assert table(awards) == [(1, 1, 1, 2, D("20.00"), ()), (1, 2, 1, 2, D("20.00"), ())]
