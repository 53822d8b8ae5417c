"""Forms of the Spielliste entry: one game on the phone, the whole sheet at the desk, a
sheet file, and the small workflow forms."""

from __future__ import annotations

import json
import uuid
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.errors import InvalidFacts
from scoring.game import facts_dict, facts_of_row, parse_facts
from scoring.rows import MAX_LINES, MAX_POINTS, MAX_VALUE, derive_points
from scoring.sheet import to_cumulative

from ..models import GameKind
from ..models.tournament import CONFIRM_CODE_LENGTH
from ..sheets import paper
from ..sheets.verbs import RowInput
from ..wording.findings import invalid_facts_message
from .text import LineField

MAX_FACTS = 1000  # characters: a game's facts in JSON take about 250
NUMBER = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}
SIGNED = {"autocomplete": "off", "class": "points"}


class GameEntryForm(forms.Form):
    """One game as the list keeper taps it: the kind, the winners (or the soloist and the
    result) and the value — or the numbers directly."""

    kind = forms.ChoiceField(
        label=_("kind"),
        # "normal game" is a value in lists; as a choice it starts with a capital (the
        # glossary's "stille Hochzeit" and "vorgeführtes Pflichtsolo" stay as they are)
        choices=[(GameKind.NORMAL, _("Normal game")), *GameKind.choices[1:]],
        initial=GameKind.NORMAL,
        widget=forms.RadioSelect,
    )
    mode = forms.ChoiceField(
        label=_("how to enter"),
        choices=[("derive", _("Winners and value")), ("direct", _("Type the numbers"))],
        initial="derive",
        widget=forms.RadioSelect,
    )
    winners = forms.TypedMultipleChoiceField(
        label=_("winners"), coerce=int, required=False, widget=forms.CheckboxSelectMultiple
    )
    soloist = forms.TypedChoiceField(
        label=_("soloist"), coerce=int, required=False, empty_value=None, widget=forms.RadioSelect
    )
    result = forms.ChoiceField(
        label=_("The solo was"),
        choices=[("won", _("Won")), ("lost", _("Lost"))],
        required=False,
        widget=forms.RadioSelect,
    )
    value = forms.IntegerField(
        label=_("game value"),
        required=False,
        min_value=0,
        max_value=MAX_VALUE,
        widget=forms.NumberInput(attrs=NUMBER),
    )
    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=999)
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
    client_id = forms.UUIDField(widget=forms.HiddenInput, required=False)
    reason = LineField(label=_("reason for the change"), required=False, max_length=200)
    # The game's facts, when the row was taken from the Spielwert-Rechner (JSON, see clean).
    facts = forms.CharField(widget=forms.HiddenInput, required=False, strip=False)

    def __init__(self, *args, sheet, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.sheet = sheet
        self.facts_error: forms.ValidationError | None = None
        table = sheet.table
        self.size = table.size
        if not self.is_bound:
            self.initial.setdefault("client_id", uuid.uuid4())
            self.initial.setdefault("number", sheet.next_number)
        # At a 5-table the dealer of the game being entered (or corrected) sits out.
        sitter = self.sitter_for(self._game_number())
        names = {s.position: s.entry.player.full_name for s in sheet.seats}
        choices = [(p, f"{p} · {names.get(p, '')}") for p in range(1, self.size + 1) if p != sitter]
        for name in ("winners", "soloist"):
            cast(forms.ChoiceField, self.fields[name]).choices = choices
        for position in range(1, self.size + 1):
            self.fields[f"p{position}"] = forms.IntegerField(
                label=f"{position} · {names.get(position, '')}",
                required=False,
                min_value=-MAX_POINTS,
                max_value=MAX_POINTS,
                widget=forms.NumberInput(attrs=SIGNED),
            )

    def _game_number(self) -> int:
        raw = self.data.get("number") if self.is_bound else self.initial.get("number")
        try:
            return int(raw) if raw is not None else self.sheet.next_number
        except (TypeError, ValueError):
            return self.sheet.next_number

    def points_fields(self):
        return [self[f"p{p}"] for p in range(1, self.size + 1)]

    def sitter_for(self, number: int) -> int | None:
        steps = self.sheet.steps
        return steps[number - 1].sitter if 1 <= number <= len(steps) else None

    def clean_facts(self) -> dict | None:
        """The facts as the calculator had them, checked like the calculator checks them;
        anything that does not read as the facts of a game at this table refuses the form
        (nothing is saved)."""
        raw = self.cleaned_data.get("facts", "").strip()
        try:
            return self._read_facts(raw) if raw else None
        except forms.ValidationError as exc:
            self.facts_error = exc  # said above the form, like the form's other errors
            return None

    def _read_facts(self, raw: str) -> dict:
        unreadable = _(
            "The game's facts from the calculator cannot be read. Nothing was saved: open the "
            "calculator again, or enter the game without it."
        )
        try:
            if len(raw) > MAX_FACTS:
                raise ValueError(raw[:20])
            data = json.loads(raw)
        except ValueError:
            raise forms.ValidationError(unreadable) from None
        if not isinstance(data, dict):
            raise forms.ValidationError(unreadable)
        try:
            facts = parse_facts(data, self.sheet.table.round.tournament.profile.cards)
        except InvalidFacts as exc:
            why = invalid_facts_message(exc.code, exc.params)
            raise forms.ValidationError(f"{unreadable} {why}") from None
        if facts.table_size != self.size:
            raise forms.ValidationError(unreadable)
        return facts_dict(facts)

    def clean(self) -> dict[str, Any]:
        super().clean()
        if self.facts_error is not None:
            raise self.facts_error
        data = self.cleaned_data
        if self.errors:
            return data
        kind = GameKind(data["kind"])
        solo = kind != GameKind.NORMAL
        soloist = data.get("soloist") if solo else None
        if data["mode"] == "direct":
            missing = [p for p in range(1, self.size + 1) if data.get(f"p{p}") is None]
            if missing:
                raise forms.ValidationError(_("Enter a number for every player (0 for none)."))
            if solo and soloist is None:
                raise forms.ValidationError(_("A solo needs the position of the soloist."))
            points = tuple(data[f"p{p}"] for p in range(1, self.size + 1))
        else:
            if data.get("value") is None:
                raise forms.ValidationError(_("Enter the game value."))
            result = data.get("result")
            try:
                points = derive_points(
                    self.sheet.table.round.tournament.profile.scoring,
                    self.size,
                    self.sitter_for(data["number"]),
                    kind.scoring,
                    data["value"],
                    winners=data.get("winners") or (),
                    soloist=soloist,
                    soloist_won=None if not result else result == "won",
                )
            except InvalidFacts as exc:
                raise forms.ValidationError(invalid_facts_message(exc.code, exc.params)) from None
        data["row"] = RowInput(kind.value, soloist, points, self._facts_for(kind, soloist, points))
        return data

    def _facts_for(self, kind: GameKind, soloist: int | None, points: tuple) -> dict | None:
        """The facts go with the row only when they give it (also who sat out): a row the
        keeper changed after taking it from the calculator drops them."""
        fits = facts_of_row(
            self.sheet.table.round.tournament.profile,
            self.cleaned_data.get("facts"),
            solo=kind.scoring.is_solo,
            soloist=soloist,
            points=points,
            sitter=self.sitter_for(self.cleaned_data["number"]),
        )
        return facts_dict(fits) if fits is not None else None


def edit_initial(game, sheet) -> dict:
    """The form's start values to correct ``game``: as taps (winners or soloist and result,
    and the value) when the row is one the taps give, else as the typed numbers."""
    initial = {"kind": game.kind, "mode": "direct", "soloist": game.soloist_position}
    initial.update(number=game.number, version=game.version)
    points = tuple(game.points)
    initial.update({f"p{p}": v for p, v in enumerate(points, start=1)})
    steps = sheet.steps
    sitter = steps[game.number - 1].sitter if game.number <= len(steps) else None
    scoring = sheet.table.round.tournament.profile.scoring
    kind = GameKind(game.kind).scoring
    active = [p for p in range(1, len(points) + 1) if p != sitter]
    candidates = []
    if game.kind == GameKind.NORMAL:
        best = max(points)
        winners = [p for p in active if points[p - 1] == best]
        candidates.append({"winners": winners, "value": best})
    elif game.soloist_position in active:
        others = [points[p - 1] for p in active if p != game.soloist_position]
        value = max(abs(v) for v in others) if others else 0
        won = points[game.soloist_position - 1] > 0
        candidates.append({"result": "won" if won else "lost", "value": value})
    for taps in candidates:
        try:
            derived = derive_points(
                scoring, len(points), sitter, kind, taps["value"],
                winners=taps.get("winners", ()), soloist=game.soloist_position,
                soloist_won=taps.get("result") == "won" if "result" in taps else None,
            )  # fmt: skip
        except InvalidFacts:
            continue
        if derived == points:
            initial.update(taps, mode="derive")
    return initial


def take_initial(query, size: int) -> dict | None:
    """The game form's start values from the Spielwert-Rechner's "use this row" (a plain
    link, for phones without JavaScript): the kind, the soloist and the numbers, typed in
    directly, and the game's facts. Anything odd in the query gives no start values at all."""
    kind = query.get("kind", "")
    if kind not in GameKind.values:
        return None
    initial: dict = {"kind": kind, "mode": "direct"}
    try:
        points = [int(query.get(f"p{p}", "")) for p in range(1, size + 1)]
        soloist = int(query["soloist"]) if query.get("soloist") else None
    except ValueError:
        return None
    if any(abs(v) > MAX_POINTS for v in points):
        return None
    if soloist is not None and not 1 <= soloist <= size:
        return None
    initial["soloist"] = soloist
    initial.update({f"p{p}": v for p, v in enumerate(points, start=1)})
    # The calculator's facts ride along as they came; the form checks them when saved.
    facts = query.get("facts", "")
    if facts and len(facts) <= MAX_FACTS:
        initial["facts"] = facts
    return initial


class DeleteRowForm(forms.Form):
    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    reason = LineField(required=False, max_length=200)


class StartNumberForm(forms.Form):
    start_number = forms.IntegerField(
        label=_("your start number"), min_value=1, max_value=99999, widget=forms.NumberInput(NUMBER)
    )


class ConfirmForm(StartNumberForm):
    """Confirming on the table's link: the start number and the code of the player card."""

    code = forms.CharField(
        label=_("your confirmation code"),
        max_length=CONFIRM_CODE_LENGTH + 2,  # room for a space typed in the middle
    )

    def clean_code(self) -> str:
        code = "".join(self.cleaned_data["code"].split())
        if len(code) != CONFIRM_CODE_LENGTH or not code.isascii() or not code.isdecimal():
            raise forms.ValidationError(
                _("The confirmation code has %(length)s digits."),
                params={"length": CONFIRM_CODE_LENGTH},
            )
        return code


class ExtraTimeForm(forms.Form):
    minutes = forms.IntegerField(label=_("minutes"), min_value=1, max_value=120, initial=5)
    reason = LineField(label=_("reason"), max_length=150)


class ReasonForm(forms.Form):
    reason = LineField(label=_("reason"), max_length=200)


class SheetFileForm(forms.Form):
    file = forms.FileField(label=_("sheet file (CSV or XLSX)"))
    cumulative = forms.BooleanField(label=_("the numbers are running totals"), required=False)
    replace = forms.BooleanField(label=_("replace the rows already entered"), required=False)
    reason = LineField(label=_("reason (for a submitted sheet)"), required=False, max_length=200)


class DeskGrid:
    """The office's keyboard grid: one line per game with the kind letter, the soloist and
    the numbers as on the paper list, per game or as running totals.

    Built from a sheet (to show it) or from posted data (to save it); :meth:`parse` reads
    the filled lines with :mod:`tournament.sheets.paper`, or collects the messages per bad
    line and returns None.
    """

    def __init__(self, sheet, data=None, *, cumulative: bool = False) -> None:
        self.sheet = sheet
        self.size = sheet.table.size
        self.cumulative = cumulative if data is None else data.get("cumulative") == "on"
        self.errors: dict[int, list[str]] = {}
        self.reason = "" if data is None else data.get("reason", "").strip()[:200]
        count = len(sheet.games)
        if data is not None:
            count = max(count, self._posted_count(data))
        self.count = max(sheet.nominal, count) + 3
        self.lines = self._from_data(data) if data is not None else self._from_sheet()

    def _posted_count(self, data) -> int:
        try:
            return min(int(data.get("lines", 0)), MAX_LINES)
        except ValueError:
            return 0

    def _from_sheet(self) -> list[dict]:
        games = self.sheet.games
        values = [tuple(game.points) for game in games]
        if self.cumulative:
            values = to_cumulative(values)
        lines = [
            {
                "number": game.number,
                "kind": GameKind(game.kind).scoring.value,
                "soloist": game.soloist_position or "",
                "points": [str(v) for v in points],
                "version": game.version,
                "findings": self.sheet.by_game.get(game.number, []),
            }
            for game, points in zip(games, values, strict=True)
        ]
        for number in range(len(lines) + 1, self.count + 1):
            lines.append(self._blank(number))
        return lines

    def _blank(self, number: int) -> dict:
        points = [""] * self.size
        return {"number": number, "kind": "", "soloist": "", "points": points, "version": ""}

    def _from_data(self, data) -> list[dict]:
        lines = []
        for number in range(1, self.count + 1):
            lines.append(
                {
                    "number": number,
                    "kind": data.get(f"kind-{number}", "").strip()[:2],
                    "soloist": data.get(f"solo-{number}", "").strip()[:3],
                    "points": [
                        data.get(f"p{p}-{number}", "").strip()[:8] for p in range(1, self.size + 1)
                    ],
                    "version": data.get(f"version-{number}", "").strip()[:9],
                }
            )
        return lines

    def _error(self, number: int, message) -> None:
        self.errors.setdefault(number, []).append(str(message))

    def parse(self) -> tuple[list[RowInput], dict[int, int]] | None:
        """(the games to store, the version of each game as the page showed it)."""
        filled: list[paper.Line] = []
        versions: dict[int, int] = {}
        ended_at = None
        for line in self.lines:
            number = line["number"]
            if line["version"].isdecimal() and len(line["version"]) < 9:
                versions[number] = int(line["version"])
            if not line["kind"] and not line["soloist"] and not any(line["points"]):
                ended_at = ended_at or number
                continue
            if ended_at is not None:
                self._error(number, _("Game %(number)s is empty; fill the lines without gaps.")
                            % {"number": ended_at})  # fmt: skip
                ended_at = None
            game = str(len(filled) + 1)  # a gap is reported above, not as a wrong number
            points = tuple(line["points"])
            filled.append(paper.Line(number, game, line["kind"], line["soloist"], points))
        read = paper.read(filled, self.size, cumulative=self.cumulative)
        for number, messages in read.problems.items():
            for message in messages:
                self._error(number, message)
        if self.errors:
            return None
        return paper.games(paper.as_played(read.rows, self.sheet.table)), versions
