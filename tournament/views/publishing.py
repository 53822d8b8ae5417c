"""The results service, the hall's side: the page "Results service" (address and key, the
tournaments being published and their state) and "send now"."""

from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..forms.publishing import ResultsServiceForm
from ..permissions import director_required, get_managed_tournament, managed_tournaments
from ..publishing import config, protocol, verbs
from ..publishing.status import status


def _key_id(text: str) -> str:
    key = protocol.parse_key(text)
    return key.key_id if key else ""


@director_required
def results_service(request):
    row = config.stored()
    stored_key_id = _key_id(row.key) if row else ""
    if request.method == "POST" and "forget" in request.POST:
        verbs.forget_target()
        messages.success(request, _("The results service is removed: nothing is sent any more."))
        return redirect("manage:results-service")
    form = ResultsServiceForm(
        request.POST or None,
        has_key=bool(stored_key_id),
        initial={"url": row.url if row else ""},
    )
    if request.method == "POST" and form.is_valid():
        verbs.set_target(form.cleaned_data["url"], form.cleaned_data["key"])
        messages.success(
            request, _("Saved. The laptop sends to the results service whenever it can.")
        )
        return redirect("manage:results-service")
    tournaments = managed_tournaments(request.user).filter(publish_results=True)
    context = {
        "form": form,
        "stored": row,
        "stored_key_id": stored_key_id,
        "environment": config.from_environment(),
        "environment_url": settings.RESULTS_SERVICE_URL,
        "environment_key_id": _key_id(settings.RESULTS_SERVICE_KEY),
        "ready": config.target() is not None,
        "published": [(t, status(t)) for t in tournaments.order_by("-date", "name")],
    }
    return render(request, "tournament/manage/publishing.html", context)


@require_POST
@director_required
def publish_now(request, slug):
    tournament = get_managed_tournament(request, slug)
    verbs.send_now(tournament)
    messages.success(request, _("The waiting changes go out with the next attempt."))
    return redirect(tournament)
