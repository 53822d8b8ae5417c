"""The office's prize page (issue 38): categories and prizes by the director (presets with one
click, own ones, changed, put in order, deleted), refused input that changes nothing, the
computed list with the fee pool, and who may see it."""

import datetime
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from tests.factories import (
    EntryFactory,
    PlayerFactory,
    director,
    five_player_round,
    referee,
)
from tournament.domain import prizes as verbs
from tournament.errors import DomainError
from tournament.models import (
    FeeStatus,
    Measure,
    Prize,
    PrizeCategory,
    PrizeKind,
    Tournament,
    TournamentStatus,
)

pytestmark = pytest.mark.django_db


def page_url(tournament) -> str:
    return reverse("manage:prizes", args=[tournament.slug])


def played(tournament, players=5):
    """``players`` paid players at one table of a closed round: with five, Anna 3, Bernd 1,
    Clara -1, Dieter -1, Emil -2 (the dealer of each game sits out)."""
    Tournament.objects.filter(pk=tournament.pk).update(
        entry_fee=Decimal("10"), planned_rounds=2, date=datetime.date(2026, 11, 28)
    )
    tournament.refresh_from_db()
    names = ["Anna", "Bernd", "Clara", "Dieter", "Emil"]
    entries = [
        EntryFactory(
            tournament=tournament,
            start_number=number,
            player=PlayerFactory(first_name=names[number - 1], last_name="Muster", club="Pik 7"),
            fee=FeeStatus.PAID,
        )
        for number in range(1, players + 1)
    ]
    five_player_round(tournament, entries)
    return entries


def version(tournament) -> int:
    return Tournament.objects.get(pk=tournament.pk).version


def snapshot(tournament) -> list:
    categories = PrizeCategory.objects.filter(tournament=tournament)
    prizes = Prize.objects.filter(category__tournament=tournament)
    return [
        list(categories.values_list("name", "order", "born_from", "born_until")),
        list(prizes.values_list("category_id", "place", "kind", "value", "goods")),
        version(tournament),
    ]


def test_the_director_sees_the_list_with_pool_paid_out_left_and_unawarded_places(
    director_client, tournament, director_user
):
    played(tournament)
    overall = verbs.add_preset(tournament, "overall", user=director_user)  # 50/30/20 %
    goods = verbs.add_category(
        tournament,
        verbs.CategoryData("Tombola"),
        [verbs.PrizeData(place, PrizeKind.GOODS, goods=f"Korb {place}") for place in (1, 2, 3)],
        user=director_user,
    )
    # Only the first two are left for the goods: places 1-3 took the money.
    response = director_client.get(page_url(tournament))
    page = response.content.decode()
    assert response.status_code == 200
    assert "vorläufig" in page
    assert '<a href="/manage/herbst/prizes/" aria-current="page">Preise</a>' in page
    # Pool 50 €: 25 / 15 / 10 to Anna, Bernd and the first of Clara and Dieter (shared 3rd:
    # 5 € each), nothing left.
    assert 'id="pool">50,00 €<' in page
    assert 'id="paid-out">50,00 €<' in page and 'id="left">0,00 €<' in page
    section = page.split(f'id="awards-{overall.pk}"')[1].split("</table>")[0]
    assert "Anna Muster" in section and "25,00\xa0€" in section
    assert section.count("geteilt") == 2  # Clara and Dieter on 3.
    tombola = page.split(f'id="awards-{goods.pk}"')[1].split("</table>")[0]
    assert "Emil Muster" in tombola and "Korb 1" in tombola
    assert "nicht vergeben" in tombola  # places 2 and 3: nobody left


