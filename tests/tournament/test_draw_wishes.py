"""Seat wishes in the site's draw (issue 39): never-together groups, fixed tables and teams
kept apart hold in every way a plan is made (all at once, round by round, after a withdrawal
or a late entry, on a redraw), a draw that cannot keep them is refused with the players
named, the round page says what the wishes cost, and a swap that breaks one warns."""

import dataclasses

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, PlayerFactory
from tests.tournament.test_draw_lock import nothing_written, solver_that
from tournament import seating
from tournament.domain import draw as draw_domain
from tournament.errors import DomainError
from tournament.models import (
    ApartGroup,
    DrawLog,
    Entry,
    EntryStatus,
    Round,
    RoundStatus,
    Seat,
    Team,
)
from tournament.wording.findings import (
    impossible_wishes_message,
    wish_cost_message,
    wishes_cost,
)

pytestmark = pytest.mark.django_db

LIMIT = 0.5  # seconds of solver effort: enough for these small fields


def field(tournament, count, first=1):
    return [
        EntryFactory(
            tournament=tournament,
            start_number=n,
            checked_in=True,
            player=PlayerFactory(first_name="Vorname", last_name=f"Spieler{n}", club=""),
        )
        for n in range(first, first + count)
    ]


def never_together(tournament, *entries):
    group = ApartGroup.objects.create(tournament=tournament)
    Entry.objects.filter(pk__in=[e.pk for e in entries]).update(apart_group=group)
    return group


def fix_table(entry, number):
    Entry.objects.filter(pk=entry.pk).update(fixed_table=number)


def plan_rounds(tournament, count):
    type(tournament).objects.filter(pk=tournament.pk).update(planned_rounds=count)
    tournament.refresh_from_db()


def tables_of(tournament):
    """round number -> table number -> set of entry ids, from the seats as written."""
    result: dict[int, dict[int, set[int]]] = {}
    rows = Seat.objects.filter(round__tournament=tournament).values_list(
        "round__number", "table__number", "entry_id"
    )
    for number, table, entry in rows:
        result.setdefault(number, {}).setdefault(table, set()).add(entry)
    return result


def assert_wishes_hold(tournament, groups, fixed, rounds):
    """In each of ``rounds``: no two members of a group (entry lists) at one table, and
    every (entry, number) of ``fixed`` at that table."""
    seated = tables_of(tournament)
    for number in rounds:
        tables = seated[number]
        for table in tables.values():
            for group in groups:
                together = table & {e.pk for e in group}
                assert len(together) < 2, (number, together)
        for entry, table_number in fixed:
            assert entry.pk in tables[table_number], (number, entry.start_number)


def play(tournament, number, director_user):
    """Round ``number`` is released (the one before closed), so the next draw continues."""
    Round.objects.filter(tournament=tournament, number__lt=number).update(status=RoundStatus.CLOSED)
    draw_domain.release(tournament.rounds.get(number=number), director_user)


# --- what a draw depends on ---------------------------------------------------------------


def test_the_snapshot_holds_the_wishes_of_the_checked_in_field(tournament):
    entries = field(tournament, 12)
    e = {entry.start_number: entry for entry in entries}
    never_together(tournament, e[1], e[7], e[12])
    never_together(tournament, e[3], e[4])  # e[4] withdraws: the pair is left with one
    Entry.objects.filter(pk=e[4].pk).update(status=EntryStatus.WITHDRAWN)
    late = EntryFactory(tournament=tournament, start_number=20, checked_in=False)
    never_together(tournament, e[5], late)  # late has not checked in
    fix_table(e[9], 2)
    fix_table(e[2], 1)
    fix_table(late, 3)
    blue = Team.objects.create(tournament=tournament, name="Blau")
    red = Team.objects.create(tournament=tournament, name="Rot")
    Entry.objects.filter(pk__in=[e[8].pk, e[6].pk, e[10].pk]).update(team=blue)
    Entry.objects.filter(pk=e[11].pk).update(team=red)  # a team of one keeps nobody apart

    snapshot = draw_domain._snapshot(tournament)
    assert snapshot.apart == (tuple(sorted([e[1].pk, e[7].pk, e[12].pk])),)
    assert snapshot.at_table == tuple(sorted([(e[9].pk, 2), (e[2].pk, 1)]))
    assert not snapshot.teams_apart

    type(tournament).objects.filter(pk=tournament.pk).update(teams_apart=True)
    tournament.refresh_from_db()
    snapshot = draw_domain._snapshot(tournament)
    team = tuple(sorted([e[6].pk, e[8].pk, e[10].pk]))
    assert snapshot.apart == tuple(sorted([tuple(sorted([e[1].pk, e[7].pk, e[12].pk])), team]))
    assert snapshot.teams_apart
    request = snapshot.request(seed=1, time_limit=1)
    assert list(request.apart) == [frozenset(g) for g in snapshot.apart]
    assert request.at_table == {e[9].pk: 2, e[2].pk: 1}
    assert request.wishes


