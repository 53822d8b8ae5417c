"""python manage.py club ...: the results service's clubs and their publishing keys.

club add "SV Kreuzdame Köln" --slug koeln   a new club (its page: /verein/koeln/)
club key koeln                              a new key for the club, printed once
club rotate koeln                           a new key; the club's other keys are revoked
club revoke KEY_ID                          that key stops working at once
club list                                   clubs, their keys (ids only) and tournaments
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Count
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.errors import DomainError
from tournament.models import Club
from tournament.service import clubs


class Command(BaseCommand):
    help = "The results service's clubs and their publishing keys (add, key, rotate, revoke, list)."

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", required=True)
        add = actions.add_parser("add", help="a new club")
        add.add_argument("name")
        add.add_argument("--slug", default="", help="its short name in addresses")
        key = actions.add_parser("key", help="a new publishing key, printed once")
        key.add_argument("slug")
        rotate = actions.add_parser("rotate", help="a new key; the club's others are revoked")
        rotate.add_argument("slug")
        revoke = actions.add_parser("revoke", help="revoke a key")
        revoke.add_argument("key_id")
        actions.add_parser("list", help="clubs and their keys")

    def handle(self, *args, **options):
        with translation.override(settings.LANGUAGE_CODE):
            try:
                getattr(self, f"_{options['action']}")(options)
            except DomainError as exc:
                raise CommandError(str(exc.message)) from None

    def _add(self, options):
        club = clubs.add_club(options["name"], slug=options["slug"])
        self.stdout.write(
            _("Club “%(name)s” created: /verein/%(slug)s/") % {"name": club.name, "slug": club.slug}
        )

    def _key(self, options, *, rotate: bool = False):
        club = clubs.get_club(options["slug"])
        key = clubs.issue_key(club, revoke_others=rotate)
        self.stderr.write(
            _(
                "The new publishing key of %(club)s (shown only now; the club's director "
                "enters it once on the laptop):"
            )
            % {"club": club.name}
        )
        self.stdout.write(str(key))
        if rotate:
            self.stderr.write(_("The club's other keys are revoked."))

    def _rotate(self, options):
        self._key(options, rotate=True)

    def _revoke(self, options):
        key = clubs.revoke_key(options["key_id"])
        self.stdout.write(
            _("Key %(key)s of %(club)s is revoked.") % {"key": key.key_id, "club": key.club}
        )

    def _list(self, options):
        listed = Club.objects.annotate(
            published=Count("tournaments", distinct=True),
        ).prefetch_related("keys")
        for club in listed:
            self.stdout.write(
                ngettext(
                    "%(slug)s: %(name)s, %(count)s tournament",
                    "%(slug)s: %(name)s, %(count)s tournaments",
                    club.published,
                )
                % {"slug": club.slug, "name": club.name, "count": club.published}
            )
            for key in club.keys.all():
                state = _("revoked") if key.revoked_at else _("active")
                used = (
                    timezone.localtime(key.last_used_at).isoformat(timespec="minutes")
                    if key.last_used_at
                    else "-"
                )
                self.stdout.write(f"  {key.key_id}  {state}  {used}")
        if not listed:
            self.stdout.write(_("No clubs yet."))