def test_the_list_is_no_longer_provisional_once_finished(director_client, tournament):
    played(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(planned_rounds=1)  # all closed
    assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.FINISHED
    page = director_client.get(page_url(tournament)).content.decode()
    assert "vorläufig" not in page


def test_the_page_is_for_the_tournaments_directors_only(client, tournament):
    url = page_url(tournament)
    assert client.get(url).status_code == 302  # to the login
    client.force_login(referee())
    assert client.get(url).status_code == 403
    client.force_login(director())  # another tournament's director
    assert client.get(url).status_code == 404
    response = client.post(
        reverse("manage:prize-preset", args=[tournament.slug]), {"preset": "women"}
    )
    assert response.status_code == 404
    assert not PrizeCategory.objects.exists()


def test_the_page_reads_a_fixed_number_of_queries(
    director_client, tournament, director_user, django_assert_max_num_queries
):
    played(tournament)
    for key in verbs.PRESETS:
        category = verbs.add_preset(tournament, key, user=director_user)
        if key != "overall":
            verbs.add_prize(
                category, verbs.PrizeData(1, PrizeKind.AMOUNT, Decimal("5")), user=director_user
            )
    # 16: session, user, groups, the tournament; the categories with their prizes (2); the
    # prize list: the standings (6), the five-player tables, its categories with their
    # prizes (2) and the fee sums. Whatever the number of players, categories and prizes.
    with django_assert_max_num_queries(16):
        assert director_client.get(page_url(tournament)).status_code == 200


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("overall", {"name": "Gesamtwertung"}),
        ("women", {"name": "Damen", "sex": "f"}),
        ("seniors", {"name": "Senioren", "born_until": 1966}),
        ("juniors", {"name": "Jugend", "born_from": 2008}),
        ("guests", {"name": "Gäste", "guests_only": True}),
        ("newcomer", {"name": "bester Neuling", "newcomers_only": True}),
        (
            "best-round",
            {"name": "beste Einzelrunde", "measure": Measure.BEST_ROUND, "also_for_winners": True},
        ),
        (
            "best-five-table",
            {"name": "bestes 5er-Tisch-Ergebnis", "measure": Measure.BEST_FIVE_TABLE},
        ),
    ],
)
def test_a_preset_is_one_click(director_client, tournament, key, expected):
    Tournament.objects.filter(pk=tournament.pk).update(date=datetime.date(2026, 6, 1))
    url = reverse("manage:prize-preset", args=[tournament.slug])
    response = director_client.post(url, {"preset": key, "born_until": ""})
    assert response.status_code == 302
    category = PrizeCategory.objects.get(tournament=tournament)
    for field, value in expected.items():
        assert getattr(category, field) == value
    history = category.history.first()
    assert history.history_user.username == "leiterin" and history.history_role == "director"


def test_the_seniors_year_is_the_directors_and_the_overall_shares_come_once(
    director_client, tournament
):
    url = reverse("manage:prize-preset", args=[tournament.slug])
    director_client.post(url, {"preset": "seniors", "born_until": "1961"})
    assert PrizeCategory.objects.get().born_until == 1961
    director_client.post(url, {"preset": "overall"})
    director_client.post(url, {"preset": "overall"})
    shares = Prize.objects.filter(kind=PrizeKind.SHARE).order_by("place")
    assert [p.value for p in shares] == [Decimal("50"), Decimal("30"), Decimal("20")]
    assert list(PrizeCategory.objects.values_list("order", flat=True)) == [0, 1, 2]


@pytest.mark.parametrize(
    ("post", "message"),
    [
        ({"place": "1", "kind": "amount", "value": "20"}, "Platz 1 von „Gesamtwertung“ hat schon"),
        ({"place": "4", "kind": "share", "value": "1"}, "101 %"),
        ({"place": "4", "kind": "share", "value": "1,5"}, "101,5 %"),
        ({"place": "4", "kind": "amount", "value": "-5"}, "nicht negativ"),
        ({"place": "4", "kind": "goods", "value": ""}, "Sagen Sie, was der Preis ist"),
        ({"place": "0", "kind": "amount", "value": "5"}, "größer oder gleich 1"),
    ],
)
def test_a_bad_prize_is_refused_with_a_message_and_changes_nothing(
    director_client, tournament, director_user, post, message
):
    overall = verbs.add_preset(tournament, "overall", user=director_user)
    before = snapshot(tournament)
    url = reverse("manage:prize-add", args=[tournament.slug, overall.pk])
    response = director_client.post(url, post)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert snapshot(tournament) == before


def test_shares_count_over_all_categories_and_an_edit_counts_itself_once(tournament, director_user):
    overall = verbs.add_preset(tournament, "overall", user=director_user)
    women = verbs.add_preset(tournament, "women", user=director_user)
    with pytest.raises(DomainError, match="101"):
        verbs.add_prize(
            women, verbs.PrizeData(1, PrizeKind.SHARE, Decimal("1")), user=director_user
        )
    first = overall.prizes.get(place=1)
    verbs.edit_prize(first, verbs.PrizeData(1, PrizeKind.SHARE, Decimal("40")), user=director_user)
    verbs.add_prize(women, verbs.PrizeData(1, PrizeKind.SHARE, Decimal("10")), user=director_user)
    assert Prize.objects.get(pk=first.pk).value == Decimal("40")