def test_without_wishes_the_request_log_and_page_are_as_before(
    director_client, tournament, director_user
):
    field(tournament, 12)
    request = draw_domain._snapshot(tournament).request(seed=1, time_limit=1)
    assert request.apart == [] and request.at_table == {} and not request.wishes
    draw_domain.draw(tournament, director_user, seed=1, time_limit=LIMIT)
    assert DrawLog.objects.get().wish_cost is None
    page = director_client.get(reverse("manage:round-detail", args=[tournament.slug, 1]))
    html = page.content.decode()
    assert 'id="quality-report"' in html
    assert "wish-cost" not in html and "wish-violations" not in html


# --- the wishes hold --------------------------------------------------------------------


def test_wishes_hold_in_every_round_drawn_at_once(director_client, tournament, director_user):
    plan_rounds(tournament, 5)
    entries = field(tournament, 21)
    couple = [entries[0], entries[10]]
    three = [entries[1], entries[2], entries[3]]
    never_together(tournament, *couple)
    never_together(tournament, *three)
    fixed = [(entries[20], 1), (entries[5], 4)]
    for entry, number in fixed:
        fix_table(entry, number)
    draw_domain.draw(tournament, director_user, all_rounds=True, seed=3, time_limit=LIMIT)
    assert_wishes_hold(tournament, [couple, three], fixed, range(1, 6))
    logs = list(DrawLog.objects.filter(round__tournament=tournament).order_by("round__number"))
    assert len(logs) == 5 and all(log.wish_cost == logs[0].wish_cost for log in logs)
    cost = logs[0].wish_cost
    plan = logs[0].plan
    quality = seating.evaluate(plan)
    assert {k: cost[k] for k in ("groups", "players", "fixed", "teams")} == {
        "groups": 2,
        "players": 5,
        "fixed": 2,
        "teams": 0,
    }
    # the tournament keeps no clubs apart: the banner names no club conflicts
    assert (cost["repeats"], cost["spread"], cost["clubs"]) == (
        quality.repeat_pairs,
        quality.five_table_spread,
        None,
    )
    # the bound counts what the wishes force: at least the plain bound, at most the plan
    assert quality.lower_bound <= cost["lower_bound"] <= cost["repeats"]
    # the best plan without the wishes is never worse than the one with them
    assert cost["without"] is not None and cost["without"]["repeats"] <= cost["repeats"]
    page = director_client.get(reverse("manage:round-detail", args=[tournament.slug, 1]))
    html = page.content.decode()
    assert 'id="wish-cost"' in html
    assert (
        "Mit den Sitzwünschen (2 Nie-zusammen-Gruppen mit 5 Spielern, 2 feste Tische) hat "
        f"der ganze Plan (Runden: 5) {cost['repeats']} wiederholte Begegnungen "
        f"(untere Schranke {cost['lower_bound']})"
    ) in html
    assert '<dd id="wish-violations">0</dd>' in html and 'id="wish-breaks"' not in html


