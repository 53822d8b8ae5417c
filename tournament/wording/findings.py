"""The sentences behind the rules engine's stable codes, in the user's language.

``scoring`` returns codes and parameters only; this module is the one place that turns them
into German (or English) text for pages, exports and the command line.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django_stubs_ext import StrOrPromise

from ..models.tournament import PROFILE_LABELS

FINDINGS = {
    "zero-sum": _("The values of this row do not add up to 0 (sum %(sum)s)."),
    "even-odd": _("All values must be even or all odd (even/odd rule)."),
    "pattern": _("These values fit no game of this kind."),
    "pattern-normal": _(
        "These values fit no normal game: two players get +v and two −v (e.g. +2, +2, −2, −2)."
    ),
    "pattern-solo": _(
        "These values fit no solo of position %(soloist)s: the soloist gets three times the "
        "value of each other player, with the opposite sign (e.g. +6, −2, −2, −2)."
    ),
    "pattern-normal-plus-points": _(
        "These values fit no normal game: with plus points two players get the same points "
        "and the other two the same points, none below 0."
    ),
    "pattern-solo-plus-points": _(
        "These values fit no solo of position %(soloist)s: with plus points a won solo gives "
        "the soloist 3v and the others 0, a lost one gives each other player v and the soloist "
        "0."
    ),
    "pattern-fits-normal": _("These values are those of a normal game."),
    "pattern-fits-solo": _("These values are those of a solo of position %(fits_soloist)s."),
    "running-total-high": _(
        "Game %(game)s, position %(position)s: the running total is %(amount)s too high; from "
        "game %(next)s on it is right again."
    ),
    "running-total-low": _(
        "Game %(game)s, position %(position)s: the running total is %(amount)s too low; from "
        "game %(next)s on it is right again."
    ),
    "running-totals-high": _(
        "Games %(game)s to %(last)s, position %(position)s: the running totals are %(amount)s "
        "too high; from game %(next)s on they are right again."
    ),
    "running-totals-low": _(
        "Games %(game)s to %(last)s, position %(position)s: the running totals are %(amount)s "
        "too low; from game %(next)s on they are right again."
    ),
    "penalty-no-deduction": _(
        "Penalty row: the rules “%(rules)s” have no point deduction (a single player minus, "
        "nobody credited)."
    ),
    "penalty-sitter-nonzero": _(
        "Penalty row: position %(position)s deals and sits out this game and must have 0 points."
    ),
    "penalty-deduction-too-high": _(
        "Penalty row: a point deduction is at most %(maximum)s points (%(rule)s)."
    ),
    "penalty-fits-solo": _(
        "Penalty row: these values belong to a penalty in a solo of position %(fits)s, but game "
        "%(game)s is a normal game on the score sheet."
    ),
    "penalty-fits-other-soloist": _(
        "Penalty row: these values belong to a penalty in a solo of position %(fits)s, but in "
        "game %(game)s position %(soloist)s plays the solo."
    ),
    "penalty-fits-other-dealer": _(
        "Penalty row: these values belong to a game dealt by position %(fits)s, but game "
        "%(game)s is dealt by position %(dealer)s (who sits out)."
    ),
    "penalty-zero-sum": _(
        "Penalty row: the values add up to %(sum)s. A penalty adds up to 0 — only a point "
        "deduction (one player minus, nobody credited) does not."
    ),
    "penalty-even-odd": _(
        "Penalty row: at a 4-table a penalty keeps the even/odd rule too, except a penalty in "
        "favour of the soloist (%(credits)s) and a point deduction."
    ),
    "penalty-pattern": _(
        "Penalty row: these values fit no penalty. A minor violation: −3 for the offender, +1 "
        "for each other player; a serious one: −12 (−15, −18, …) and +4 (+5, +6, …) each; in "
        "a solo the soloist may be the only one credited."
    ),
    "solo-penalty-in-row": _(
        "+%(amount)s for the soloist and −%(amount)s for position %(offender)s are a "
        "referee's penalty for a serious violation in the solo (TSR 9.4.4: the solo counts as "
        "played). Enter the solo with 0 points for everybody (as running totals: the totals of "
        "the line above), and the penalty as a row of its own: the referees enter it."
    ),
    "sitter-nonzero": _(
        "Position %(position)s deals and sits out this game and must have 0 points."
    ),
    "soloist-missing": _("A solo needs the position of the soloist."),
    "soloist-sits": _("Position %(position)s deals and sits out: they cannot play the solo."),
    "pflichtsolo-twice": _("Position %(position)s has already played a Pflichtsolo."),
    "lustsolo-before-pflichtsolo": _(
        "Position %(position)s may play a Lustsolo only after their Pflichtsolo."
    ),
    "vorfuehren-missed": _(
        "This game had to be a vorgeführtes Pflichtsolo of position %(position)s."
    ),
    "vorfuehren-not-due": _("No vorgeführtes Pflichtsolo was due in this game."),
    "pflichtsolo-missing": _("Position %(position)s has not played a Pflichtsolo."),
    "too-many-games": _("%(count)s games: a round has only %(nominal)s."),
    "too-few-games": _("%(count)s of %(nominal)s games (time limit or struck games?)."),
    "value-implausible": _("A game value of %(value)s is unusually high — typo?"),
    "penalty-game-unknown": _("This penalty names a game that is not on the score sheet."),
    "game-number": _("Game numbers must run 1, 2, 3, …: expected %(expected)s here."),
    "after-time-limit": _(
        "The time was up before this game: only vorgeführte Pflichtsoli may follow."
    ),
}

INVALID_FACTS = {
    "not-an-object": _("The facts must be a JSON object."),
    "unknown-field": _("Unknown field “%(field)s”."),
    "missing-field": _("The field “%(field)s” is missing."),
    "not-a-number": _("“%(field)s” must be a whole number."),
    "not-a-boolean": _("“%(field)s” must be true or false."),
    "bad-table-size": _("A table has 4 or 5 players, not %(value)s."),
    "dealer-outside-table": _("There is no position %(dealer)s at a table of %(size)s."),
    "dealer-required": _("At a 5-table the dealer (who sits out) must be given."),
    "bad-kind": _("The kind must be “normal” or “solo”."),
    "bad-re": _("The Re positions must be different positions at the table."),
    "re-count": _("A %(kind)s game has %(expected)s Re player(s), not %(given)s."),
    "sitter-plays": _("Position %(dealer)s deals and sits out: they cannot be Re."),
    "eyes-out-of-range": _("Re's card points must be between 0 and 240, not %(value)s."),
    "eyes-impossible": _(
        "Re cannot have %(value)s card points (Kontra would have %(other)s): with %(cards)s "
        "cards a party ends with 0 card points or at least %(smallest)s."
    ),
    "no-trick-with-eyes": _("A party without a trick has 0 card points (Re has %(re_eyes)s)."),
    "both-no-trick": _("Both parties cannot be without a trick."),
    "bad-announced": _("Announcements are “re” and/or “kontra”."),
    "bad-absage": _("An Absage is 90, 60, 30 or 0 (schwarz)."),
    "bad-sonderpunkte": _("Extra points are whole numbers from 0 to 12 per party."),
    "sonderpunkte-in-solo": _("There are no extra points in a solo."),
    "offender-not-playing": _(
        "Position %(offender)s deals and sits out this game: they cannot have committed this "
        "violation."
    ),
    "soloist-missing": _("Name the soloist of this game."),
    "soloist-in-normal-game": _("A normal game has no soloist."),
    "bad-k": _("The other party can have made at most 4 Absagen (keine 90 to schwarz)."),
    "deduction-not-allowed": _("The tournament's rule profile does not provide this sanction."),
    "deduction-out-of-range": _("Deduct between 1 and %(maximum)s points."),
    "sanction-not-allowed": _("The tournament's rule profile does not provide this sanction."),
    "value-out-of-range": _("The game value must be between 0 and %(maximum)s."),
    "solo-result-missing": _("Say whether the soloist won or lost."),
    "sitter-chosen": _("Position %(position)s deals and sits out this game."),
    "winner-count": _("A normal game has two winners; %(given)s were chosen."),
}


def _format(table, code: str, params: dict) -> str:
    template = table.get(code)
    if template is None:
        return code
    try:
        return str(template) % params
    except (KeyError, TypeError, ValueError):
        return str(template)


PENALTY_CHANGED_HINT = _(
    "If the game was changed after the referee's decision, a referee revokes the penalty and "
    "enters the decision again."
)


# Where each rule profile's own text says it; a custom profile is cited by the DDV text.
RULE_REFERENCES = {
    # Levels may be skipped, the party's own announcement included; all of them count.
    "skipped-levels": {
        "ddv": "TSR 6.4.3",
        "bsv-hessen-2010": "BSV 6.5",
        "eppstein-2001": "EPP 5.5.3",
    },
    # The point deduction for unsportsmanlike conduct and its maximum.
    "deduction": {"ddv": "TSR 9.7.2 b", "eppstein-2001": "EPP 8.7.2 b"},
}


def rule_reference(topic: str, profile_key: str) -> str:
    """The paragraph of the profile's rule text on ``topic`` (the DDV one by default)."""
    references = RULE_REFERENCES[topic]
    return references.get(profile_key, references["ddv"])


