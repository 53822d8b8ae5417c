from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.domain import results
from tournament.models import Round, RoundStatus, Tournament


class Command(BaseCommand):
    help = (
        "Recompute every closed round's results from its games and penalties and compare them "
        "with the stored ones. Exit 0 if they agree, 1 on any difference."
    )

    def add_arguments(self, parser):
        parser.add_argument("slugs", nargs="*", help="only these tournaments (short names)")
        parser.add_argument(
            "--store",
            action="store_true",
            help="after the report, store the recomputed results of the rounds that differ",
        )

    def handle(self, *args, **options):
        tournaments = None
        if options["slugs"]:
            found = dict(
                Tournament.objects.filter(slug__in=options["slugs"]).values_list("slug", "pk")
            )
            unknown = sorted(set(options["slugs"]) - set(found))
            if unknown:
                raise CommandError(
                    _("No tournament with the short name %(slugs)s.")
                    % {"slugs": ", ".join(unknown)},
                    returncode=2,
                )
            tournaments = list(found.values())
        differences = results.differences(tournaments)
        for difference in differences:
            self.stdout.write(str(difference))
        closed = Round.objects.filter(status=RoundStatus.CLOSED)
        if tournaments is not None:
            closed = closed.filter(tournament_id__in=tournaments)
        if not differences:
            self.stdout.write(
                ngettext(
                    "%(count)s closed round: the stored results agree with the games.",
                    "%(count)s closed rounds: the stored results agree with the games.",
                    closed.count(),
                )
                % {"count": closed.count()}
            )
            return
        if options["store"]:
            slugs = {d.tournament for d in differences}
            rounds = closed.filter(tournament__slug__in=slugs)
            wanted = {(d.tournament, d.round) for d in differences}
            ids = [
                pk
                for pk, slug, number in rounds.values_list("pk", "tournament__slug", "number")
                if (slug, number) in wanted
            ]
            with transaction.atomic():
                results.store_rounds(ids)
            stored = ngettext(
                "Stored anew: %(count)s round.", "Stored anew: %(count)s rounds.", len(ids)
            )
            self.stdout.write(stored % {"count": len(ids)})
        raise CommandError(
            ngettext(
                "%(count)s stored result differs from the games.",
                "%(count)s stored results differ from the games.",
                len(differences),
            )
            % {"count": len(differences)},
            returncode=1,
        )