def test_born_from_after_born_until_is_refused_and_changes_nothing(
    director_client, tournament, director_user
):
    seniors = verbs.add_preset(tournament, "seniors", user=director_user)
    before = snapshot(tournament)
    url = reverse("manage:prize-category-edit", args=[tournament.slug, seniors.pk])
    post = {
        "name": "Senioren",
        "measure": "total",
        "ties": "share",
        "born_from": "1970",
        "born_until": "1960",
    }
    response = director_client.post(url, post)
    assert response.status_code == 400
    assert "niemand könnte diese Kategorie gewinnen" in response.content.decode()
    assert snapshot(tournament) == before


def test_a_category_is_changed_moved_and_deleted_with_its_prizes(
    director_client, tournament, director_user
):
    overall = verbs.add_preset(tournament, "overall", user=director_user)
    women = verbs.add_preset(tournament, "women", user=director_user)
    guests = verbs.add_preset(tournament, "guests", user=director_user)
    slug = tournament.slug
    director_client.post(reverse("manage:prize-category-move", args=[slug, guests.pk, "up"]))
    director_client.post(reverse("manage:prize-category-move", args=[slug, overall.pk, "up"]))
    ordered = PrizeCategory.objects.filter(tournament=tournament)
    assert [c.pk for c in ordered] == [overall.pk, guests.pk, women.pk]
    post = {"name": "Damenwertung", "measure": "total", "ties": "tiebreak", "sex": "f"}
    response = director_client.post(
        reverse("manage:prize-category-edit", args=[slug, women.pk]), post
    )
    assert response.status_code == 302
    women.refresh_from_db()
    assert (women.name, women.ties) == ("Damenwertung", "tiebreak")
    director_client.post(reverse("manage:prize-category-delete", args=[slug, overall.pk]))
    assert not PrizeCategory.objects.filter(pk=overall.pk).exists()
    assert not Prize.objects.filter(category_id=overall.pk).exists()
    gone = Prize.history.filter(category_id=overall.pk, history_type="-")
    assert gone.count() == 3 and all(r.history_user_id == director_user.pk for r in gone)


def test_a_prize_is_added_changed_and_deleted_on_the_page(
    director_client, tournament, director_user
):
    women = verbs.add_preset(tournament, "women", user=director_user)
    slug = tournament.slug
    add = reverse("manage:prize-add", args=[slug, women.pk])
    post = {"place": "1", "kind": "goods", "goods": "Präsentkorb"}
    assert director_client.post(add, post).status_code == 302
    prize = Prize.objects.get(category=women)
    edit = reverse("manage:prize-edit", args=[slug, prize.pk])
    assert (
        director_client.post(edit, {"place": "1", "kind": "amount", "value": "12.50"}).status_code
        == 302
    )
    prize.refresh_from_db()
    assert (prize.kind, prize.value) == (PrizeKind.AMOUNT, Decimal("12.50"))
    page = director_client.get(page_url(tournament)).content.decode()
    assert "12,50 €" in page
    director_client.post(reverse("manage:prize-delete", args=[slug, prize.pk]))
    assert not Prize.objects.exists()


def test_every_prize_write_moves_the_tournaments_version(tournament, director_user):
    seen = [version(tournament)]
    category = verbs.add_category(tournament, verbs.CategoryData("Gesamt"), user=director_user)
    seen.append(version(tournament))
    prize = verbs.add_prize(
        category, verbs.PrizeData(1, PrizeKind.AMOUNT, Decimal("5")), user=director_user
    )
    seen.append(version(tournament))
    verbs.edit_prize(prize, verbs.PrizeData(1, PrizeKind.AMOUNT, Decimal("6")), user=director_user)
    seen.append(version(tournament))
    verbs.delete_prize(prize, user=director_user)
    seen.append(version(tournament))
    verbs.delete_category(category, user=director_user)
    seen.append(version(tournament))
    assert seen == sorted(set(seen))  # rose every time


