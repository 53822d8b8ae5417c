"""Deleting personal data after a tournament (GDPR Art. 17, README "Datenschutz / privacy"):
the e-mail addresses and personal links of its online registrations and the personal pages of
its entries, the years of birth and sexes given for the prize categories, and the seat wishes
(never-together groups with their notes, fixed tables). What the site
holds about a person is read in :mod:`tournament.queries.personal_data`."""

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ..base.versions import mark_changed
from ..errors import DomainError
from ..models import ApartGroup, Entry, Tournament, TournamentStatus

# The history events of the seat wishes (domain.wishes): their parameters name the group's
# start numbers or the table.
WISH_EVENTS = (
    "never-together-added",
    "never-together-removed",
    "fixed-table-set",
    "fixed-table-cleared",
)


def forget_personal_data(tournaments: Iterable[Tournament], *, user=None) -> int:
    """Delete the e-mail addresses and personal links of finished tournaments' registrations
    and entries (the player cards' pages), their years of birth and sexes (the prize
    categories') and their seat wishes (issue 39: the groups, the fixed tables, the wishes in
    the entries' and groups' history and the groups' notes); names and results stay.
    Returns how many registrations were cleared. Refused for a tournament that is not finished."""
    count = 0
    with transaction.atomic():
        for tournament in tournaments:
            if tournament.status != TournamentStatus.FINISHED:
                raise DomainError(
                    _("%(name)s is not finished: its registrations are still needed.")
                    % {"name": tournament.name}
                )
            pending = tournament.registrations.filter(personal_data_deleted_at__isnull=True)
            count += pending.update(email="", token=None, personal_data_deleted_at=timezone.now())
            # The personal pages of the desk's entries (the player cards' QR codes) too.
            tournament.entries.filter(token__isnull=False).update(token=None)
            # What the prize categories asked (issue 38): the prizes are handed out.
            given = Q(birth_year__isnull=False) | ~Q(sex="")
            tournament.registrations.filter(given).update(birth_year=None, sex="")
            if tournament.entries.filter(given).update(birth_year=None, sex=""):
                mark_changed(tournament)  # an UPDATE sends no signals
            # The seat wishes (a couple, a wheelchair place): the tournament is over. A note
            # may say why ("wheelchair"), so it goes from the groups' history too.
            wished = Q(apart_group__isnull=False) | Q(fixed_table__isnull=False)
            if tournament.entries.filter(wished).update(apart_group=None, fixed_table=None):
                mark_changed(tournament)
            groups = ApartGroup.objects.filter(tournament=tournament)
            groups._raw_delete(groups.db)  # no history record: it would keep the note
            ApartGroup.history.filter(tournament_id=tournament.pk).update(note="")
            _forget_wish_history(tournament)
    return count


def _forget_wish_history(tournament: Tournament) -> None:
    """The seat wishes in the history of the tournament's entries and groups: the entries'
    fixed tables and groups in every record (the edit page and the Art. 15 file show them),
    and the wish events, whose start numbers or table said who the wish was about."""
    Entry.history.filter(tournament_id=tournament.pk).filter(
        Q(apart_group__isnull=False) | Q(fixed_table__isnull=False)
    ).update(apart_group=None, fixed_table=None)
    for history in (Entry.history, ApartGroup.history):
        history.filter(tournament_id=tournament.pk, history_event__in=WISH_EVENTS).update(
            history_event="seat-wish-deleted", history_params=None
        )
