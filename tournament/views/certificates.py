"""Directors: the site's certificate design (title, page, signatures, logo; issue 38), and
the prize page's files: the payout sheet and the certificates, made in the background."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ..domain.certificates import DESIGN_FIELDS, save_design
from ..errors import DomainError
from ..forms.certificates import CertificateDesignForm
from ..models import CertificateDesign
from ..permissions import director_required, get_managed_tournament, managed_tournaments
from ..tasks import documents

# GET asks for the file (tournament/tasks/documents.py); POST makes a failed one again.
require_safe_or_retry = require_http_methods(["GET", "HEAD", "POST"])


@director_required
@require_http_methods(["GET", "HEAD", "POST"])
def certificate_design(request):
    """The one design of every tournament's certificates. ``?from=<slug>``: the prize page
    the director came from, which the page links back to (else the tournament list)."""
    came_from = managed_tournaments(request.user).filter(slug=request.GET.get("from", "")).first()
    design = CertificateDesign.current()
    form = CertificateDesignForm(request.POST or None, request.FILES or None, instance=design)
    if request.method == "POST" and form.is_valid():
        changes = {name: form.cleaned_data[name] for name in DESIGN_FIELDS}
        try:
            save_design(
                changes,
                request.user,
                logo=form.logo,
                remove_logo=form.cleaned_data["remove_logo"],
            )
        except DomainError as exc:
            form.add_error(None, str(exc.message))
        else:
            messages.success(request, _("Changes saved."))
            here = reverse("manage:certificate-design")
            if came_from is not None:
                here += "?" + urlencode({"from": came_from.slug})
            return redirect(here)
    # The form's instance took the refused input: show what is stored.
    stored = CertificateDesign.current()
    context = {
        "form": form,
        "design": stored,
        "logo_size": len(bytes(stored.logo or b"")),
        "came_from": came_from,
    }
    return render(request, "tournament/manage/certificate_design.html", context)


@director_required
@require_safe_or_retry
def payout_export(request, slug, fmt):
    """The payout sheet with the fee ledger as PDF or Excel file."""
    tournament = get_managed_tournament(request, slug)
    return documents.respond(request, f"payout-{fmt}", tournament)


@director_required
@require_safe_or_retry
def certificates_export(request, slug, everyone=False):
    """The certificates of the prize winners, or of every ranked player, in the current
    design (its version is the variant: a changed design makes new files)."""
    tournament = get_managed_tournament(request, slug)
    kind = "certificates-all-pdf" if everyone else "certificates-pdf"
    return documents.respond(request, kind, tournament, documents.certificates_variant())
