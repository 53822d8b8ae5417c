import json
import time

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from tournament import seating
from tournament.wording.findings import impossible_field_message


class Command(BaseCommand):
    help = (
        "Draw a table plan for players 1..N over R rounds and print it with its quality as "
        "JSON. Each inner list is one table in seat-position order."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--time-limit", type=float, default=8.0, help="seconds (default 8)")

    def handle(self, *args, **options):
        players, rounds = options["players"], options["rounds"]
        if players < 1 or rounds < 1 or rounds > 100 or players > 10_000:
            raise CommandError(_("Players must be 1 to 10000 and rounds 1 to 100."), returncode=2)
        if options["time_limit"] <= 0:
            raise CommandError(_("The time limit must be positive."), returncode=2)
        try:
            seating.table_sizes(players)
        except seating.ImpossibleField as exc:
            raise CommandError(
                impossible_field_message(exc.players, exc.add, exc.remove), returncode=2
            ) from None
        started = time.perf_counter()
        plan = seating.draw(
            seating.DrawRequest(
                players=list(range(1, players + 1)),
                rounds=rounds,
                seed=options["seed"],
                time_limit=options["time_limit"],
            )
        )
        seconds = time.perf_counter() - started
        quality = seating.evaluate(plan.rounds)
        unfair = plan.stats.unfair
        # stdout depends on the arguments alone (the same JSON on every machine, under any
        # load); the time taken goes to stderr.
        report = {
            "players": players,
            "rounds": [[list(table) for table in round_] for round_ in plan.rounds],
            "stats": {
                "repeat_pairs": quality.repeat_pairs,
                "lower_bound": seating.lower_bound(players, rounds),
                "five_table_spread": quality.five_table_spread,
                "position_balance": quality.position_balance,
                "method": plan.stats.method,
                # what fair 5-tables cost: a plan that ignored fairness (or null)
                "without_fair_five_tables": None
                if unfair is None
                else {
                    "repeat_pairs": unfair.repeat_pairs,
                    "five_table_spread": unfair.five_table_spread,
                },
            },
        }
        self.stdout.write(json.dumps(report))
        self.stderr.write(_("Drawn in %(seconds)s s.") % {"seconds": f"{seconds:.2f}"})
        if plan.stats.timed_out:
            self.stderr.write(
                _("The clock cut the search short: the seed may give another plan elsewhere.")
            )
