"""The prize page of the office (issue 38, README "Preise und Siegerehrung"): the director's
prize categories and their prizes, the presets, and the prize list as the standings make it
now (provisional until the tournament is finished) with the fee pool, what is paid out and
what is left. Directors of the tournament only.

Every form posts to its own address (with the anchor of its place on the page, so that the
browser comes back to it), calls one verb and comes back to the page with a short message
next to the category it changed; refused input shows the page again (400) with the form and
its message where the browser lands, a "Not saved" banner at the top, and nothing written."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from ..domain import prizes as verbs
from ..errors import DomainError
from ..forms.prizes import CategoryForm, PresetForm, PrizeForm
from ..models import Prize, PrizeCategory, PrizeKind, Ties, Tournament
from ..permissions import director_required, get_managed_tournament
from ..queries.prizes import prize_list

# The tournament's "equal totals" setting that has no tie-breakers (models.TIEBREAK_CHOICES).
SHARED_RANK = "shared"

# The form that came back refused: (what it is, the category's or prize's id), the form.
Refused = tuple[tuple[str, int | None], object]

# Where each form stands on the page (its element's id): the anchor of its address.
ANCHORS = {
    "preset": "presets",
    "category-add": "own-category",
    "category-edit": "edit-category-{}",
    "prize-add": "add-prize-{}",
    "prize-edit": "prize-{}",
}
# A success message shown next to its category carries this tag and the category's id.
NEAR = "category-"


def _anchor(key: tuple[str | None, int | None]) -> str:
    what, pk = key
    return ANCHORS[what].format(pk) if what is not None else ""


def _not_saved(form) -> str:
    """The banner's words: the form's own message, else a pointer to the marked fields."""
    errors = form.non_field_errors()
    if errors:
        return _("Not saved: %(message)s") % {"message": errors[0]}
    return _("Not saved: please correct the marked field below.")


def _near_messages(request) -> tuple[list, dict[int, list]]:
    """The messages of this request: those for the top of the page, and those that belong
    next to a category (by its id)."""
    top: list = []
    near: dict[int, list] = {}
    for message in messages.get_messages(request):
        tag = message.extra_tags or ""
        if tag.startswith(NEAR) and tag[len(NEAR) :].isdigit():
            near.setdefault(int(tag[len(NEAR) :]), []).append(message)
        else:
            top.append(message)
    return top, near


def _saved(request, category_id: int, text: str) -> None:
    messages.success(request, text, extra_tags=f"{NEAR}{category_id}")


def _page(request, tournament: Tournament, refused: Refused | None = None) -> HttpResponse:
    wanted, bad_form = refused if refused is not None else ((None, None), None)

    def form(key: tuple[str, int | None], make):
        return bad_form if key == wanted else make()

    top, near = _near_messages(request)

    categories = []
    for category in tournament.prize_categories.prefetch_related("prizes"):
        rows = [
            {
                "prize": prize,
                "form": form(
                    ("prize-edit", prize.pk),
                    lambda prize=prize, category=category: PrizeForm(
                        category=category, prize=prize, auto_id=f"prize-{prize.pk}-%s"
                    ),
                ),
                "open": wanted == ("prize-edit", prize.pk),
            }
            for prize in category.prizes.all()
        ]
        next_place = max((row["prize"].place for row in rows), default=0) + 1
        categories.append(
            {
                "category": category,
                "prizes": rows,
                "form": form(
                    ("category-edit", category.pk),
                    lambda category=category: CategoryForm.of(
                        category, auto_id=f"category-{category.pk}-%s"
                    ),
                ),
                "edit_open": wanted == ("category-edit", category.pk),
                "add_form": form(
                    ("prize-add", category.pk),
                    lambda category=category, place=next_place: PrizeForm(
                        category=category,
                        initial={"place": place},
                        auto_id=f"new-prize-{category.pk}-%s",
                    ),
                ),
                "add_open": wanted == ("prize-add", category.pk) or not rows,
                "saved": near.get(category.pk, []),
                "no_tiebreakers": category.ties == Ties.TIEBREAK
                and tournament.tiebreak == SHARED_RANK,
            }
        )
    context = {
        "tournament": tournament,
        "messages": top,
        "not_saved": _not_saved(bad_form) if bad_form is not None else "",
        "not_saved_anchor": _anchor(wanted) if bad_form is not None else "",
        "categories": categories,
        "prizes": prize_list(tournament),
        "category_form": form(("category-add", None), lambda: CategoryForm(auto_id="category-%s")),
        "category_open": wanted == ("category-add", None),
        "preset_form": form(("preset", None), lambda: PresetForm(auto_id="preset-%s")),
        "presets": [(key, name) for key, (name, _rule) in verbs.PRESETS.items()],
        "senior_year": verbs.senior_year(tournament),
        "share_kind": PrizeKind.SHARE,
    }
    status = 400 if refused is not None else 200
    return render(request, "tournament/manage/prizes.html", context, status=status)


def _back(tournament: Tournament, anchor: str = "") -> HttpResponse:
    url = reverse("manage:prizes", kwargs={"slug": tournament.slug})
    return redirect(f"{url}#{anchor}" if anchor else url)


class Gone(Exception):
    """A row of the page that another director deleted meanwhile."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _category(tournament: Tournament, pk: int) -> PrizeCategory:
    category = tournament.prize_categories.filter(pk=pk).first()
    if category is None:
        raise Gone(_("This category was deleted meanwhile (by another director?)."))
    return category


