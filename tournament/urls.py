from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path

from .views import (
    auth,
    calculator,
    entries,
    imports,
    keeper,
    office,
    penalties,
    players,
    printing,
    projector,
    public,
    registrations,
    rounds,
    series,
    signup,
    standings,
    tournaments,
)

manage_patterns = (
    [
        path("", tournaments.tournament_list, name="tournament-list"),
        path("new/", tournaments.tournament_create, name="tournament-create"),
        path("referee/", penalties.referee_home, name="referee-home"),
        path("series/", series.series_list, name="series-list"),
        path("series/new/", series.series_create, name="series-create"),
        path("series/<slug:slug>/", series.series_detail, name="series-detail"),
        path("series/<slug:slug>/edit/", series.series_edit, name="series-edit"),
        path("series/<slug:slug>/delete/", series.series_delete, name="series-delete"),
        re_path(
            r"^series/(?P<slug>[-\w]+)/export\.(?P<fmt>pdf|xlsx)$",
            series.series_download,
            name="series-download",
        ),
        path("<slug:slug>/", entries.entry_list, name="entry-list"),
        path("<slug:slug>/edit/", tournaments.tournament_edit, name="tournament-edit"),
        path("<slug:slug>/entries/add/", entries.entry_add, name="entry-add"),
        path("<slug:slug>/entries/<int:pk>/checkin/", entries.entry_checkin, name="entry-checkin"),
        path("<slug:slug>/entries/<int:pk>/edit/", entries.entry_edit, name="entry-edit"),
        path(
            "<slug:slug>/entries/checkin/",
            entries.entry_checkin_number,
            name="entry-checkin-number",
        ),
        path(
            "<slug:slug>/entries/checkin-all/", entries.entry_checkin_all, name="entry-checkin-all"
        ),
        path("<slug:slug>/entries/<int:pk>/fee/", entries.entry_fee, name="entry-fee"),
        path("<slug:slug>/entries/fees.xlsx", entries.fees_export, name="entry-fees-export"),
        path(
            "<slug:slug>/entries/checkin-link/",
            entries.checkin_link_toggle,
            name="checkin-link-toggle",
        ),
        path(
            "<slug:slug>/registrations/",
            registrations.registration_list,
            name="registration-list",
        ),
        re_path(
            r"^(?P<slug>[-\w]+)/registrations/(?P<pk>[0-9]+)/"
            r"(?P<action>approve|decline|cancel|up|down|accept)/$",
            registrations.registration_action,
            name="registration-action",
        ),
        path(
            "<slug:slug>/registrations/forget/",
            registrations.registration_forget,
            name="registration-forget",
        ),
        path("<slug:slug>/players/merge/", players.player_merge, name="player-merge"),
        path(
            "<slug:slug>/entries/<int:pk>/personal-data.json",
            players.player_data,
            name="player-data",
        ),
        path("<slug:slug>/entries/cards/", printing.player_cards_pdf, name="player-cards"),
        re_path(
            r"^(?P<slug>[-\w]+)/entries/(?P<pk>[0-9]+)/(?P<action>withdraw|readmit)/$",
            entries.entry_status,
            name="entry-status",
        ),
        path("<slug:slug>/import/", imports.import_upload, name="import"),
        path("<slug:slug>/import/confirm/", imports.import_confirm, name="import-confirm"),
        path("<slug:slug>/rounds/", rounds.round_list, name="round-list"),
        path("<slug:slug>/standings/", standings.standings, name="standings"),
        re_path(
            r"^(?P<slug>[-\w]+)/export/(?P<what>standings|teams|rounds)\.(?P<fmt>pdf|xlsx)$",
            standings.standings_export,
            name="standings-export",
        ),
        re_path(
            r"^(?P<slug>[-\w]+)/export/results\.(?P<fmt>csv|xlsx)$",
            standings.results_export,
            name="results-export",
        ),
        path("<slug:slug>/rounds/draw/", rounds.round_draw, name="round-draw"),
        path("<slug:slug>/rounds/<int:number>/", rounds.round_detail, name="round-detail"),
        path("<slug:slug>/rounds/<int:number>/swap/", rounds.round_swap, name="round-swap"),
        path(
            "<slug:slug>/rounds/<int:number>/release/", rounds.round_release, name="round-release"
        ),
        path("<slug:slug>/rounds/<int:number>/board/", office.board, name="board"),
        path("<slug:slug>/rounds/<int:number>/print/", printing.print_pack, name="print-pack"),
        path("<slug:slug>/rounds/<int:number>/close/", office.round_close, name="round-close"),
        path(
            "<slug:slug>/rounds/<int:number>/tables/<int:table_number>/",
            office.desk_sheet,
            name="sheet-desk",
        ),
        path(
            "<slug:slug>/rounds/<int:number>/tables/<int:table_number>/import/",
            office.sheet_import,
            name="sheet-import",
        ),
        path(
            "<slug:slug>/rounds/<int:number>/tables/<int:table_number>/history/",
            office.sheet_history,
            name="sheet-history",
        ),
        path(
            "<slug:slug>/rounds/<int:number>/tables/<int:table_number>/penalty/",
            penalties.penalty_add,
            name="penalty-add",
        ),
        path("<slug:slug>/referee/", penalties.referee_dashboard, name="referee"),
        path("<slug:slug>/referee/accounts/", penalties.referee_accounts, name="referees"),
        path("<slug:slug>/referee/calls/<int:pk>/done/", penalties.call_done, name="call-done"),
        path("<slug:slug>/projector/", projector.projector, name="projector"),
        path("<slug:slug>/projector/new-link/", projector.projector_renew, name="projector-renew"),
        path("<slug:slug>/penalties/", penalties.penalty_list, name="penalty-list"),
        path("<slug:slug>/penalties/export.xlsx", penalties.penalty_export, name="penalty-export"),
        path("<slug:slug>/penalties/<int:pk>/", penalties.penalty_detail, name="penalty-detail"),
        re_path(
            r"^(?P<slug>[-\w]+)/penalties/(?P<pk>[0-9]+)/(?P<action>sign|revoke)/$",
            penalties.penalty_action,
            name="penalty-action",
        ),
        re_path(
            r"^(?P<slug>[-\w]+)/rounds/(?P<number>[0-9]+)/tables/(?P<table_number>[0-9]+)/"
            r"(?P<action>submit|confirm|reopen|extra-time|time-up|renew-codes)/$",
            office.sheet_action,
            name="sheet-action",
        ),
    ],
    "manage",
)