def finding_message(code: str, params: dict) -> str:
    """The sentence of one finding of :func:`scoring.sheet.check_sheet`."""
    if code == "pattern" and params.get("shape"):
        text = _format(FINDINGS, f"pattern-{params['shape']}", params)
        if params.get("fits"):
            fits = _format(FINDINGS, "pattern-fits-" + params["fits"], params)
            text = f"{text} {fits}"
        return text
    if code == "penalty-deduction-too-high":
        params = {**params, "rule": rule_reference("deduction", params.get("profile", ""))}
    if code == "penalty-no-deduction":
        params = {**params, "rules": PROFILE_LABELS.get(params.get("profile", ""), "")}
    if code == "penalty-even-odd":
        credits = params.get("credits", ())
        params = {**params, "credits": ", ".join(f"+{c}/−{c}" for c in credits)}
    if code.startswith("running-total-") and params.get("last") != params.get("game"):
        code = code.replace("running-total-", "running-totals-")
    text = _format(FINDINGS, code, params)
    if code.startswith("penalty-fits-"):
        text = f"{text} {PENALTY_CHANGED_HINT}"
    return text


def invalid_facts_message(code: str, params: dict) -> str:
    return _format(INVALID_FACTS, code, params)


def impossible_field_message(players: int, add: int | None, remove: int | None) -> str:
    """Why ``players`` cannot be seated at tables of four and five, and what would help."""
    params = {"players": players, "add": add, "remove": remove}
    if add and remove:
        text = ngettext(
            "%(players)s player cannot be seated at tables of four and five: "
            "add %(add)s or remove %(remove)s.",
            "%(players)s players cannot be seated at tables of four and five: "
            "add %(add)s or remove %(remove)s.",
            players,
        )
    else:
        text = ngettext(
            "%(players)s player cannot be seated at tables of four and five: add %(add)s.",
            "%(players)s players cannot be seated at tables of four and five: add %(add)s.",
            players,
        )
    return text % params


