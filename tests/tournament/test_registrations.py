"""Online registration in the domain: places, the waiting list, approval, cancelling, the
personal link's changes, check-in by link, fees, deleting personal data."""

import datetime
import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.utils import timezone

from tests.factories import (
    EntryFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    director,
    open_for_registration,
)
from tournament.domain import fees, registrations
from tournament.domain.entries import set_checked_in, set_status
from tournament.domain.personal_data import forget_personal_data
from tournament.domain.players import merge_players
from tournament.errors import DomainError
from tournament.models import (
    Entry,
    EntryStatus,
    FeeStatus,
    Player,
    Registration,
    RegistrationState,
)
from tournament.models.audit import PLAYER, history_reason
from tournament.queries import registrations as registrations_queries
from tournament.queries.fees import fee_sums
from tournament.queries.registrations import waiting_position

pytestmark = pytest.mark.django_db


class Outbox:
    """A Mailer that remembers what it was asked to send."""

    def __init__(self):
        self.sent: list[tuple[str, str]] = []

    def send(self, registration, kind):
        self.sent.append((registration.last_name, kind))


@pytest.fixture
def hall(tournament):
    return open_for_registration(tournament, 2)


def details(last, first="Anna", **kw):
    kw.setdefault("email", f"{last.lower()}@example.org")
    return registrations.Details(first, last, **kw)


def typed_in(tournament):
    """Anna Alberts, typed in by the director: the same person as an online "Albers"."""
    player = PlayerFactory(first_name="Anna", last_name="Alberts")
    return EntryFactory(tournament=tournament, player=player)


def sign(tournament, last, mail=None, **kw):
    return registrations.submit(tournament, details(last, **kw), consent="ok", mail=mail)


def test_registrations_within_the_places_are_confirmed_with_a_start_number(hall):
    outbox = Outbox()
    first = sign(hall, "Albers", outbox)
    second = sign(hall, "Brandt", outbox)
    assert [first.state, second.state] == [RegistrationState.CONFIRMED] * 2
    assert [first.entry.start_number, second.entry.start_number] == [1, 2]
    assert first.entry.player.last_name == "Albers"
    assert outbox.sent == [("Albers", "registered"), ("Brandt", "registered")]
    # The player registered themselves: the history says so.
    assert first.entry.history.first().history_role == PLAYER


def test_beyond_the_places_players_wait_in_the_order_they_registered(hall):
    sign(hall, "Albers"), sign(hall, "Brandt")
    third, fourth = sign(hall, "Conrad"), sign(hall, "Dietz")
    assert third.state == fourth.state == RegistrationState.WAITING
    assert third.entry is None
    assert [waiting_position(third), waiting_position(fourth)] == [1, 2]
    assert hall.entries.count() == 2


def test_an_entry_the_director_typed_in_takes_a_place_too(hall):
    EntryFactory(tournament=hall, start_number=7)
    sign(hall, "Albers")
    assert sign(hall, "Brandt").state == RegistrationState.WAITING
    assert registrations_queries.places_free(hall) == 0


def test_a_cancellation_moves_the_first_on_the_waiting_list_up_and_tells_them(hall):
    first = sign(hall, "Albers")
    sign(hall, "Brandt")
    third, fourth = sign(hall, "Conrad"), sign(hall, "Dietz")
    outbox = Outbox()
    registrations.cancel(first, mail=outbox)
    first.refresh_from_db(), third.refresh_from_db(), fourth.refresh_from_db()
    assert first.state == RegistrationState.CANCELLED
    assert first.entry.status == EntryStatus.WITHDRAWN  # the start number stays reserved
    assert third.state == RegistrationState.CONFIRMED
    assert third.entry.start_number == 3
    assert waiting_position(fourth) == 1
    assert outbox.sent == [("Albers", "cancelled"), ("Conrad", "moved-up")]


