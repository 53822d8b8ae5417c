"""Directors: list, create and edit tournaments."""

import copy

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from ..domain.registrations import after_places_changed
from ..domain.tournaments import create_tournament, update_tournament
from ..forms import TournamentForm
from ..permissions import (
    director_required,
    get_managed_tournament,
    is_director,
    managed_tournaments,
    official_required,
)
from ..tasks.mail import RequestMailer


@official_required
def tournament_list(request):
    """The start page after login: a director's tournaments; a referee goes on to the
    referee desk."""
    if not is_director(request.user):
        return redirect("manage:referee-home")
    tournaments = managed_tournaments(request.user).with_status().order_by("-date", "name")
    return render(request, "tournament/manage/tournament_list.html", {"tournaments": tournaments})


@director_required
def tournament_create(request):
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = create_tournament(request.user, form.save(commit=False))
        messages.success(request, _("Tournament “%(name)s” created.") % {"name": tournament})
        return redirect(tournament)
    return render(request, "tournament/manage/tournament_form.html", {"form": form})


@director_required
def tournament_edit(request, slug):
    tournament = get_managed_tournament(request, slug)
    # The form works on its own copy: a refused change (an empty name) must not show up in
    # the page's heading and links, which name the tournament as it is saved.
    form = TournamentForm(request.POST or None, instance=copy.copy(tournament))
    if request.method == "POST" and form.is_valid():
        saved = update_tournament(form.save(commit=False), request.user)
        messages.success(request, _("Changes saved."))
        if {"registration_open", "registration_capacity"} & set(form.changed_data):
            # More places (or registration on again): the waiting list moves up.
            mail = RequestMailer(request)
            after_places_changed(saved, user=request.user, mail=mail)
            mail.report_moved_up()
        return redirect(saved)  # at its new address if the short name changed
    return render(
        request,
        "tournament/manage/tournament_form.html",
        {"form": form, "tournament": tournament},
    )
