"""The sentences behind the rules engine's stable codes, in the user's language.

``scoring`` returns codes and parameters only; this module is the one place that turns them
into German (or English) text for pages, exports and the command line.
"""

from django.utils.translation import gettext_lazy as _

from scoring.kinds import Kind

FINDINGS = {
    "zero-sum": _("The values of this row do not add up to 0 (sum %(sum)s)."),
    "even-odd": _("All values must be even or all odd (even/odd rule)."),
    "pattern": _("These values fit no game of this kind."),
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
    "no-trick-with-eyes": _("A party without a trick has 0 card points (Re has %(re_eyes)s)."),
    "both-no-trick": _("Both parties cannot be without a trick."),
    "bad-announced": _("Announcements are “re” and/or “kontra”."),
    "bad-absage": _("An Absage is 90, 60, 30 or 0 (schwarz)."),
    "absage-without-announcement": _(
        "An Absage is only allowed after the party's own announcement (TSR 6.3.2)."
    ),
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


PENALTY_ROW_HINT = _(
    "(Penalty row: it no longer fits the game as the score sheet has it now. A referee revokes it "
    "and enters the decision again.)"
)


def finding_message(code: str, params: dict) -> str:
    text = _format(FINDINGS, code, params)
    if params.get("kind") == Kind.PENALTY and code != "penalty-game-unknown":
        text = f"{text} {PENALTY_ROW_HINT}"
    return text


def invalid_facts_message(code: str, params: dict) -> str:
    return _format(INVALID_FACTS, code, params)


def impossible_field_message(players: int, add: int | None, remove: int | None) -> str:
    """Why ``players`` cannot be seated at tables of four and five, and what would help."""
    params = {"players": players, "add": add, "remove": remove}
    if add and remove:
        text = _(
            "%(players)s players cannot be seated at tables of four and five: "
            "add %(add)s or remove %(remove)s."
        )
    else:
        text = _("%(players)s players cannot be seated at tables of four and five: add %(add)s.")
    return str(text) % params
