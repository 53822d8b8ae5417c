from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path

from .views import calculator, entries, imports, public, rounds, tournaments

manage_patterns = (
    [
        path("", tournaments.tournament_list, name="tournament-list"),
        path("new/", tournaments.tournament_create, name="tournament-create"),
        path("<slug:slug>/", entries.entry_list, name="entry-list"),
        path("<slug:slug>/edit/", tournaments.tournament_edit, name="tournament-edit"),
        path("<slug:slug>/entries/add/", entries.entry_add, name="entry-add"),
        path("<slug:slug>/entries/<int:pk>/checkin/", entries.entry_checkin, name="entry-checkin"),
        re_path(
            r"^(?P<slug>[-\w]+)/entries/(?P<pk>[0-9]+)/(?P<action>withdraw|readmit)/$",
            entries.entry_status,
            name="entry-status",
        ),
        path("<slug:slug>/import/", imports.import_upload, name="import"),
        path("<slug:slug>/import/confirm/", imports.import_confirm, name="import-confirm"),
        path("<slug:slug>/rounds/", rounds.round_list, name="round-list"),
        path("<slug:slug>/rounds/draw/", rounds.round_draw, name="round-draw"),
        path("<slug:slug>/rounds/<int:number>/", rounds.round_detail, name="round-detail"),
        path("<slug:slug>/rounds/<int:number>/swap/", rounds.round_swap, name="round-swap"),
        path(
            "<slug:slug>/rounds/<int:number>/release/", rounds.round_release, name="round-release"
        ),
    ],
    "manage",
)

urlpatterns = [
    path("", public.home, name="home"),
    path("t/<slug:slug>/", public.tournament_public, name="tournament-public"),
    path("t/<slug:slug>/rechner/", calculator.calculator, name="tournament-calculator"),
    path("t/<slug:slug>/wo-sitze-ich/", public.where_do_i_sit, name="where-do-i-sit"),
    path("rechner/", calculator.calculator, name="calculator"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("manage/", include(manage_patterns)),
    path("admin/", admin.site.urls),
]