def test_wishes_hold_round_by_round(tournament, director_user):
    """Each draw continues the plan of the one before; the wishes hold in each new round
    and the fixed player keeps the table."""
    plan_rounds(tournament, 4)
    entries = field(tournament, 13)
    couple = [entries[2], entries[8]]
    never_together(tournament, *couple)
    fixed = [(entries[12], 2)]
    fix_table(entries[12], 2)
    for number in range(1, 5):
        result = draw_domain.draw(tournament, director_user, seed=number, time_limit=LIMIT)
        assert [r.number for r in result.rounds] == [number]
        play(tournament, number, director_user)
    assert_wishes_hold(tournament, [couple], fixed, range(1, 5))
    costs = DrawLog.objects.filter(action=DrawLog.Action.DRAW).values_list("wish_cost", flat=True)
    assert len(costs) == 4 and all(cost["groups"] == 1 and cost["fixed"] == 1 for cost in costs)


def test_after_a_withdrawal_the_rest_of_the_group_stays_apart(tournament, director_user):
    plan_rounds(tournament, 3)
    entries = field(tournament, 17)
    three = [entries[0], entries[4], entries[9]]
    never_together(tournament, *three)
    draw_domain.draw(tournament, director_user, seed=1, time_limit=LIMIT)
    play(tournament, 1, director_user)
    Entry.objects.filter(pk=entries[4].pk).update(status=EntryStatus.WITHDRAWN)
    draw_domain.draw(tournament, director_user, all_rounds=True, seed=2, time_limit=LIMIT)
    seated = tables_of(tournament)
    assert all(entries[4].pk not in t for n in (2, 3) for t in seated[n].values())
    assert_wishes_hold(tournament, [three], [], range(1, 4))


def test_a_late_entry_with_wishes_joins_them_from_the_next_draw(tournament, director_user):
    plan_rounds(tournament, 3)
    entries = field(tournament, 16)
    draw_domain.draw(tournament, director_user, seed=1, time_limit=LIMIT)
    play(tournament, 1, director_user)
    late = field(tournament, 1, first=40)[0]
    couple = [late, entries[3]]
    never_together(tournament, *couple)
    fix_table(late, 3)
    draw_domain.draw(tournament, director_user, all_rounds=True, seed=2, time_limit=LIMIT)
    assert all(late.pk not in t for t in tables_of(tournament)[1].values())
    assert_wishes_hold(tournament, [couple], [(late, 3)], (2, 3))


def test_a_redraw_keeps_the_wishes_and_the_same_seed_the_same_plan(tournament, director_user):
    plan_rounds(tournament, 4)
    entries = field(tournament, 18)
    couple = [entries[0], entries[1]]
    never_together(tournament, *couple)
    fix_table(entries[17], 1)
    wishes = ([couple], [(entries[17], 1)], range(1, 5))
    draw_domain.draw(tournament, director_user, all_rounds=True, seed=5, time_limit=LIMIT)
    first = tables_of(tournament)
    assert_wishes_hold(tournament, *wishes)
    draw_domain.draw(tournament, director_user, all_rounds=True, seed=6, time_limit=LIMIT)
    assert_wishes_hold(tournament, *wishes)
    draw_domain.draw(tournament, director_user, all_rounds=True, seed=5, time_limit=LIMIT)
    assert tables_of(tournament) == first
    redraws = DrawLog.objects.filter(action=DrawLog.Action.REDRAW)
    assert redraws.count() == 8 and all(log.wish_cost for log in redraws)


