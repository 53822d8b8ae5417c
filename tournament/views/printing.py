"""Directors: the print pack of a round (Spiellisten, table plan, seat list, table cards) and
the player cards with the confirmation codes."""

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_safe

from ..exports import PdfUnavailable, cards, printpack
from ..permissions import director_required, get_managed_tournament
from ..site_url import public_url


@director_required
@require_safe
def print_pack(request, slug, number):
    tournament = get_managed_tournament(request, slug)
    round_ = get_object_or_404(tournament.rounds, number=number)
    if not round_.tables.exists():
        raise Http404
    try:
        pdf = printpack.print_pack(round_, public_url(request, "/"))
    except PdfUnavailable as exc:
        messages.error(request, exc.message)
        return redirect("manage:round-detail", slug, number)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = (
        f'attachment; filename="{tournament.slug}-runde-{round_.number}.pdf"'
    )
    # The QR codes carry the tables' secret entry links: keep the file out of shared caches.
    response["Cache-Control"] = "private, no-store"
    return response


@director_required
@require_safe
def player_cards_pdf(request, slug):
    """One card per active player with start number and personal confirmation code."""
    tournament = get_managed_tournament(request, slug)
    try:
        pdf = cards.player_cards_pdf(tournament)
    except PdfUnavailable as exc:
        messages.error(request, exc.message)
        return redirect("manage:entry-list", slug)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-spielerkarten.pdf"'
    # The codes are the players' secrets: keep the file out of every cache.
    response["Cache-Control"] = "private, no-store"
    return response
