"""python manage.py mergeplayers KEEP DROP --reason TEXT | --list: clean up the player
database from the command line (the same verb as the directors' page, with every right)."""

from django.core.management.base import BaseCommand, CommandError

from tournament.domain.players import merge_players, possible_duplicates
from tournament.errors import DomainError
from tournament.models import Player
from tournament.tasks.mail import RequestMailer


def _describe(player: Player) -> str:
    details = [player.club, f"DDV {player.ddv_number}" if player.ddv_number else ""]
    extra = ", ".join(d for d in details if d)
    return f"#{player.pk} {player.full_name}" + (f" ({extra})" if extra else "")


class Command(BaseCommand):
    help = (
        "Merge player DROP into player KEEP: DROP's entries move to KEEP, DROP is deleted, the "
        "history records the reason. --list shows players whose names differ only in how "
        "umlauts, accents or case were typed."
    )

    def add_arguments(self, parser):
        parser.add_argument("keep", nargs="?", type=int, help="id of the player to keep")
        parser.add_argument("drop", nargs="?", type=int, help="id of the player to merge away")
        parser.add_argument("--reason", default="", help="why the two are one person")
        parser.add_argument("--list", action="store_true", help="list possible duplicates")

    def handle(self, *args, **options):
        if options["list"]:
            for group in possible_duplicates(None):
                self.stdout.write(" = ".join(_describe(p) for p in group))
            return
        if options["keep"] is None or options["drop"] is None:
            raise CommandError("Give KEEP and DROP (player ids), or --list.")
        players = Player.objects.in_bulk([options["keep"], options["drop"]])
        missing = [n for n in (options["keep"], options["drop"]) if n not in players]
        if missing:
            raise CommandError(f"No player with id {missing[0]}.")
        mail = RequestMailer(None)  # a place that comes free goes to the waiting list
        try:
            keep = merge_players(
                players[options["keep"]],
                players[options["drop"]],
                user=None,
                reason=options["reason"],
                mail=mail,
            )
        except DomainError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"Merged #{options['drop']} into {_describe(keep)}.")
        if mail.moved_up:
            names = ", ".join(r.full_name for r in mail.moved_up)
            told = "e-mail sent" if mail.sends else "no e-mail sent: SITE_URL is not set"
            self.stdout.write(f"Moved up from the waiting list: {names} ({told}).")
