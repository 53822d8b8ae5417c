from django.contrib import admin, messages
from django.contrib.auth.decorators import login_not_required
from django.db import router
from django.db.models.deletion import Collector
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from simple_history.admin import SimpleHistoryAdmin

from scoring.game import facts_of_row

from .domain import results
from .models import (
    Club,
    DrawLog,
    Entry,
    Game,
    GameKind,
    Penalty,
    Player,
    Prize,
    PrizeCategory,
    PublishingKey,
    Registration,
    Round,
    Seat,
    Sheet,
    Table,
    Team,
    Tournament,
)
from .models.audit import stamp
from .publishing import protocol
from .service import clubs
from .web.login_limit import Attempt, too_many


def _rounds_of(row) -> set[int]:
    """The rounds whose stored results (``RoundResult``) an edit of ``row`` may change."""
    if isinstance(row, Round):
        return {row.pk}
    if isinstance(row, Seat):
        return {Table.objects.values_list("round_id", flat=True).get(pk=row.table_id)}
    if isinstance(row, Table):
        return {row.round_id}
    if isinstance(row, (Game, Sheet, Penalty)):
        return set(Table.objects.filter(pk=row.table_id).values_list("round_id", flat=True))
    if isinstance(row, Tournament):  # its rule profile: every closed round's results
        return set(row.rounds.values_list("pk", flat=True))
    return set()


def _published_copy(obj) -> bool:
    """Whether ``obj`` belongs to a tournament a club publishes to the results service."""
    for path in ("", "tournament", "round.tournament", "table.round.tournament"):
        target = obj
        for name in filter(None, path.split(".")):
            target = getattr(target, name, None)
        if isinstance(target, Tournament):
            return target.club_id is not None
    return False


class AuditedAdmin(SimpleHistoryAdmin):
    """The admin names its actor through :func:`~tournament.models.audit.stamp` like every
    other write path (there is no history middleware): saves, reverts and deletes. An edit
    that touches a closed round (a game, a seat, a sheet, the round itself) stores its
    results anew, as the verbs do (``domain.results``)."""

    def save_model(self, request, obj, form, change) -> None:
        before = type(obj)._default_manager.filter(pk=obj.pk).first() if change else None
        stamp(obj, request.user)
        super().save_model(request, obj, form, change)
        touched = _rounds_of(obj) | (_rounds_of(before) if before is not None else set())
        if touched:
            results.store_rounds(touched)

    def has_change_permission(self, request, obj=None):
        # A club's published copy is replaced by its next publication: never edited here.
        if obj is not None and _published_copy(obj):
            return False
        return super().has_change_permission(request, obj)

    def delete_model(self, request, obj) -> None:
        # What Model.delete() does, with every row the deletion cascades to named too.
        collector = Collector(using=router.db_for_write(type(obj)), origin=obj)
        collector.collect([obj])
        touched: set[int] = set()
        for rows in collector.data.values():
            for row in rows:
                stamp(row, request.user)
                if not isinstance(row, Round):
                    touched |= _rounds_of(row)
        collector.delete()
        if touched:
            results.store_rounds(touched)

    def delete_queryset(self, request, queryset) -> None:
        # One by one: a bulk DELETE would write history records that name nobody.
        for obj in queryset:
            self.delete_model(request, obj)


@admin.register(Player)
class PlayerAdmin(AuditedAdmin):
    list_display = ["last_name", "first_name", "club", "ddv_number"]
    search_fields = ["last_name", "first_name", "club", "ddv_number"]