def test_cancelling_twice_or_after_the_draw_is_refused(hall):
    first, second = sign(hall, "Albers"), sign(hall, "Brandt")
    registrations.cancel(first)
    with pytest.raises(DomainError):
        registrations.cancel(first)
    RoundFactory(tournament=hall, number=1)
    with pytest.raises(DomainError):
        registrations.cancel(second)
    second.refresh_from_db()
    assert second.state == RegistrationState.CONFIRMED
    assert second.entry.status == EntryStatus.ACTIVE


def test_in_approval_mode_a_registration_holds_a_place_until_the_director_decides(hall):
    hall.registration_approval = True
    hall.save()
    first, second, third = sign(hall, "Albers"), sign(hall, "Brandt"), sign(hall, "Conrad")
    assert [first.state, second.state] == [RegistrationState.PENDING] * 2
    assert third.state == RegistrationState.WAITING
    assert hall.entries.count() == 0
    boss = hall.directors.get()
    outbox = Outbox()
    registrations.approve(first, boss, mail=outbox)
    registrations.decline(second, boss, mail=outbox)
    first.refresh_from_db(), third.refresh_from_db()
    assert first.state == RegistrationState.CONFIRMED and first.entry.start_number == 1
    # The declined place goes to the waiting list, which waits for approval in turn.
    assert third.state == RegistrationState.PENDING
    assert outbox.sent == [("Albers", "confirmed"), ("Brandt", "declined"), ("Conrad", "moved-up")]


def test_the_director_moves_people_on_the_waiting_list_and_gives_a_place_by_hand(hall):
    sign(hall, "Albers"), sign(hall, "Brandt")
    third, fourth, fifth = sign(hall, "Conrad"), sign(hall, "Dietz"), sign(hall, "Ebert")
    boss = hall.directors.get()
    registrations.move(fifth, boss, up=True)
    order = [r.last_name for r in registrations.waiting_list(hall)]
    assert order == ["Conrad", "Ebert", "Dietz"]
    registrations.move(third, boss, up=True)  # already first: nothing changes
    registrations.move(third, boss, up=False)
    assert [r.last_name for r in registrations.waiting_list(hall)] == ["Ebert", "Conrad", "Dietz"]
    registrations.approve(fourth, boss)  # beyond the capacity: the director decides
    fourth.refresh_from_db()
    assert fourth.state == RegistrationState.CONFIRMED
    assert hall.entries.filter(status=EntryStatus.ACTIVE).count() == 3


def test_a_withdrawal_or_more_places_move_the_waiting_list_up(hall):
    first = sign(hall, "Albers")
    sign(hall, "Brandt")
    third, fourth = sign(hall, "Conrad"), sign(hall, "Dietz")
    boss = hall.directors.get()
    set_status(first.entry, EntryStatus.WITHDRAWN, boss)
    moved = registrations.after_places_changed(hall, user=boss)
    assert [r.pk for r in moved] == [third.pk]
    hall.registration_capacity = 4
    hall.save()
    moved = registrations.after_places_changed(hall, user=boss)
    assert [r.pk for r in moved] == [fourth.pk]


def test_registration_is_refused_when_not_open_or_for_a_second_time(hall):
    sign(hall, "Albers")
    with pytest.raises(DomainError):
        sign(hall, "ALBERS")  # the same person, spelled otherwise
    now = timezone.now()
    hall.registration_opens_at = now + datetime.timedelta(days=1)
    hall.save()
    assert registrations_queries.phase(hall) == registrations_queries.NOT_YET
    with pytest.raises(DomainError):
        sign(hall, "Brandt")
    hall.registration_opens_at, hall.registration_closes_at = None, now
    hall.save()
    assert registrations_queries.phase(hall) == registrations_queries.CLOSED
    with pytest.raises(DomainError):
        sign(hall, "Brandt")
    assert hall.registrations.count() == 1


