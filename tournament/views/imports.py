"""Directors: import a player list. Upload -> preview (nothing written) -> confirm."""

import secrets

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from ..domain.player_import import (
    ImportFileError,
    ImportPreview,
    apply_import,
    parse_player_file,
    shown_players,
)
from ..errors import DomainError
from ..forms import ImportUploadForm
from ..permissions import director_required, get_managed_tournament, managed_tournaments

SESSION_KEY = "player-import"


@director_required
def import_upload(request, slug):
    tournament = get_managed_tournament(request, slug)
    form = ImportUploadForm(request.POST or None, request.FILES or None)
    context = {"tournament": tournament, "form": form}
    if request.method != "POST":
        return render(request, "tournament/manage/import_upload.html", context)
    if not form.is_valid():
        return render(request, "tournament/manage/import_upload.html", context, status=400)
    upload = form.cleaned_data["file"]
    try:
        preview = parse_player_file(tournament, upload.name, upload.read(), director=request.user)
    except ImportFileError as exc:
        form.add_error("file", exc.message)
        return render(request, "tournament/manage/import_upload.html", context, status=400)
    token = secrets.token_urlsafe(16)
    if preview.ok:
        request.session[SESSION_KEY] = {
            "tournament": tournament.pk,
            "token": token,
            "rows": preview.to_json(),
        }
    else:
        request.session.pop(SESSION_KEY, None)
    players = shown_players(preview.rows, managed_tournaments(request.user))
    context.update(
        preview=preview,
        token=token,
        rows=[(r, players.get(r.player_id) if r.player_id else None) for r in preview.rows],
        filename=upload.name,
    )
    return render(request, "tournament/manage/import_preview.html", context)


@director_required
@require_POST
def import_confirm(request, slug):
    tournament = get_managed_tournament(request, slug)
    stored = request.session.get(SESSION_KEY)
    if (
        not stored
        or stored.get("tournament") != tournament.pk
        or stored.get("token") != request.POST.get("token")
    ):
        messages.error(request, _("The preview has expired. Please upload the file again."))
        return redirect("manage:import", slug=tournament.slug)
    try:
        rows = ImportPreview.rows_from_json(stored["rows"])
        publish = request.POST.get("publish") == "on"  # for rows the file gives no consent
        count = apply_import(tournament, rows, director=request.user, publish=publish)
    except DomainError as exc:
        messages.error(request, _("Nothing was imported. %(reason)s") % {"reason": exc.message})
        return redirect("manage:import", slug=tournament.slug)
    del request.session[SESSION_KEY]
    registered = ngettext("%(count)s player registered.", "%(count)s players registered.", count)
    messages.success(request, registered % {"count": count})
    return redirect("manage:entry-list", slug=tournament.slug)