def test_team_mates_never_meet_when_the_teams_are_kept_apart(
    director_client, tournament, director_user
):
    type(tournament).objects.filter(pk=tournament.pk).update(teams_apart=True, planned_rounds=4)
    tournament.refresh_from_db()
    entries = field(tournament, 16)
    teams = [entries[i : i + 4] for i in range(0, 16, 4)]
    for number, members in enumerate(teams):
        team = Team.objects.create(tournament=tournament, name=f"Team {number}")
        Entry.objects.filter(pk__in=[e.pk for e in members]).update(team=team)
    draw_domain.draw(tournament, director_user, all_rounds=True, seed=2, time_limit=LIMIT)
    assert_wishes_hold(tournament, teams, [], range(1, 5))
    cost = DrawLog.objects.filter(round__number=1).get().wish_cost
    # the teams are named as teams, not as never-together groups the director entered
    assert (cost["groups"], cost["players"], cost["teams"]) == (0, 0, 4)
    page = director_client.get(reverse("manage:round-detail", args=[tournament.slug, 1]))
    banner = page.content.decode().split('id="wish-cost">')[1].split("</p>")[0]
    assert "4 Teams getrennt" in banner and "Nie-zusammen" not in banner


# --- refusals -----------------------------------------------------------------------------


def refused_draw(tournament, director_user) -> str:
    """The draw's refusal of the seat wishes, once it is clear the draw wrote nothing."""
    with pytest.raises(DomainError) as refused:
        draw_domain.draw(tournament, director_user, seed=1, time_limit=LIMIT)
    assert nothing_written(tournament)
    return refused.value.message


def test_a_group_larger_than_the_tables_is_refused_naming_the_players(tournament, director_user):
    entries = field(tournament, 9)  # two tables
    never_together(tournament, entries[1], entries[3], entries[6])
    assert refused_draw(tournament, director_user) == (
        "Diese 3 Spieler dürfen nie an einem Tisch sitzen, aber das Feld hat nur 2 Tische: "
        "2 Vorname Spieler2, 4 Vorname Spieler4, 7 Vorname Spieler7. Verkleinern Sie die "
        "Gruppe oder checken Sie mehr Spieler ein."
    )


def test_every_group_too_large_is_named_in_one_refusal(tournament, director_user):
    """Each impossible wish gets its sentence (the groups by their first start number), so
    the director mends them all before drawing again."""
    entries = field(tournament, 9)  # two tables
    never_together(tournament, entries[1], entries[3], entries[6])
    never_together(tournament, entries[0], entries[2], entries[8])
    fix_table(entries[4], 3)
    assert refused_draw(tournament, director_user) == (
        "Das Feld hat nur 2 Tische, diese festen Tische gibt es also nicht: "
        "5 Vorname Spieler5 (Tisch 3). Ändern Sie den festen Tisch oder checken Sie mehr "
        "Spieler ein. "
        "Diese 3 Spieler dürfen nie an einem Tisch sitzen, aber das Feld hat nur 2 Tische: "
        "1 Vorname Spieler1, 3 Vorname Spieler3, 9 Vorname Spieler9. Verkleinern Sie die "
        "Gruppe oder checken Sie mehr Spieler ein. "
        "Diese 3 Spieler dürfen nie an einem Tisch sitzen, aber das Feld hat nur 2 Tische: "
        "2 Vorname Spieler2, 4 Vorname Spieler4, 7 Vorname Spieler7. Verkleinern Sie die "
        "Gruppe oder checken Sie mehr Spieler ein."
    )


def test_a_team_too_large_for_the_tables_is_named_as_the_team(director_client, tournament):
    type(tournament).objects.filter(pk=tournament.pk).update(teams_apart=True)
    entries = field(tournament, 8)
    team = Team.objects.create(tournament=tournament, name="Kreuzbuben")
    Entry.objects.filter(pk__in=[e.pk for e in entries[:3]]).update(team=team)
    response = director_client.post(
        reverse("manage:round-draw", args=[tournament.slug]), {"seed": "1"}, follow=True
    )
    assert (
        "Team Kreuzbuben hat 3 eingecheckte Spieler, aber das Feld hat nur 2 Tische, also "
        "können die Teammitglieder nicht alle getrennt sitzen: 1 Vorname Spieler1, "
        "2 Vorname Spieler2, 3 Vorname Spieler3."
    ) in response.content.decode()
    assert nothing_written(tournament)