def test_accepting_links_a_known_player_by_umlaut_spelling_or_member_number(hall):
    """Online, everybody is a new player with what they typed; the director's accepting
    links them as the director's own typing would (issue 34)."""
    boss = hall.directors.get()
    hall.registration_capacity = 5
    hall.save()
    known = PlayerFactory(first_name="Jürgen", last_name="Schäfer", club="Herz Dame")
    EntryFactory(tournament=TournamentFactory(directors=[boss]), player=known)
    registration = sign(hall, "Schaefer", first="Juergen", club="Herz Dame")
    assert registration.entry.player != known and registration.entry.player.unverified
    assert registrations.accept_identity(registration, boss) == known
    registration.refresh_from_db()
    assert registration.entry.player == known
    assert not Player.objects.filter(last_name="Schaefer").exists()  # the stand-in is gone
    by_number = PlayerFactory(first_name="Eva", last_name="Ost", ddv_number="12345")
    other = sign(hall, "Ost", first="Eva", ddv_number="12345")
    assert other.entry.player != by_number and other.entry.player.ddv_number == ""
    registrations.accept_identity(other, boss)
    other.refresh_from_db()
    assert other.entry.player == by_number
    # A stranger of the same name elsewhere is not linked, nor on accepting.
    PlayerFactory(first_name="Zoe", last_name="Zorn", club="")
    stranger = sign(hall, "Zorn", first="Zoe", ddv_number="555")
    registrations.accept_identity(stranger, boss)
    stranger.refresh_from_db()
    assert Player.objects.filter(first_name="Zoe", last_name="Zorn").count() == 2
    assert stranger.entry.player.ddv_number == "555" and not stranger.entry.player.unverified
    with pytest.raises(DomainError):  # accepted once is enough
        registrations.accept_identity(stranger, boss)


def test_the_player_changes_details_and_a_shared_name_stays_with_the_director(hall):
    registration = sign(hall, "Albers", team_name="Die Asse")
    changed = registrations.Details(
        "Anne", "Albers", club="Kreuz Bube", team_name="Die Buben", email="neu@example.org"
    )
    registrations.change_details(registration, changed)
    registration.refresh_from_db()
    entry = registration.entry
    assert (entry.player.first_name, entry.player.club, entry.team.name) == (
        "Anne",
        "Kreuz Bube",
        "Die Buben",
    )
    assert registration.email == "neu@example.org"
    EntryFactory(player=entry.player)  # now the player has another tournament
    with pytest.raises(DomainError):
        registrations.change_details(registration, registrations.Details("Annette", "Albers"))
    entry.player.refresh_from_db()
    assert entry.player.first_name == "Anne"


def test_check_in_by_link_only_when_the_director_opened_it(hall):
    registration = sign(hall, "Albers")
    with pytest.raises(DomainError):
        registrations.check_in(registration)
    hall.checkin_open = True
    hall.save()
    registration.refresh_from_db()
    entry = registrations.check_in(registration)
    assert entry.checked_in and entry.checked_in_at is not None
    assert entry.history.first().history_role == PLAYER
    waiting = sign(hall, "Brandt"), sign(hall, "Conrad")
    with pytest.raises(DomainError):
        registrations.check_in(waiting[1])


def test_fees_record_who_and_when_and_add_up(hall):
    hall.entry_fee = Decimal("12.50")
    hall.save()
    boss = hall.directors.get()
    entries = [EntryFactory(tournament=hall) for _ in range(4)]
    fees.set_fee(entries[0], FeeStatus.PAID, boss)
    fees.set_fee(entries[1], FeeStatus.WAIVED, boss)
    fees.set_fee(entries[2], FeeStatus.PAID, boss)
    set_status(entries[2], EntryStatus.WITHDRAWN, boss)  # paid, then withdrawn: still collected
    entries[0].refresh_from_db()
    assert entries[0].fee_changed_by == boss and entries[0].fee_changed_at is not None
    sums = fee_sums(hall)
    assert (sums.paid, sums.waived, sums.open) == (2, 1, 1)
    assert (sums.collected, sums.outstanding) == (Decimal("25.00"), Decimal("12.50"))
    with pytest.raises(DomainError):
        fees.set_fee(entries[3], "maybe", boss)
    assert Entry.objects.get(pk=entries[3].pk).fee == FeeStatus.OPEN