def impossible_wishes_message(
    reason: str, players: list[str], tables: int, team: str | None = None
) -> str:
    """Why the seat wishes cannot all hold (``reason`` of :class:`seating.ImpossibleWishes`)
    and what would help; ``players`` are the players concerned as "start number name"
    (with their fixed table for the fixed-table reasons), ``team`` the team whose players
    they are when team-mates kept apart do not fit."""
    params = {"players": ", ".join(players), "count": len(players), "tables": tables}
    text: StrOrPromise
    if reason == "group_too_large" and team:
        text = ngettext(
            "Team %(team)s has %(count)s checked-in players, but the field has only %(tables)s "
            "table, so the team-mates cannot all sit apart: %(players)s. Turn off keeping "
            "team-mates apart or check in more players.",
            "Team %(team)s has %(count)s checked-in players, but the field has only %(tables)s "
            "tables, so the team-mates cannot all sit apart: %(players)s. Turn off keeping "
            "team-mates apart or check in more players.",
            tables,
        )
        params["team"] = team
    elif reason == "group_too_large":
        text = ngettext(
            "These %(count)s players must never share a table, but the field has only "
            "%(tables)s table: %(players)s. Make the group smaller or check in more players.",
            "These %(count)s players must never share a table, but the field has only "
            "%(tables)s tables: %(players)s. Make the group smaller or check in more players.",
            tables,
        )
    elif reason == "too_many_groups":
        text = ngettext(
            "The never-together wishes cannot all hold at the %(tables)s table of this field "
            "(%(players)s). Remove a wish or check in more players.",
            "The never-together wishes cannot all hold at the %(tables)s tables of this field "
            "(%(players)s). Remove a wish or check in more players.",
            tables,
        )
    elif reason == "table_missing":
        text = ngettext(
            "The field has only %(tables)s table, so these fixed tables do not exist: "
            "%(players)s. Change the fixed table or check in more players.",
            "The field has only %(tables)s tables, so these fixed tables do not exist: "
            "%(players)s. Change the fixed table or check in more players.",
            tables,
        )
    elif reason == "same_table":
        text = _(
            "Only one player can be fixed to a table: %(players)s. Change one of the fixed tables."
        )
    else:  # "not_found": the checks before the search are exact, so this is a bug
        text = _(
            "The draw found no plan that keeps every seat wish (%(players)s). Draw again with "
            "another seed, or remove a wish."
        )
    return str(text) % params


