"""A tournament as one file: the director downloads it ("Als Datei exportieren") and imports
it on another laptop ("Turnier importieren"). The format: docs/archive-format.md."""

from django import forms
from django.contrib import messages
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .. import archive
from ..archive.packing import MAX_FILE_BYTES
from ..exports.export import Export, download, file_name
from ..permissions import director_required, get_managed_tournament

ZIP = "application/zip"


class ArchiveUploadForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Tournament file (.zip)"))


@director_required
def tournament_export(request, slug):
    """The whole tournament, personal data included: private, never kept by a cache."""
    tournament = get_managed_tournament(request, slug)
    data = archive.pack(archive.build(tournament))
    return download(
        Export(file_name(tournament.slug, "turnier", suffix="zip"), ZIP, data), private=True
    )


@director_required
def tournament_import(request):
    form = ArchiveUploadForm(request.POST or None, request.FILES or None)
    context = {"form": form}
    if request.method != "POST":
        return render(request, "tournament/manage/archive_import.html", context)
    if form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            if upload.size > MAX_FILE_BYTES:
                raise archive.ArchiveError(_("The tournament file is too big."))
            doc = archive.unpack(upload.read())
            with transaction.atomic():
                tournament = archive.restore(doc, importer=request.user)
                tournament.directors.add(request.user)
        except archive.ArchiveError as exc:
            form.add_error("file", exc.message)
        else:
            messages.success(
                request,
                _("Tournament “%(name)s” imported as “%(slug)s”.")
                % {"name": tournament.name, "slug": tournament.slug},
            )
            return redirect(tournament)
    return render(request, "tournament/manage/archive_import.html", context, status=400)