def test_personal_data_goes_after_the_tournament_but_names_and_entries_stay(hall):
    first, waiting = sign(hall, "Albers"), None
    sign(hall, "Brandt")
    waiting = sign(hall, "Conrad")
    with pytest.raises(DomainError):
        forget_personal_data([hall])
    assert Registration.objects.filter(email="").count() == 0
    hall.planned_rounds = 1
    hall.save()
    RoundFactory(tournament=hall, number=1, status="closed")
    assert forget_personal_data([hall], user=director()) == 3
    first.refresh_from_db(), waiting.refresh_from_db()
    assert (first.email, first.token, waiting.email, waiting.token) == ("", None, "", None)
    assert first.last_name == "Albers" and first.entry.player.last_name == "Albers"
    assert forget_personal_data([hall]) == 0  # already done
    # No historical record keeps the e-mail address.
    assert not hasattr(first.history.model, "email")


def test_merging_a_double_keeps_the_registration_and_gives_the_freed_place_on(hall):
    """Registered online as "Albers" while the director had typed in "Alberts": the merge
    deletes the online entry, but the personal link keeps showing a place (now the typed-in
    entry's), and the freed place goes to the first on the waiting list."""
    boss = hall.directors.get()
    typed = typed_in(hall)
    online = sign(hall, "Albers")
    waiting = sign(hall, "Conrad")
    assert waiting.state == RegistrationState.WAITING
    outbox = Outbox()
    merge_players(
        typed.player, online.entry.player, user=boss, reason="ein Tippfehler", mail=outbox
    )
    online.refresh_from_db()
    waiting.refresh_from_db()
    assert online.state == RegistrationState.CONFIRMED and online.entry == typed
    assert "ein Tippfehler" in history_reason(online.history.first())
    assert waiting.state == RegistrationState.CONFIRMED and outbox.sent == [("Conrad", "moved-up")]
    assert registrations_queries.places_taken(hall) == 2


def test_merging_two_online_registrations_of_one_person_cancels_the_second(hall):
    boss = hall.directors.get()
    first = sign(hall, "Albers")
    second = sign(hall, "Alberts")
    merge_players(first.entry.player, second.entry.player, user=boss, reason="dieselbe Person")
    second.refresh_from_db()
    assert (second.state, second.entry) == (RegistrationState.CANCELLED, None)
    first.refresh_from_db()
    assert first.state == RegistrationState.CONFIRMED and first.entry.status == EntryStatus.ACTIVE


def test_merging_after_a_cancelled_registration_keeps_the_live_one_and_the_place(hall):
    """Cancelled as "Albers", registered again as "Alberts", then merged into the old
    record: the live registration goes over to the old entry, which plays again; nobody
    from the waiting list takes the place."""
    boss = hall.directors.get()
    old = sign(hall, "Albers")
    registrations.cancel(old)
    new = sign(hall, "Alberts")
    sign(hall, "Brandt")
    waiting = sign(hall, "Conrad")
    outbox = Outbox()
    merge_players(old.entry.player, new.entry.player, user=boss, reason="dieselbe", mail=outbox)
    new.refresh_from_db()
    old.refresh_from_db()
    waiting.refresh_from_db()
    assert new.state == RegistrationState.CONFIRMED and new.entry.status == EntryStatus.ACTIVE
    assert old.state == RegistrationState.CANCELLED and old.entry is None
    assert waiting.state == RegistrationState.WAITING and outbox.sent == []


