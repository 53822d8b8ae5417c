"""python manage.py createdirector [--username NAME]: a director account (Turnierleitung)."""

import getpass
import os

from django.core.management.base import BaseCommand, CommandError

from tournament.domain import DomainError
from tournament.domain.accounts import create_director

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
        username = options["username"]
        if options["interactive"]:
            username = username or input("User name: ")
            password = getpass.getpass("Password: ")
            if password != getpass.getpass("Password (again): "):
                raise CommandError("The two passwords differ. Nothing was created.")
        else:
            password = os.environ.get(PASSWORD_ENV, "")
            if not username or not password:
                raise CommandError(
                    f"--noinput needs --username and the password in {PASSWORD_ENV}."
                )
        try:
            user = create_director(
                username or "",
                password,
                first_name=options["first_name"],
                last_name=options["last_name"],
            )
        except DomainError as exc:
            raise CommandError(f"{exc.message} Nothing was created.") from exc
        self.stdout.write(f"Director account {user.get_username()!r} created.")
