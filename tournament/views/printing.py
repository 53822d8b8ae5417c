"""Directors: the print pack of a round (Spiellisten, table plan, seat list, table cards) and
the player cards with the confirmation codes."""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_http_methods

from ..base.site_url import public_url
from ..exports import cards
from ..permissions import director_required, get_managed_tournament
from ..tasks import documents

# GET asks for the file (made in the background, tournament/tasks/documents.py); POST makes a
# failed one again.
require_safe_or_retry = require_http_methods(["GET", "HEAD", "POST"])


@director_required
@require_safe_or_retry
def print_pack(request, slug, number):
    """The print pack: its QR codes carry the tables' secret entry links, so the file is
    never cached (documents.KINDS)."""
    tournament = get_managed_tournament(request, slug)
    round_ = get_object_or_404(tournament.rounds, number=number)
    if not round_.tables.exists():
        raise Http404
    variant = documents.print_pack_variant(round_, public_url(request, "/"))
    return documents.respond(request, "printpack", tournament, variant)


@director_required
@require_safe_or_retry
def player_cards_pdf(request, slug):
    """One card per active player with start number and personal confirmation code (the
    players' secrets: never cached)."""
    tournament = get_managed_tournament(request, slug)
    # ?nummern=3,7,12: only these players' cards (after a table's codes were renewed).
    # The QR codes lead to the players' pages at the address the phones use (SITE_URL).
    variant = cards.numbers_variant(request.GET.get("nummern", ""), public_url(request, "/"))
    return documents.respond(request, "cards", tournament, variant)