def test_a_fixed_table_the_field_lacks_is_refused(tournament, director_user):
    entries = field(tournament, 12)
    fix_table(entries[4], 4)
    assert refused_draw(tournament, director_user) == (
        "Das Feld hat nur 3 Tische, diese festen Tische gibt es also nicht: "
        "5 Vorname Spieler5 (Tisch 4). Ändern Sie den festen Tisch oder checken Sie mehr "
        "Spieler ein."
    )


def test_two_players_fixed_to_one_table_are_refused(tournament, director_user):
    entries = field(tournament, 12)
    fix_table(entries[4], 2)
    fix_table(entries[0], 2)
    assert "Nur ein Spieler kann an einem Tisch fest sitzen" in refused_draw(
        tournament, director_user
    )


@pytest.mark.parametrize(
    "reason, german",
    [
        ("too_many_groups", "Die Nie-zusammen-Wünsche passen nicht alle an die 3 Tische"),
        ("not_found", "Die Auslosung fand keinen Plan, der jeden Sitzwunsch hält"),
    ],
)
def test_the_solvers_refusal_becomes_a_message_naming_the_players(
    monkeypatch, tournament, director_user, reason, german
):
    """The reasons the small fields above do not reach: the message names the players the
    solver gives, by start number and name, in start-number order."""
    entries = field(tournament, 12)
    never_together(tournament, entries[5], entries[2])

    def refuse(request):
        raise seating.ImpossibleWishes(reason, [entries[5].pk, entries[2].pk], 3)

    monkeypatch.setattr(seating, "draw", refuse)
    with pytest.raises(DomainError) as refused:
        draw_domain.draw(tournament, director_user, seed=1)
    assert german in refused.value.message
    assert "3 Vorname Spieler3, 6 Vorname Spieler6" in refused.value.message
    assert nothing_written(tournament)


def test_every_refusal_reads_in_english_too():
    from django.utils import translation

    with translation.override("en"):
        assert impossible_wishes_message("group_too_large", ["1 A", "2 B"], 1) == (
            "These 2 players must never share a table, but the field has only 1 table: "
            "1 A, 2 B. Make the group smaller or check in more players."
        )
        assert "Only one player can be fixed to a table: 1 A (table 2), 2 B (table 2)" in (
            impossible_wishes_message("same_table", ["1 A (table 2)", "2 B (table 2)"], 3)
        )
        assert "Team Blau has 2 checked-in players" in impossible_wishes_message(
            "group_too_large", ["1 A", "2 B"], 1, team="Blau"
        )


def change_a_group(tournament, entries):
    return lambda: never_together(tournament, entries[0], entries[1])


def change_a_fixed_table(tournament, entries):
    return lambda: fix_table(entries[0], 2)


def turn_teams_apart_on(tournament, entries):
    def change():
        team = Team.objects.create(tournament=tournament, name="Neu")
        Entry.objects.filter(pk__in=[entries[0].pk, entries[1].pk]).update(team=team)
        type(tournament).objects.filter(pk=tournament.pk).update(teams_apart=True)

    return change


@pytest.mark.parametrize("change", [change_a_group, change_a_fixed_table, turn_teams_apart_on])
def test_wishes_changed_during_the_solve_refuse_the_write(
    monkeypatch, tournament, director_user, change
):
    entries = field(tournament, 12)
    solver_that(monkeypatch, change(tournament, entries))
    with pytest.raises(DomainError, match="Inzwischen hat sich etwas geändert"):
        draw_domain.draw(tournament, director_user, all_rounds=True, seed=1, time_limit=LIMIT)
    assert nothing_written(tournament)


# --- a swap that breaks a wish --------------------------------------------------------------