def test_merging_into_a_withdrawn_entry_takes_over_the_place_check_in_and_fee(hall):
    boss = hall.directors.get()
    typed = typed_in(hall)
    set_status(typed, EntryStatus.WITHDRAWN, boss)
    online = sign(hall, "Albers")
    fees.set_fee(online.entry, FeeStatus.PAID, boss)
    set_checked_in(online.entry, True, boss)
    sign(hall, "Brandt")
    waiting = sign(hall, "Conrad")
    merge_players(typed.player, online.entry.player, user=boss, reason="Tippfehler")
    typed.refresh_from_db()
    online.refresh_from_db()
    waiting.refresh_from_db()
    assert (typed.status, typed.checked_in, typed.fee) == (EntryStatus.ACTIVE, True, FeeStatus.PAID)
    assert online.entry == typed and online.state == RegistrationState.CONFIRMED
    assert waiting.state == RegistrationState.WAITING


def test_merging_into_a_disqualified_entry_cancels_the_registration(hall):
    boss = hall.directors.get()
    typed = typed_in(hall)
    set_status(typed, EntryStatus.DISQUALIFIED, boss)
    online = sign(hall, "Albers")
    merge_players(typed.player, online.entry.player, user=boss, reason="dieselbe")
    online.refresh_from_db()
    typed.refresh_from_db()
    assert (online.state, online.entry) == (RegistrationState.CANCELLED, None)
    assert typed.status == EntryStatus.DISQUALIFIED


def test_a_player_who_cancelled_can_register_again_and_gets_the_old_start_number(hall):
    typed_in = EntryFactory(tournament=hall, start_number=9)
    set_status(typed_in, EntryStatus.WITHDRAWN, None)  # somebody else, withdrawn by hand
    first = sign(hall, "Albers")
    registrations.cancel(first)
    again = sign(hall, "Albers")
    assert again.state == RegistrationState.CONFIRMED
    assert again.entry.pk == first.entry.pk and again.entry.status == EntryStatus.ACTIVE
    first.refresh_from_db()
    assert first.entry is None
    typed_in.refresh_from_db()
    assert typed_in.status == EntryStatus.WITHDRAWN  # nobody else's entry is revived


def test_the_mails_go_out_after_the_commit_in_the_players_language(
    hall, rf, settings, mailoutbox, django_capture_on_commit_callbacks
):
    from tournament.tasks.mail import RequestMailer

    settings.SITE_URL = "http://turnier.example.org"  # the address the links are built on
    mail = RequestMailer(rf.get("/"))
    with django_capture_on_commit_callbacks(execute=True):
        english = sign(hall, "Albers", mail, language="en")
        sign(hall, "Brandt", mail, language="de")
        waiting = sign(hall, "Conrad", mail, language="en")
    assert [m.to for m in mailoutbox] == [
        ["albers@example.org"],
        ["brandt@example.org"],
        ["conrad@example.org"],
    ]
    confirmed, german, wait = mailoutbox
    assert confirmed.subject == "Your registration for Herbstturnier"
    assert "Your start number is 1." in confirmed.body
    assert f"http://turnier.example.org/anmeldung/{english.token}/" in confirmed.body
    assert "position 1" in wait.body and waiting.token in wait.body
    assert german.subject == "Ihre Anmeldung für Herbstturnier"
    assert "Ihre Startnummer ist 2." in german.body
    # Nothing is sent for a registration that was refused (rolled back).
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(DomainError):
        sign(hall, "Albers", mail, language="en")
    assert len(mailoutbox) == 3


def test_a_namesake_of_another_club_or_ddv_number_is_somebody_else(hall):
    hall.registration_capacity = 10
    hall.save()
    sign(hall, "Becker", first="Thomas", club="Herz Dame Fulda", ddv_number="111")
    # Three namesakes with three addresses (one address holds REGISTRATIONS_PER_EMAIL).
    kiel = sign(hall, "Becker", first="Thomas", club="TSV Kiel", email="kiel@example.org")
    other_number = sign(hall, "Becker", first="Thomas", club="Herz Dame Fulda", ddv_number="222")
    assert kiel.entry.player != other_number.entry.player
    with pytest.raises(DomainError):  # no club, no number: cannot tell them apart
        sign(hall, "Becker", first="Thomas")
    assert hall.registrations.count() == 3