def posted(view):
    """The page's forms post to their own addresses: a GET there (a reload after a refusal,
    a restored tab) leads back to the page, and a row deleted meanwhile by another director
    is said above the page instead of a bare 404."""

    @wraps(view)
    def wrapper(request, slug, *args, **kwargs):
        if request.method != "POST":
            return redirect("manage:prizes", slug=slug)
        try:
            return view(request, slug, *args, **kwargs)
        except Gone as exc:
            messages.error(request, exc.message)
            return redirect("manage:prizes", slug=slug)

    return wrapper


def _gone(tournament: Tournament, request, exc: DomainError) -> HttpResponse:
    """A row another director deleted meanwhile: say so above the page as it is now."""
    messages.error(request, exc.message)
    return _back(tournament)


def _refused(request, tournament, key, form, exc: DomainError) -> HttpResponse:
    form.add_error(None, exc.message)
    return _page(request, tournament, (key, form))


def _submit(request, tournament, key, form, save: Callable[[], tuple[int, str]]) -> HttpResponse:
    """Every form of the page: refused (by the form or the verb ``save``), it comes back at
    its place with status 400 and nothing written; saved, the page says so next to the
    category ``save`` names with its message."""
    if not form.is_valid():
        return _page(request, tournament, (key, form))
    try:
        category_pk, message = save()
    except DomainError as exc:
        return _refused(request, tournament, key, form, exc)
    _saved(request, category_pk, message)
    return _back(tournament, f"category-{category_pk}")


@director_required
def prize_page(request, slug):
    return _page(request, get_managed_tournament(request, slug))


@director_required
@posted
def preset_add(request, slug):
    tournament = get_managed_tournament(request, slug)
    form = PresetForm(request.POST, auto_id="preset-%s")

    def save():
        data = form.cleaned_data
        category = verbs.add_preset(
            tournament, data["preset"], user=request.user, born_until=data["born_until"]
        )
        return category.pk, _("Category “%(name)s” added.") % {"name": category.name}

    return _submit(request, tournament, ("preset", None), form, save)


@director_required
@posted
def category_add(request, slug):
    tournament = get_managed_tournament(request, slug)
    form = CategoryForm(request.POST, auto_id="category-%s")

    def save():
        category = verbs.add_category(tournament, form.data_of(), user=request.user)
        return category.pk, _("Category “%(name)s” added.") % {"name": category.name}

    return _submit(request, tournament, ("category-add", None), form, save)


@director_required
@posted
def category_edit(request, slug, pk):
    tournament = get_managed_tournament(request, slug)
    category = _category(tournament, pk)
    form = CategoryForm(request.POST, auto_id=f"category-{pk}-%s")

    def save():
        saved = verbs.edit_category(category, form.data_of(), user=request.user)
        return saved.pk, _("Category “%(name)s” saved.") % {"name": saved.name}

    return _submit(request, tournament, ("category-edit", category.pk), form, save)


@director_required
@posted
def category_delete(request, slug, pk):
    tournament = get_managed_tournament(request, slug)
    category = _category(tournament, pk)
    try:
        verbs.delete_category(category, user=request.user)
    except DomainError as exc:
        return _gone(tournament, request, exc)
    messages.success(request, _("Category “%(name)s” deleted.") % {"name": category.name})
    return _back(tournament)


@director_required
@posted
def category_move(request, slug, pk, direction):
    tournament = get_managed_tournament(request, slug)
    category = _category(tournament, pk)
    try:
        verbs.move_category(category, up=direction == "up", user=request.user)
    except DomainError as exc:
        return _gone(tournament, request, exc)
    return _back(tournament, f"category-{category.pk}")


@director_required
@posted
def prize_add(request, slug, pk):
    tournament = get_managed_tournament(request, slug)
    category = _category(tournament, pk)
    form = PrizeForm(request.POST, category=category, auto_id=f"new-prize-{pk}-%s")

    def save():
        prize = verbs.add_prize(category, form.data_of(), user=request.user)
        return category.pk, _("Prize for place %(place)s added.") % {"place": prize.place}

    return _submit(request, tournament, ("prize-add", category.pk), form, save)


def _prize(tournament: Tournament, pk: int) -> Prize:
    prize = (
        Prize.objects.select_related("category")
        .filter(pk=pk, category__tournament=tournament)
        .first()
    )
    if prize is None:
        raise Gone(_("This prize was deleted meanwhile (by another director?)."))
    return prize


@director_required
@posted
def prize_edit(request, slug, pk):
    tournament = get_managed_tournament(request, slug)
    prize = _prize(tournament, pk)
    form = PrizeForm(request.POST, category=prize.category, prize=prize, auto_id=f"prize-{pk}-%s")

    def save():
        saved = verbs.edit_prize(prize, form.data_of(), user=request.user)
        return saved.category_id, _("Prize for place %(place)s saved.") % {"place": saved.place}

    return _submit(request, tournament, ("prize-edit", prize.pk), form, save)


@director_required
@posted
def prize_delete(request, slug, pk):
    tournament = get_managed_tournament(request, slug)
    prize = _prize(tournament, pk)
    category: PrizeCategory = prize.category
    try:
        verbs.delete_prize(prize, user=request.user)
    except DomainError as exc:
        return _gone(tournament, request, exc)
    _saved(request, category.pk, _("Prize for place %(place)s deleted.") % {"place": prize.place})
    return _back(tournament, f"category-{category.pk}")
