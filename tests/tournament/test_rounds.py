"""Drawing rounds in the site: draw, report, swap, release, redraw log, public lookup."""

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, PlayerFactory
from tournament.domain import draw as draw_domain
from tournament.errors import DomainError
from tournament.models import DrawLog, EntryStatus, RoundStatus, Seat
from tournament.queries.sheets import current_round

pytestmark = pytest.mark.django_db


def field(tournament, count, clubs=("A", "B", "C", "D")):
    return [
        EntryFactory(
            tournament=tournament,
            start_number=n,
            checked_in=True,
            player=PlayerFactory(last_name=f"Spieler{n}", club=clubs[n % len(clubs)]),
        )
        for n in range(1, count + 1)
    ]


def seats_by_round(tournament):
    result = {}
    for seat in Seat.objects.filter(round__tournament=tournament).select_related("round", "table"):
        result.setdefault(seat.round.number, []).append(
            (seat.table.number, seat.position, seat.entry_id)
        )
    return {k: sorted(v) for k, v in result.items()}


def test_drawing_the_next_round_seats_every_checked_in_player_once(tournament, director_user):
    entries = field(tournament, 13)
    EntryFactory(tournament=tournament, start_number=99, checked_in=False)
    result = draw_domain.draw(tournament, director_user, seed=5)
    round_ = result.rounds[0]
    assert round_.number == 1 and round_.status == "drawn" and round_.draw_seed == 5
    sizes = sorted(t.size for t in round_.tables.all())
    assert sizes == [4, 4, 5]
    seated = list(round_.seats.values_list("entry_id", flat=True))
    assert sorted(seated) == sorted(e.pk for e in entries)
    log = DrawLog.objects.get(round=round_)
    assert (log.action, log.seed, log.user) == ("draw", 5, director_user)


def test_the_same_seed_reproduces_the_draw(tournament, director_user):
    field(tournament, 16)
    draw_domain.draw(tournament, director_user, all_rounds=True, seed=11)
    first = seats_by_round(tournament)
    draw_domain.draw(tournament, director_user, all_rounds=True, seed=11)
    assert seats_by_round(tournament) == first
    actions = list(DrawLog.objects.filter(round__number=1).values_list("action", flat=True))
    assert actions == ["draw", "redraw"]


def test_released_rounds_stay_fixed_and_late_entries_join_the_next(tournament, director_user):
    entries = field(tournament, 12)
    round_one = draw_domain.draw(tournament, director_user, seed=1).rounds[0]
    draw_domain.release(round_one, director_user)
    before = seats_by_round(tournament)[1]
    late = EntryFactory(tournament=tournament, start_number=50, checked_in=True)
    entries[0].status = EntryStatus.WITHDRAWN
    entries[0].save()
    result = draw_domain.draw(tournament, director_user, seed=2)
    assert result.rounds[0].number == 2
    assert seats_by_round(tournament)[1] == before
    seated = set(result.rounds[0].seats.values_list("entry_id", flat=True))
    assert late.pk in seated and entries[0].pk not in seated and len(seated) == 12


def tables_of(round_):
    tables = {}
    for table_id, entry_id in round_.seats.values_list("table_id", "entry_id"):
        tables.setdefault(table_id, set()).add(entry_id)
    return {frozenset(t) for t in tables.values()}


def test_the_next_draw_keeps_the_round_the_last_draw_planned(tournament, director_user):
    """Drawing round 1 plans all three rounds and logs the plan; once round 1 is played as
    drawn, drawing round 2 seats the tables that plan had for it (issue 17, point 4)."""
    field(tournament, 23)
    round_one = draw_domain.draw(tournament, director_user, seed=1).rounds[0]
    plan = DrawLog.objects.get(round=round_one).plan
    assert len(plan) == tournament.planned_rounds == 3
    assert tables_of(round_one) == {frozenset(t) for t in plan[0]}
    draw_domain.release(round_one, director_user)
    round_two = draw_domain.draw(tournament, director_user, seed=2).rounds[0]
    assert tables_of(round_two) == {frozenset(t) for t in plan[1]}
    assert DrawLog.objects.get(round=round_two).plan[1] == [
        list(t) for t in sorted_tables(round_two)
    ]