def test_a_swap_that_breaks_a_wish_is_made_with_a_warning(director_client, tournament):
    entries = field(tournament, 12)
    anna, bernd = entries[0], entries[6]
    never_together(tournament, anna, bernd)
    fix_table(entries[11], 1)
    director_client.post(
        reverse("manage:round-draw", args=[tournament.slug]), {"seed": "4"}, follow=True
    )
    round_ = tournament.rounds.get(number=1)
    table_of = {s.entry_id: s.table.number for s in round_.seats.select_related("table")}
    beside_bernd = next(
        e for e in entries if table_of[e.pk] == table_of[bernd.pk] and e not in (bernd, entries[11])
    )
    url = reverse("manage:round-swap", args=[tournament.slug, 1])
    page = director_client.post(
        url, {"first": anna.start_number, "second": beside_bernd.start_number}, follow=True
    ).content.decode()
    assert "Plätze getauscht" in page
    assert (
        "Der Tausch bricht einen Sitzwunsch: 1 Vorname Spieler1, 7 Vorname Spieler7 sitzen "
        f"an Tisch {table_of[bernd.pk]} zusammen, dürfen aber nie an einem Tisch sitzen."
    ) in page
    assert Seat.objects.get(round=round_, entry=anna).table.number == table_of[bernd.pk]
    assert '<dd id="wish-violations">1</dd>' in page and 'id="wish-breaks"' in page
    # the fixed player moved away from table 1: a warning too
    other = next(e for e in entries if table_of[e.pk] != 1 and e not in (anna, bernd))
    page = director_client.post(
        url, {"first": entries[11].start_number, "second": other.start_number}, follow=True
    ).content.decode()
    assert "12 Vorname Spieler12 sitzt an Tisch" in page and "statt am festen Tisch 1" in page
    # a swap that keeps every wish warns of nothing
    plain = [e for e in entries if e not in (anna, bernd, entries[11], other, beside_bernd)]
    page = director_client.post(
        url, {"first": plain[0].start_number, "second": plain[1].start_number}, follow=True
    ).content.decode()
    assert "Plätze getauscht" in page and "Der Tausch bricht" not in page


def test_the_wish_cost_reads_in_english(director_client, tournament, director_user):
    plan_rounds(tournament, 3)
    entries = field(tournament, 12)
    never_together(tournament, entries[0], entries[1])
    type(tournament).objects.filter(pk=tournament.pk).update(teams_apart=True)
    draw_domain.draw(tournament, director_user, all_rounds=True, seed=1, time_limit=LIMIT)
    cost = DrawLog.objects.filter(round__number=1).get().wish_cost
    director_client.cookies["django_language"] = "en"
    page = director_client.get(reverse("manage:round-detail", args=[tournament.slug, 2]))
    html = page.content.decode()
    # teams kept apart, but no team has two players: the banner does not name them
    assert (
        "With the seat wishes (1 never-together group with 2 players) the whole plan (rounds: "
        f"3) has {cost['repeats']} repeat encounters"
    ) in html
    assert "Seat wishes broken" in html


def test_the_round_page_compares_with_the_plan_found_without_the_wishes(
    monkeypatch, director_client, tournament, director_user
):
    """What the solver found without the wishes is stored with the draw and read on the
    round page beside the plan's own figures (here the solver's comparison is given)."""
    plan_rounds(tournament, 3)
    entries = field(tournament, 12)
    never_together(tournament, entries[0], entries[1])
    real = seating.draw
    without = seating.Quality(
        repeat_pairs=1, lower_bound=0, five_table_spread=0, position_balance=1
    )

    def solve(request):
        plan = real(request)
        return dataclasses.replace(plan, stats=dataclasses.replace(plan.stats, without=without))

    monkeypatch.setattr(seating, "draw", solve)
    draw_domain.draw(tournament, director_user, all_rounds=True, seed=1, time_limit=LIMIT)
    cost = DrawLog.objects.filter(round__number=3).get().wish_cost
    assert cost["without"] == {"repeats": 1, "spread": 0, "clubs": None}
    page = director_client.get(reverse("manage:round-detail", args=[tournament.slug, 3]))
    html = page.content.decode()
    expected = (
        "Ohne die Wünsche fand die Auslosung 1 wiederholte Begegnung und eine "
        "Fünfertisch-Spanne von 0."
    )
    assert cost["repeats"] > 1 and expected in html  # 12 players in 3 rounds: 6 repeats
    # the wishes cost something: the banner is not styled as good news
    assert '<p class="banner" id="wish-cost">' in html