@admin.register(Tournament)
class TournamentAdmin(AuditedAdmin):
    list_display = ["name", "date", "rule_profile", "get_status_display", "is_public", "club"]
    list_filter = ["rule_profile", "is_public", "club"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors", "referees"]

    def get_queryset(self, request):
        # The status comes from the rounds: counted in the list's own query.
        return super().get_queryset(request).with_status()


@admin.register(Team)
class TeamAdmin(AuditedAdmin):
    list_display = ["name", "tournament"]
    list_filter = ["tournament"]


@admin.register(Entry)
class EntryAdmin(AuditedAdmin):
    list_display = ["start_number", "player", "tournament", "team", "status", "checked_in"]
    list_filter = ["tournament", "status", "checked_in"]
    search_fields = ["player__last_name", "player__first_name"]
    list_select_related = ["player", "tournament", "team"]


@admin.register(Registration)
class RegistrationAdmin(AuditedAdmin):
    """Online registrations; the directors' page is the normal way to handle them."""

    list_display = ["last_name", "first_name", "tournament", "state", "position", "entry"]
    list_filter = ["tournament", "state"]
    search_fields = ["last_name", "first_name", "email"]
    list_select_related = ["tournament", "entry"]
    readonly_fields = ["entry", "personal_data_deleted_at"]


@admin.register(Round)
class RoundAdmin(AuditedAdmin):
    list_display = ["tournament", "number", "status", "draw_seed"]
    list_filter = ["tournament", "status"]


@admin.register(Table)
class TableAdmin(AuditedAdmin):
    list_display = ["round", "number", "size"]
    list_filter = ["round__tournament"]


@admin.register(Sheet)
class SheetAdmin(AuditedAdmin):
    """The workflow of a table's Spielliste (status, confirmation, extra time): for repairs;
    the office pages are the normal way to change it."""

    # "Table 3" says which table only together with its round and tournament.
    list_display = [
        "table",
        "table__round",
        "table__round__tournament",
        "status",
        "submitted_by",
        "confirmed_by",
        "extra_minutes",
    ]
    list_filter = ["table__round__tournament", "status"]
    list_select_related = ["table__round__tournament"]
    readonly_fields = ["table"]


@admin.register(Seat)
class SeatAdmin(AuditedAdmin):
    list_display = ["table", "position", "entry"]
    list_filter = ["round__tournament"]
    exclude = ["round"]


@admin.register(Game)
class GameAdmin(AuditedAdmin):
    list_display = ["table", "number", "kind", "soloist_position", "p1", "p2", "p3", "p4", "p5"]
    list_filter = ["table__round__tournament", "kind"]
    # Only the Spielwert-Rechner writes a game's facts (the statistics read them only while
    # they give the row, so a row changed here simply stops counting them).
    readonly_fields = ["facts"]

    def save_model(self, request, obj, form, change) -> None:
        # Like every other change of a row (tournament/sheets/verbs.py): facts that no
        # longer give the row are dropped, never kept as a contradiction.
        fits = facts_of_row(
            obj.table.round.tournament.profile,
            obj.facts,
            solo=GameKind(obj.kind).scoring.is_solo,
            soloist=obj.soloist_position,
            points=tuple(obj.points),
        )
        if fits is None:
            obj.facts = None
        super().save_model(request, obj, form, change)


@admin.register(Penalty)
class PenaltyAdmin(AuditedAdmin):
    """Read only: penalties are entered, signed and revoked on the referee pages, which keep
    the rules and the record; none is ever deleted."""

    list_display = [
        "tournament",
        "number",
        "table",
        "game_number",
        "offender",
        "category",
        "referee",
        "signed_at",
    ]
    list_filter = ["tournament", "category"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(DrawLog)
class DrawLogAdmin(admin.ModelAdmin):
    list_display = ["round", "action", "seed", "user", "at", "repeat_pairs", "seconds"]
    list_filter = ["round__tournament", "action"]


_admin_login = admin.site.login


@never_cache
@login_not_required
def limited_admin_login(request, extra_context=None):
    """The admin's login under the same limits as the site's (tournament/web/login_limit.py): a
    password guessed here counts against the same account and address."""
    if request.method != "POST":
        return _admin_login(request, extra_context)
    attempt = Attempt.of(request)
    wait = attempt.take()
    if wait is not None:
        return too_many(request, wait)
    response = _admin_login(request, extra_context)
    attempt.record(request, response)
    return response


admin.site.login = limited_admin_login  # type: ignore[method-assign]


def _key_shown_once(request, club: Club, key: protocol.Key):
    """The page that shows a new publishing key whole: the only time it is shown."""
    context = {
        **admin.site.each_context(request),
        "title": _("New publishing key"),
        "club": club,
        "key": str(key),
        "key_id": key.key_id,
    }
    response = TemplateResponse(request, "admin/tournament/publishing_key_once.html", context)
    response["Cache-Control"] = "no-store"
    return response


class PublishingKeyInline(admin.TabularInline):
    """A club's keys on its page: their ids and state, never their secrets."""

    model = PublishingKey
    fields = ("key_id", "created_at", "revoked_at", "last_used_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False  # made by the action (shown once), not typed in


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    """Clubs of the results service. A new key: the action below (shown once)."""

    inlines = [PublishingKeyInline]
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    actions = ["issue_key", "rotate_keys"]

    @admin.action(description=_("Issue a new publishing key (shown once)"))
    def issue_key(self, request, queryset):
        return self._issue(request, queryset, revoke_others=False)

    @admin.action(description=_("Rotate: a new key, the club's other keys revoked"))
    def rotate_keys(self, request, queryset):
        return self._issue(request, queryset, revoke_others=True)

    def _issue(self, request, queryset, *, revoke_others: bool):
        chosen = list(queryset[:2])
        if len(chosen) != 1:
            self.message_user(request, _("Choose exactly one club."), level=messages.ERROR)
            return None
        club = chosen[0]
        return _key_shown_once(request, club, clubs.issue_key(club, revoke_others=revoke_others))


@admin.register(PublishingKey)
class PublishingKeyAdmin(admin.ModelAdmin):
    """The keys: their ids, never their secrets. Adding one shows it once."""

    list_display = ["key_id", "club", "created_at", "revoked_at", "last_used_at"]
    list_filter = ["club"]
    search_fields = ["key_id", "club__name"]
    actions = ["revoke"]

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["club"]
        return ["club", "key_id", "created_at", "revoked_at", "last_used_at"]

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else self.get_fields(request, obj)

    def has_change_permission(self, request, obj=None):
        return False  # a key is made and revoked, never edited

    def save_model(self, request, obj, form, change) -> None:
        key = clubs.issue_key(obj.club)
        obj.pk = PublishingKey.objects.get(key_id=key.key_id).pk
        request.new_publishing_key = key

    def response_add(self, request, obj, post_url_continue=None):
        return _key_shown_once(request, obj.club, request.new_publishing_key)

    @admin.action(description=_("Revoke the chosen keys"))
    def revoke(self, request, queryset):
        for key in queryset:
            clubs.revoke_key(key.key_id)
        self.message_user(request, _("The keys are revoked."), level=messages.SUCCESS)


@admin.register(PrizeCategory)
class PrizeCategoryAdmin(AuditedAdmin):
    """A tournament's prize categories (issue 38); the prize page is the normal way."""

    list_display = ["name", "tournament", "order", "measure", "ties"]
    list_filter = ["tournament"]


@admin.register(Prize)
class PrizeAdmin(AuditedAdmin):
    list_display = ["category", "place", "kind", "value", "goods"]
    list_filter = ["category__tournament"]
    list_select_related = ["category"]