def sorted_tables(round_):
    return [
        [s.entry_id for s in sorted(table.seats.all(), key=lambda s: s.position)]
        for table in round_.tables.order_by("number")
    ]


def test_an_impossible_field_is_refused_with_what_to_do(tournament, director_user):
    field(tournament, 7)
    with pytest.raises(DomainError, match="7 Spieler") as info:
        draw_domain.draw(tournament, director_user)
    assert "1" in info.value.message and "2" in info.value.message
    assert not tournament.rounds.exists()


def test_swap_exchanges_two_seats_and_release_freezes_the_round(tournament, director_user):
    entries = field(tournament, 8)
    round_ = draw_domain.draw(tournament, director_user, seed=3).rounds[0]
    a, b = entries[0], entries[1]
    seat_a = Seat.objects.get(round=round_, entry=a)
    seat_b = Seat.objects.get(round=round_, entry=b)
    draw_domain.swap(round_, a.start_number, b.start_number, director_user)
    moved = Seat.objects.get(round=round_, entry=a)
    assert (moved.table_id, moved.position) == (seat_b.table_id, seat_b.position)
    assert Seat.objects.get(round=round_, entry=b).position == seat_a.position
    draw_domain.release(round_, director_user)
    with pytest.raises(DomainError):
        draw_domain.swap(round_, a.start_number, b.start_number, director_user)


def test_club_separation_keeps_clubs_apart_in_the_first_rounds(tournament, director_user):
    tournament.separate_clubs_rounds = 1
    tournament.save()
    field(tournament, 16)
    round_ = draw_domain.draw(tournament, director_user, seed=4).rounds[0]
    for table in round_.tables.prefetch_related("seats__entry__player"):
        clubs = [s.entry.player.club for s in table.seats.all()]
        assert len(set(clubs)) == len(clubs), clubs


def test_the_director_pages_draw_report_swap_and_release(director_client, tournament):
    entries = field(tournament, 9)
    response = director_client.post(
        reverse("manage:round-draw", args=[tournament.slug]), {"seed": "7"}, follow=True
    )
    page = response.content.decode()
    assert "Runde 1 ausgelost" in page and "Wiederholte Begegnungen" in page
    assert page.count('class="card table-card"') == 2
    swap_url = reverse("manage:round-swap", args=[tournament.slug, 1])
    page = director_client.post(
        swap_url,
        {"first": entries[0].start_number, "second": entries[1].start_number},
        follow=True,
    ).content.decode()
    assert "Plätze getauscht" in page
    page = director_client.post(
        swap_url, {"first": "1", "second": "77"}, follow=True
    ).content.decode()
    assert "Startnummer 77 hat in dieser Runde keinen Platz" in page
    release_url = reverse("manage:round-release", args=[tournament.slug, 1])
    page = director_client.post(release_url, follow=True).content.decode()
    assert "Runde 1 freigegeben" in page
    assert tournament.rounds.get(number=1).status == "released"


def test_where_do_i_sit_shows_released_rounds_only(client, tournament, director_user):
    tournament.is_public = True
    tournament.save()
    entries = field(tournament, 8)
    draw_domain.draw(tournament, director_user, seed=1)
    url = reverse("where-do-i-sit", args=[tournament.slug])
    page = client.get(url, {"q": "Spieler3"}).content.decode()
    assert "Noch keine Runde freigegeben" in page
    draw_domain.release(tournament.rounds.get(number=1), director_user)
    seat = Seat.objects.get(entry=entries[2])
    page = client.get(url, {"q": str(entries[2].start_number)}).content.decode()
    now = f"Runde 1: Tisch {seat.table.number}, Position {seat.position}"
    assert now in page
    assert "Niemand gefunden" in client.get(url, {"q": "Unbekannt"}).content.decode()