def test_the_page_in_english(director_client, tournament, director_user):
    played(tournament)
    verbs.add_preset(tournament, "overall", user=director_user)
    director_client.cookies["django_language"] = "en"
    page = director_client.get(page_url(tournament), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "provisional" in page and "€50.00" in page and "shared" in page


def test_a_bad_seniors_year_is_refused_and_goods_carry_no_money(
    director_client, tournament, director_user
):
    url = reverse("manage:prize-preset", args=[tournament.slug])
    response = director_client.post(url, {"preset": "seniors", "born_until": "1800"})
    assert response.status_code == 400
    assert "größer oder gleich 1900" in response.content.decode()
    assert not PrizeCategory.objects.exists()
    women = verbs.add_preset(tournament, "women", user=director_user)
    data = verbs.PrizeData(1, PrizeKind.GOODS, Decimal("30"), goods="Korb")
    assert verbs.add_prize(women, data, user=director_user).value == 0


@pytest.mark.parametrize(
    ("language", "typed", "shown"),
    [("de", "12,50", "12,50 €"), ("de", "12,5", "12,50 €"), ("en", "12.50", "€12.50")],
)
def test_the_prize_value_takes_the_decimal_comma_of_the_readers_language(
    director_client, tournament, director_user, language, typed, shown
):
    women = verbs.add_preset(tournament, "women", user=director_user)
    director_client.cookies["django_language"] = language
    url = reverse("manage:prize-add", args=[tournament.slug, women.pk])
    response = director_client.post(url, {"place": "1", "kind": "amount", "value": typed})
    assert response.status_code == 302
    prize = Prize.objects.get(category=women)
    assert prize.value == Decimal("12.50")
    page = director_client.get(page_url(tournament)).content.decode()
    assert shown in page
    assert 'value="12,50"' in page if language == "de" else 'value="12.50"' in page


def category_card(page: str, category) -> str:
    return page.split(f'id="category-{category.pk}"')[1].split("</article>")[0]


def test_a_refused_prize_says_not_saved_at_the_top_and_comes_back_to_its_form(
    director_client, tournament, director_user
):
    overall = verbs.add_preset(tournament, "overall", user=director_user)
    url = reverse("manage:prize-add", args=[tournament.slug, overall.pk])
    response = director_client.post(url, {"place": "1", "kind": "amount", "value": "5"})
    assert response.status_code == 400
    page = response.content.decode()
    top = page.split('<div class="prizes">')[1].split('id="prize-list"')[0]
    assert "Nicht gespeichert: Platz 1 von „Gesamtwertung“ hat schon einen Preis." in top
    assert f'href="#add-prize-{overall.pk}"' in top
    # The form posts to its own anchor: the browser lands on it with the refused input.
    assert f'action="{url}#add-prize-{overall.pk}"' in page
    assert f'<details open class="add-prize" id="add-prize-{overall.pk}">' in page
    response = director_client.post(url, {"place": "4", "kind": "amount", "value": "x"})
    assert "Nicht gespeichert: Bitte das markierte Feld unten korrigieren." in (
        response.content.decode()
    )


def test_a_save_says_so_next_to_its_category_not_at_the_top(
    director_client, tournament, director_user
):
    women = verbs.add_preset(tournament, "women", user=director_user)
    url = reverse("manage:prize-add", args=[tournament.slug, women.pk])
    response = director_client.post(url, {"place": "1", "kind": "goods", "goods": "Rosen"})
    assert response["Location"].endswith(f"#category-{women.pk}")
    page = director_client.get(response["Location"]).content.decode()
    assert "Preis für Platz 1 angelegt." in category_card(page, women)
    assert 'class="messages"' not in page
    page = director_client.get(page_url(tournament)).content.decode()
    assert "angelegt" not in page  # shown once


def test_paying_out_more_than_was_collected_is_pointed_out_not_refused(
    director_client, tournament, director_user
):
    played(tournament)  # 50 € collected
    women = verbs.add_category(tournament, verbs.CategoryData("Alle"), user=director_user)
    page = director_client.get(page_url(tournament)).content.decode()
    assert "Es wird mehr ausgezahlt als eingenommen." not in page
    url = reverse("manage:prize-add", args=[tournament.slug, women.pk])
    response = director_client.post(url, {"place": "1", "kind": "amount", "value": "60,00"})
    assert response.status_code == 302
    page = director_client.get(page_url(tournament)).content.decode()
    assert 'id="left">-10,00 €<' in page
    assert "Es wird mehr ausgezahlt als eingenommen." in page


def test_tie_breakers_chosen_without_tie_breakers_in_the_settings_are_explained(
    director_client, tournament, director_user
):
    decided = verbs.add_category(
        tournament, verbs.CategoryData("Feinwertung", ties="tiebreak"), user=director_user
    )
    shared = verbs.add_category(tournament, verbs.CategoryData("Geteilt"), user=director_user)
    hint = "Dieses Turnier hat keine Feinwertung"
    page = director_client.get(page_url(tournament)).content.decode()
    assert hint in category_card(page, decided) and hint not in category_card(page, shared)
    Tournament.objects.filter(pk=tournament.pk).update(tiebreak="best-round")
    page = director_client.get(page_url(tournament)).content.decode()
    assert hint not in page


def test_a_preset_added_twice_gets_a_distinct_name(tournament, director_user):
    names = [verbs.add_preset(tournament, "women", user=director_user).name for _ in range(3)]
    assert names == ["Damen", "Damen 2", "Damen 3"]


def test_what_another_director_deleted_meanwhile_is_a_message_and_no_write(
    tournament, director_user
):
    overall = verbs.add_preset(tournament, "overall", user=director_user)
    prize = overall.prizes.get(place=1)
    stale_category = PrizeCategory.objects.get(pk=overall.pk)
    stale_prize = Prize.objects.select_related("category").get(pk=prize.pk)
    verbs.delete_category(overall, user=director_user)
    before = snapshot(tournament)
    data = verbs.PrizeData(1, PrizeKind.AMOUNT, Decimal("5"))
    for write in (
        lambda: verbs.edit_category(stale_category, verbs.CategoryData("X"), user=director_user),
        lambda: verbs.delete_category(stale_category, user=director_user),
        lambda: verbs.move_category(stale_category, up=True, user=director_user),
        lambda: verbs.add_prize(stale_category, data, user=director_user),
        lambda: verbs.edit_prize(stale_prize, data, user=director_user),
        lambda: verbs.delete_prize(stale_prize, user=director_user),
    ):
        with pytest.raises(DomainError, match="inzwischen gelöscht"):
            write()
    assert snapshot(tournament) == before


def test_the_page_says_so_when_a_row_went_meanwhile(director_client, tournament, director_user):
    # Two directors on the page: one deletes the overall category, the other then saves,
    # deletes or adds to it (or deletes one of its prizes) from the page read before.
    overall = verbs.add_preset(tournament, "overall", user=director_user)
    prize = overall.prizes.get(place=1)
    verbs.delete_category(overall, user=director_user)
    slug = tournament.slug
    page = reverse("manage:prizes", args=[slug])
    category_said = "Diese Kategorie wurde inzwischen gelöscht"
    for name, args, post, said in [
        ("manage:prize-category-edit", [slug, overall.pk], {"name": "X"}, category_said),
        ("manage:prize-category-delete", [slug, overall.pk], {}, category_said),
        ("manage:prize-add", [slug, overall.pk], {"place": "1"}, category_said),
        ("manage:prize-delete", [slug, prize.pk], {}, "Dieser Preis wurde inzwischen gelöscht"),
    ]:
        response = director_client.post(reverse(name, args=args), post)
        assert response.status_code == 302 and response.url == page, name
        assert said in director_client.get(page).content.decode(), name
    assert not PrizeCategory.objects.exists() and not Prize.objects.exists()


def test_a_reload_of_a_form_address_leads_back_to_the_page(director_client, tournament):
    # After a refused form the address bar holds the form's address: a reload (GET) there
    # shows the prize page, not an empty "405".
    category = PrizeCategory.objects.create(tournament=tournament, name="Damen")
    slug = tournament.slug
    for name, args in [
        ("manage:prize-category-edit", [slug, category.pk]),
        ("manage:prize-add", [slug, category.pk]),
        ("manage:prize-preset", [slug]),
    ]:
        response = director_client.get(reverse(name, args=args))
        assert response.status_code == 302, name
        assert response.url == reverse("manage:prizes", args=[slug]), name


def test_a_goods_prize_is_edited_without_a_value(director_client, tournament, director_user):
    category = verbs.add_category(tournament, verbs.CategoryData("Damen"), user=director_user)
    data = verbs.PrizeData(1, PrizeKind.GOODS, goods="Blumen")
    prize = verbs.add_prize(category, data, user=director_user)
    page = director_client.get(reverse("manage:prizes", args=[tournament.slug])).content.decode()
    field = re.search(rf'<input[^>]*id="prize-{prize.pk}-value"[^>]*>', page).group()
    assert 'value="' not in field  # goods have no value: the form shows none, not "0,00"
    post = {"place": "1", "kind": "goods", "value": "", "goods": "Wein"}
    url = reverse("manage:prize-edit", args=[tournament.slug, prize.pk])
    assert director_client.post(url, post).status_code == 302
    prize.refresh_from_db()
    assert (prize.goods, prize.value) == ("Wein", Decimal("0"))