def test_personal_links_are_masked_in_the_logs():
    import logging

    from tournament.web.log import WithoutPersonalLinks

    record = logging.LogRecord(
        "django.request", logging.WARNING, __file__, 1, "%s: %s",
        ("Bad Request", "/anmeldung/AbC_dEf-0123456789abcdefGHIJKL/aendern/"), None,
    )  # fmt: skip
    assert WithoutPersonalLinks().filter(record)
    assert record.getMessage() == "Bad Request: /anmeldung/…/aendern/"
    kept = logging.LogRecord("x", logging.INFO, __file__, 1, "GET /anmeldung/link/", (), None)
    WithoutPersonalLinks().filter(kept)
    assert kept.getMessage() == "GET /anmeldung/link/"


def test_a_member_number_of_somebody_else_takes_over_nothing_and_is_refused_on_accepting(hall):
    boss = hall.directors.get()
    hall.registration_capacity = 5
    hall.save()
    albers = sign(hall, "Albers", ddv_number="12345")
    registrations.accept_identity(albers, boss)  # the director knows her: she holds the number now
    mallory = sign(hall, "Mallory", first="Max", ddv_number="12345")
    albers.refresh_from_db()
    assert albers.entry.player.last_name == "Albers" and albers.entry.status == "active"
    assert albers.entry.player.ddv_number == "12345"
    assert mallory.ddv_number == "12345" and mallory.entry.player.ddv_number == ""
    with pytest.raises(DomainError, match="12345"):
        registrations.accept_identity(mallory, boss)
    mallory.refresh_from_db()
    assert mallory.entry.player.unverified and mallory.entry.player.ddv_number == ""
    brandt = sign(hall, "Brandt")
    registrations.change_details(
        brandt, registrations.Details("Anna", "Brandt", ddv_number="12345")
    )
    brandt.refresh_from_db()
    assert brandt.ddv_number == "12345" and brandt.entry.player.ddv_number == ""


def test_a_disqualified_player_does_not_come_back_by_registering(hall):
    albers = sign(hall, "Albers", ddv_number="777")
    set_status(albers.entry, EntryStatus.DISQUALIFIED, hall.directors.get())
    registrations.cancel(albers)  # the registration is over; the entry stays disqualified
    with pytest.raises(DomainError):
        sign(hall, "Albers", ddv_number="777")
    assert Entry.objects.get(pk=albers.entry_id).status == EntryStatus.DISQUALIFIED


def test_one_registration_that_cannot_have_a_place_does_not_block_the_waiting_list(hall):
    first = sign(hall, "Albers")
    sign(hall, "Brandt")
    blocked, next_one = sign(hall, "Conrad", ddv_number="999"), sign(hall, "Dietz")
    # Meanwhile the director disqualifies somebody who had that member number.
    out = EntryFactory(tournament=hall, player=PlayerFactory(last_name="Zander", ddv_number="999"))
    set_status(out, EntryStatus.DISQUALIFIED, hall.directors.get())
    registrations.cancel(first)  # neither refused nor half done
    blocked.refresh_from_db(), next_one.refresh_from_db()
    assert blocked.state == RegistrationState.WAITING
    assert next_one.state == RegistrationState.CONFIRMED


def test_a_newcomer_does_not_overtake_the_waiting_list(hall):
    first = sign(hall, "Albers")
    sign(hall, "Brandt")
    waiting = sign(hall, "Conrad")
    # A place comes free without the waiting list being served (e.g. a disqualification).
    set_status(first.entry, EntryStatus.DISQUALIFIED, hall.directors.get())
    newcomer = sign(hall, "Dietz")
    waiting.refresh_from_db()
    assert waiting.state == RegistrationState.CONFIRMED
    assert newcomer.state == RegistrationState.WAITING