def test_redrawing_a_round_resets_later_rounds_drawn_in_advance(tournament, director_user):
    field(tournament, 12)
    draw_domain.draw(tournament, director_user, all_rounds=True, seed=1)
    assert [r.status for r in tournament.rounds.order_by("number")] == ["drawn"] * 3
    with pytest.raises(DomainError, match="Zuerst muss Runde 1 freigegeben und abgeschlossen"):
        draw_domain.release(tournament.rounds.get(number=2), director_user)
    draw_domain.draw(tournament, director_user, seed=2)
    statuses = [(r.status, r.tables.count()) for r in tournament.rounds.order_by("number")]
    assert statuses == [("drawn", 3), ("planned", 0), ("planned", 0)]


def test_nobody_checked_in_means_nothing_to_draw(tournament, director_user):
    EntryFactory(tournament=tournament, checked_in=False)
    with pytest.raises(DomainError, match="niemand eingecheckt"):
        draw_domain.draw(tournament, director_user)


# --- one round at a time ------------------------------------------------------------------


def _two_rounds_round_one_running(tournament, director_user):
    field(tournament, 12)
    draw_domain.draw(tournament, director_user, all_rounds=True, seed=1)
    one, two = tournament.rounds.get(number=1), tournament.rounds.get(number=2)
    draw_domain.release(one, director_user)
    return one, two


def test_a_round_is_released_only_after_the_one_before_is_closed(tournament, director_user):
    one, two = _two_rounds_round_one_running(tournament, director_user)
    assert current_round(tournament) == one
    with pytest.raises(DomainError, match="Runde 1 wird noch gespielt") as refused:
        draw_domain.release(two, director_user)
    assert "Runde 2 freigegeben" in refused.value.message
    two.refresh_from_db()
    assert two.status == RoundStatus.DRAWN and two.started_at is None
    # Round 1 closed (its sheets are checked in test_sheets): now round 2 may start, and it
    # is the current round for every page.
    one.status = RoundStatus.CLOSED
    one.save()
    draw_domain.release(two, director_user)
    two.refresh_from_db()
    assert two.status == RoundStatus.RELEASED and current_round(tournament) == two


def test_the_refusal_names_the_round_just_before(tournament, director_user):
    """Round 1 running, rounds 2 and 3 drawn: round 3 waits for round 2, not for round 1."""
    tournament.planned_rounds = 3
    tournament.save()
    _two_rounds_round_one_running(tournament, director_user)
    three = tournament.rounds.get(number=3)
    with pytest.raises(
        DomainError, match="Zuerst muss Runde 2 freigegeben und abgeschlossen werden"
    ):
        draw_domain.release(three, director_user)


def test_the_round_page_says_why_it_cannot_be_released(director_client, tournament, director_user):
    _one, two = _two_rounds_round_one_running(tournament, director_user)
    url = reverse("manage:round-detail", args=[tournament.slug, 2])
    page = director_client.get(url).content.decode()
    assert 'id="release-blocker"' in page and "Runde 1 wird noch gespielt" in page
    assert "Runde 2 freigeben</button>" not in page
    # A form sent anyway (an old page) is refused with the same words.
    release = reverse("manage:round-release", args=[tournament.slug, 2])
    answer = director_client.post(release, follow=True).content.decode()
    assert "Runde 1 wird noch gespielt" in answer
    two.refresh_from_db()
    assert two.status == RoundStatus.DRAWN


def test_the_first_round_page_offers_the_release(director_client, tournament, director_user):
    field(tournament, 12)
    draw_domain.draw(tournament, director_user, seed=1)
    page = director_client.get(reverse("manage:round-detail", args=[tournament.slug, 1]))
    html = page.content.decode()
    assert "Runde 1 freigeben</button>" in html and 'id="release-blocker"' not in html