def test_the_lower_bound_shown_counts_the_repeats_the_wishes_force(
    monkeypatch, tournament, director_user
):
    """The plain bound knows nothing of the wishes; the solver's target does (here given
    above it): the bound stored is the one with the wishes, not a gap that does not exist."""
    plan_rounds(tournament, 3)
    entries = field(tournament, 12)
    never_together(tournament, entries[0], entries[1])
    real = seating.draw

    def solve(request):
        plan = real(request)
        target = plan.quality.lower_bound + 2
        return dataclasses.replace(plan, stats=dataclasses.replace(plan.stats, target=target))

    monkeypatch.setattr(seating, "draw", solve)
    draw_domain.draw(tournament, director_user, all_rounds=True, seed=1, time_limit=LIMIT)
    log = DrawLog.objects.filter(round__number=1).get()  # the first holds the whole plan
    assert log.wish_cost["lower_bound"] == seating.evaluate(log.plan).lower_bound + 2


def test_the_wish_cost_in_words_says_when_they_cost_nothing_or_the_clock_cut_the_comparison():
    from django.utils import translation

    cost = {
        "groups": 1,
        "players": 2,
        "fixed": 1,
        "teams": 2,
        "repeats": 3,
        "lower_bound": 0,
        "spread": 1,
        "clubs": 0,
        "without": {"repeats": 3, "spread": 1, "clubs": 0},
    }
    with translation.override("en"):
        text = wish_cost_message(cost, 1)
        assert text == (
            "With the seat wishes (1 never-together group with 2 players, 1 fixed table, 2 "
            "teams kept apart) the whole plan (rounds: 1) has 3 repeat encounters (lower bound "
            "0) and a 5-table spread of 1. Club conflicts in the rounds that keep clubs apart: "
            "0. A draw without the wishes found no better plan: they cost nothing."
        )
        assert not wishes_cost(cost)
        dearer = {**cost, "clubs": None, "without": {"repeats": 1, "spread": 1, "clubs": None}}
        assert wishes_cost(dearer)
        assert wish_cost_message(dearer, 4) == (
            "With the seat wishes (1 never-together group with 2 players, 1 fixed table, 2 "
            "teams kept apart) the whole plan (rounds: 4) has 3 repeat encounters (lower bound "
            "0) and a 5-table spread of 1. Without the wishes the draw found 1 repeat "
            "encounter and a 5-table spread of 1."
        )
        text = wish_cost_message({**cost, "without": None}, 4)
        assert "whole plan (rounds: 4)" in text
        assert text.endswith(
            "The comparison with a draw without the wishes was cut short by the clock."
        )


def test_a_swap_that_seats_team_mates_together_names_their_team(director_client, tournament):
    type(tournament).objects.filter(pk=tournament.pk).update(teams_apart=True)
    entries = field(tournament, 12)
    kreuz = Team.objects.create(tournament=tournament, name="Kreuz")
    first, mate = entries[0], entries[6]
    Entry.objects.filter(pk__in=[first.pk, mate.pk]).update(team=kreuz)
    director_client.post(
        reverse("manage:round-draw", args=[tournament.slug]), {"seed": "4"}, follow=True
    )
    round_ = tournament.rounds.get(number=1)
    table_of = {s.entry_id: s.table.number for s in round_.seats.select_related("table")}
    assert table_of[first.pk] != table_of[mate.pk]
    beside_mate = next(e for e in entries if table_of[e.pk] == table_of[mate.pk] and e != mate)
    url = reverse("manage:round-swap", args=[tournament.slug, 1])
    page = director_client.post(
        url, {"first": first.start_number, "second": beside_mate.start_number}, follow=True
    ).content.decode()
    assert (
        "Der Tausch bricht einen Sitzwunsch: 1 Vorname Spieler1, 7 Vorname Spieler7 sitzen an "
        f"Tisch {table_of[mate.pk]} zusammen, sind aber Teammitglieder (Team Kreuz), und "
        "Teammitglieder sitzen nie an einem Tisch."
    ) in page