handler400 = "tournament.views.errors.bad_request"

urlpatterns = [
    path("", public.home, name="home"),
    path("t/<slug:slug>/", public.tournament_public, name="tournament-public"),
    path("serie/<slug:slug>/", series.series_public, name="series-public"),
    path("serie/<slug:slug>/spieler/<int:player>/", series.series_player, name="series-player"),
    re_path(
        r"^serie/(?P<slug>[-\w]+)/export\.(?P<fmt>pdf|xlsx)$",
        series.series_export,
        name="series-export",
    ),
    path("t/<slug:slug>/rechner/", calculator.calculator, name="tournament-calculator"),
    path("t/<slug:slug>/wo-sitze-ich/", public.where_do_i_sit, name="where-do-i-sit"),
    path("t/<slug:slug>/stand/", standings.public_standings, name="public-standings"),
    path("t/<slug:slug>/tischplan/", public.table_plan, name="public-table-plan"),
    path("t/<slug:slug>/leinwand/", projector.public_screen, name="public-projector"),
    path(
        "t/<slug:slug>/leinwand/daten/",
        projector.public_screen_data,
        name="public-projector-data",
    ),
    path("leinwand/<str:token>/", projector.screen, name="projector"),
    path("leinwand/<str:token>/daten/", projector.screen_data, name="projector-data"),
    path("rechner/", calculator.calculator, name="calculator"),
    path("tisch/<str:token>/", keeper.keeper_sheet, name="keeper-sheet"),
    path("tisch/<str:token>/loeschen/", keeper.keeper_delete, name="keeper-delete"),
    path("tisch/<str:token>/abgeben/", keeper.keeper_submit, name="keeper-submit"),
    path("tisch/<str:token>/bestaetigen/", keeper.keeper_confirm, name="keeper-confirm"),
    path("tisch/<str:token>/zeit/", keeper.keeper_time_up, name="keeper-time-up"),
    path("tisch/<str:token>/stand/", keeper.keeper_status, name="keeper-status"),
    path("tisch/<str:token>/rechner/", keeper.keeper_calculator, name="keeper-calculator"),
    path("tisch/<str:token>/schiedsrichter/", keeper.keeper_call, name="keeper-call"),
    path("t/<slug:slug>/anmeldung/", signup.signup_form, name="registration-form"),
    path("anmeldung/link/", signup.resend_link, name="registration-resend"),
    path("anmeldung/<str:token>/", signup.personal, name="registration-personal"),
    path("anmeldung/<str:token>/aendern/", signup.personal_edit, name="registration-edit"),
    path("anmeldung/<str:token>/absagen/", signup.personal_cancel, name="registration-cancel"),
    path("anmeldung/<str:token>/ich-bin-da/", signup.personal_checkin, name="registration-checkin"),
    path("anmeldung/<str:token>/drucken/", signup.personal_print, name="registration-print"),
    path("login/", auth.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("manage/", include(manage_patterns)),
    path("admin/", admin.site.urls),
]