def test_a_draw_cut_short_by_the_clock_says_so(director_client, tournament, monkeypatch):
    """The work budget decides a draw; only on a hopelessly busy machine does the clock stop
    it, and then the director learns that the seed may not give the same plan again."""
    from tournament.seating import solver

    class Hopeless:  # a minute passes at every look at the clock
        now = 0.0

        def perf_counter(self) -> float:
            self.now += 60.0
            return self.now

    monkeypatch.setattr(solver, "time", Hopeless())
    field(tournament, 18)
    response = director_client.post(
        reverse("manage:round-draw", args=[tournament.slug]), {"seed": "7"}, follow=True
    )
    page = response.content.decode()
    assert "Runde 1 ausgelost" in page
    assert "der computer war zu beschäftigt" in page.lower()
    assert "von der Uhr abgebrochen" in page  # the draw log on the round page
    assert DrawLog.objects.get(action=DrawLog.Action.DRAW).cut_by_clock


def test_the_round_page_says_when_fair_five_tables_cost_repeats(
    director_client, tournament, director_user
):
    """9 players in 2 rounds: fair 5-tables (one player there twice) force 12 repeat
    encounters, 6 would do if three players sat at the 5-table twice. The director reads
    both figures in words (issue 17)."""
    tournament.planned_rounds = 2
    tournament.save()
    field(tournament, 9)
    draw_domain.draw(tournament, director_user, all_rounds=True, seed=3, time_limit=0.5)
    log = DrawLog.objects.get(round__number=1)
    assert log.plan_repeats == 12 and log.unfair_repeats == 6 and log.unfair_spread == 2
    url = reverse("manage:round-detail", args=[tournament.slug, 1])
    page = director_client.get(url).content.decode()
    assert "Gerechte Fünfertische gehen vor" in page
    assert "der Plan für alle 2 Runden hat 12" in page and "einen Plan mit 6" in page
    assert "in 2 Runden mehr am Fünfertisch" in page
    director_client.cookies["django_language"] = "en"
    english = director_client.get(url).content.decode()
    assert "Fair 5-tables come first" in english
    assert "the plan for all 2 rounds has 12" in english


def test_no_fairness_note_where_fair_five_tables_cost_nothing(
    director_client, tournament, director_user
):
    """25 players in 5 rounds: the stored plan is fair and has no repeat at all."""
    tournament.planned_rounds = 5
    tournament.save()
    field(tournament, 25)
    draw_domain.draw(tournament, director_user, seed=3, time_limit=0.5)
    log = DrawLog.objects.get(round__number=1)
    assert log.repeat_pairs == 0 and log.unfair_repeats is None
    page = director_client.get(reverse("manage:round-detail", args=[tournament.slug, 1]))
    assert "fairness-cost" not in page.content.decode()


def same_club_pairs(round_):
    """Two players of one club at one table in ``round_``, counted from the seats."""
    count = 0
    for table in round_.tables.prefetch_related("seats__entry__player"):
        clubs = [s.entry.player.club for s in table.seats.all()]
        count += sum(clubs[i] == clubs[j] for i in range(len(clubs)) for j in range(i))
    return count


def test_club_conflicts_count_every_round_as_the_caption_says(
    director_client, tournament, director_user
):
    # Issue 35: the figure stayed at round 1's 7 in rounds 2 and 3 (counted only where
    # clubs are kept apart) while the caption says "over all rounds"; real were 7 / 13 / 18.
    tournament.separate_clubs_rounds = 1
    tournament.planned_rounds = 3
    tournament.save()
    field(tournament, 16, clubs=("A", "B"))  # two clubs of eight: conflicts are unavoidable
    draw_domain.draw(tournament, director_user, all_rounds=True, seed=2)
    rounds = list(tournament.rounds.order_by("number"))
    real = [same_club_pairs(r) for r in rounds]
    assert real[1] > 0 and real[2] > 0
    for number in (1, 2, 3):
        page = director_client.get(
            reverse("manage:round-detail", args=[tournament.slug, number])
        ).content.decode()
        assert f'<dd id="club-conflicts">{sum(real[:number])}</dd>' in page
        assert "Vereinskonflikte: zwei Spieler eines Vereins an einem Tisch." in page
        assert f"Davon {real[0]} in Runde 1, in der die Auslosung Vereine trennt." in page
    report = draw_domain.round_report(rounds[2])
    assert (report.club_pairs, report.kept_apart, report.kept_apart_rounds) == (
        sum(real),
        real[0],
        1,
    )