def wish_break_message(
    players: list[str], table: int, fixed: int | None = None, team: str | None = None
) -> str:
    """A seat wish a round breaks: ``players`` ("start number name") of one never-together
    group at table ``table`` (team-mates of ``team`` kept apart, where that is the wish), or
    the one player at ``table`` instead of ``fixed``."""
    params = {"players": ", ".join(players), "table": table, "fixed": fixed, "team": team}
    text: StrOrPromise
    if fixed is not None:
        text = _("%(players)s sits at table %(table)s instead of the fixed table %(fixed)s.")
    elif team is not None:
        text = _(
            "%(players)s sit together at table %(table)s, but are team-mates (team %(team)s), "
            "and team-mates never share a table."
        )
    else:
        text = _("%(players)s sit together at table %(table)s, but must never share a table.")
    return str(text) % params


def wish_cost_message(cost: dict, rounds: int) -> str:
    """What the seat wishes of a draw cost, from its ``DrawLog.wish_cost`` (see
    domain.draw.wish_cost), for a plan of ``rounds`` rounds: the whole plan, not the rounds
    so far (the figures above it on the round page)."""
    wishes = []
    if cost["groups"]:
        wishes.append(
            ngettext(
                "%(count)s never-together group with %(players)s players",
                "%(count)s never-together groups with %(players)s players",
                cost["groups"],
            )
            % {"count": cost["groups"], "players": cost["players"]}
        )
    if cost["fixed"]:
        wishes.append(
            ngettext("%(count)s fixed table", "%(count)s fixed tables", cost["fixed"])
            % {"count": cost["fixed"]}
        )
    if cost["teams"]:
        wishes.append(
            ngettext("%(count)s team kept apart", "%(count)s teams kept apart", cost["teams"])
            % {"count": cost["teams"]}
        )
    params = {
        "wishes": ", ".join(wishes),
        "rounds": rounds,
        "repeats": cost["repeats"],
        "bound": cost["lower_bound"],
        "spread": cost["spread"],
    }
    parts = [
        ngettext(
            "With the seat wishes (%(wishes)s) the whole plan (rounds: %(rounds)s) has "
            "%(repeats)s repeat encounter (lower bound %(bound)s) and a 5-table spread of "
            "%(spread)s.",
            "With the seat wishes (%(wishes)s) the whole plan (rounds: %(rounds)s) has "
            "%(repeats)s repeat encounters (lower bound %(bound)s) and a 5-table spread of "
            "%(spread)s.",
            cost["repeats"],
        )
        % params
    ]
    if cost["clubs"] is not None:
        parts.append(_club_conflicts(cost["clubs"]))
    without = cost.get("without")
    if without is None:
        parts.append(
            str(_("The comparison with a draw without the wishes was cut short by the clock."))
        )
    elif not wishes_cost(cost):
        parts.append(str(_("A draw without the wishes found no better plan: they cost nothing.")))
    else:
        parts.append(
            ngettext(
                "Without the wishes the draw found %(repeats)s repeat encounter and a 5-table "
                "spread of %(spread)s.",
                "Without the wishes the draw found %(repeats)s repeat encounters and a 5-table "
                "spread of %(spread)s.",
                without["repeats"],
            )
            % without
        )
        if without["clubs"] is not None:
            parts.append(_club_conflicts(without["clubs"]))
    return " ".join(parts)


def _club_conflicts(count: int) -> str:
    return str(_("Club conflicts in the rounds that keep clubs apart: %(count)s.")) % {
        "count": count
    }


def wishes_cost(cost: dict) -> bool:
    """Whether the draw without the wishes (``DrawLog.wish_cost``) found a better plan."""
    without = cost.get("without")
    return without is not None and any(
        (without[key] or 0) < (cost[key] or 0) for key in ("repeats", "spread", "clubs")
    )
