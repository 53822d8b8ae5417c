"""python manage.py createdirector [--username NAME]: a director account (Turnierleitung)."""

import getpass
import os

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _

from tournament.domain.accounts import create_director
from tournament.errors import DomainError

PASSWORD_ENV = "KREUZDAME_DIRECTOR_PASSWORD"  # noqa: S105 - the name of a variable


class Command(BaseCommand):
    help = (
        "Create a director account (group Turnierleitung). Asks for the password; with "
        f"--noinput it is read from the environment variable {PASSWORD_ENV}."
    )

    def add_arguments(self, parser):
        parser.add_argument("--username", help="user name to log in with")
        parser.add_argument("--first-name", default="")
        parser.add_argument("--last-name", default="")
        parser.add_argument(
            "--noinput", "--no-input", action="store_false", dest="interactive", default=True
        )

    def handle(self, *args, **options):
        # Directors read the site's language (German) here as on the site.
        with translation.override(settings.LANGUAGE_CODE):
            user = self._create(options)
            self.stdout.write(_("Director account %s created.") % user.get_username())

    def _create(self, options):
        username = options["username"]
        nothing = _("Nothing was created.")
        if options["interactive"]:
            username = username or input(_("User name: "))
            password = getpass.getpass(_("Password: "))
            if password != getpass.getpass(_("Password (again): ")):
                raise CommandError(f"{_('The two passwords differ.')} {nothing}")
        else:
            password = os.environ.get(PASSWORD_ENV, "")
            if not username or not password:
                raise CommandError(
                    _("--noinput needs --username and the password in %(variable)s.")
                    % {"variable": PASSWORD_ENV}
                )
        try:
            return create_director(
                username or "",
                password,
                first_name=options["first_name"],
                last_name=options["last_name"],
            )
        except DomainError as exc:
            raise CommandError(f"{exc.message} {nothing}") from exc