def test_after_the_director_withdrew_a_player_they_can_register_again(hall):
    albers = sign(hall, "Albers")
    set_status(albers.entry, EntryStatus.WITHDRAWN, hall.directors.get())
    again = sign(hall, "Albers")
    albers.refresh_from_db()
    assert again.state == RegistrationState.CONFIRMED and again.entry.status == "active"
    assert albers.state == RegistrationState.CANCELLED and albers.entry is None


@pytest.mark.parametrize("site_url", ["", "https://turnier.example.org"])
def test_the_mergeplayers_command_moves_the_waiting_list_up_with_or_without_site_url(
    hall, settings, mailoutbox, django_capture_on_commit_callbacks, site_url
):
    """Without SITE_URL a mail would have no link: the command says who moved up instead of
    failing (and rolling the merge back)."""
    settings.SITE_URL = site_url
    typed = typed_in(hall)
    online = sign(hall, "Albers")
    waiting = sign(hall, "Conrad")
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("mergeplayers", str(typed.player.pk), str(online.entry.player.pk),
                     "--reason", "Tippfehler", stdout=out)  # fmt: skip
    waiting.refresh_from_db()
    assert waiting.state == RegistrationState.CONFIRMED
    assert "Moved up from the waiting list: Anna Conrad" in out.getvalue()
    sent = [m for m in mailoutbox if "conrad@example.org" in m.to]
    if site_url:
        assert len(sent) == 1 and site_url in sent[0].body
    else:
        assert sent == [] and "SITE_URL is not set" in out.getvalue()


def test_more_places_move_the_waiting_list_up_in_order_in_bulk(hall):
    """Raising the places moves those waiting up in order (in bulk, issue 33): one of the
    name of a player disqualified meanwhile stays waiting for the director, a player who
    cancelled and registered again gets their old entry back, in their turn."""
    boss = hall.directors.get()
    hall.registration_capacity = 3
    hall.save()
    sign(hall, "Albers")
    brandt = sign(hall, "Brandt")
    came_back = sign(hall, "Dietz")
    conrad = sign(hall, "Conrad", ddv_number="777")  # waits
    anna = PlayerFactory(first_name="Anna", last_name="Conrad")
    out = EntryFactory(tournament=hall, start_number=4, player=anna)
    set_status(out, EntryStatus.DISQUALIFIED, boss)
    registrations.cancel(came_back, user=None)  # Conrad cannot have the place
    hall.registration_capacity = 2
    hall.save()
    again = sign(hall, "Dietz")  # waits behind Conrad
    others = [sign(hall, f"Spieler{n}", team_name="Die Asse") for n in range(5)]
    assert [r.last_name for r in registrations.waiting_list(hall)][:2] == ["Conrad", "Dietz"]
    hall.registration_capacity = 20
    hall.save()
    outbox = Outbox()
    moved = registrations.after_places_changed(hall, user=boss, mail=outbox)
    assert [r.pk for r in moved] == [again.pk, *(r.pk for r in others)]
    assert [name for name, kind in outbox.sent if kind == "moved-up"] == [
        "Dietz",
        *(f"Spieler{n}" for n in range(5)),
    ]
    conrad.refresh_from_db()
    assert conrad.state == RegistrationState.WAITING
    again.refresh_from_db()
    assert again.state == RegistrationState.CONFIRMED
    assert again.entry.start_number == came_back.entry.start_number == 3
    assert again.entry.status == EntryStatus.ACTIVE
    numbers = [Registration.objects.get(pk=r.pk).entry.start_number for r in others]
    assert numbers == [5, 6, 7, 8, 9]
    assert hall.teams.get().members.count() == 5
    record = Registration.history.filter(id=others[-1].pk).first()
    assert (record.state, record.history_user) == (RegistrationState.CONFIRMED, boss)
    assert history_reason(record) == "von der Warteliste nachgerückt"
    assert brandt.entry.status == EntryStatus.ACTIVE
