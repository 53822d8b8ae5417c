"""Certificates (Urkunden, issue 38): one A4 page per prize winner, or (the other variant) one
per ranked player with place, points and rounds played. Office documents: real names.

The design is the site's one :class:`~tournament.models.CertificateDesign` (title, portrait or
landscape, the two signatures, the logo); the prizes come from ``queries.prizes.prize_list``,
the places of every player from the standings (``queries.standings.compute``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import formats
from django.utils.translation import pgettext

from ..models import Tournament
from ..models.prize import CertificateDesign, Orientation
from ..queries import standings as standings_domain
from ..queries.prizes import PrizeList, prize_list
from . import GENERATED

WINNERS, EVERYONE = "winners", "all"
LOGO = "logo"  # the logo's name among the document's generated images


@dataclass(frozen=True)
class Certificate:
    """One page: who, what for, and (a winner) the prize."""

    name: str  # the real name
    club: str
    place: int
    shared: int  # players on the same place (1: alone)
    category: str  # the prize category; for every player's certificate ""
    prize: str  # the prize in words; "" on a ranked player's certificate
    points: int | None  # the points in the standings (a winner: of the category's measure)
    rounds: int | None  # rounds played (every player's certificate)
    of: int | None = None  # how many players are ranked (every player's certificate)


def winner_certificates(prizes: PrizeList) -> list[Certificate]:
    """One certificate per prize, in the prize list's order."""
    return [
        Certificate(
            name=award.name,
            club=award.club,
            place=award.place,
            shared=award.shared,
            category=award.category,
            prize=award.prize_text,
            points=award.score,
            rounds=None,
        )
        for award in prizes.awards
    ]


def ranked_certificates(standings: standings_domain.Standings) -> list[Certificate]:
    """One certificate per ranked player (a disqualified player has no rank, a player who
    never sat at a table is not in the standings' lines), by place."""
    ranked = [line for line in standings.lines if line.rank is not None]
    on_place: dict[int, int] = {}
    for line in ranked:
        on_place[line.rank or 0] = on_place.get(line.rank or 0, 0) + 1
    return [
        Certificate(
            name=line.entry.player.full_name,
            club=line.entry.player.club,
            place=line.rank or 0,
            shared=on_place[line.rank or 0],
            category="",
            prize="",
            points=line.total,
            rounds=line.rounds_played,
            of=len(ranked),
        )
        for line in ranked
    ]


def certificates(tournament: Tournament, which: str = WINNERS) -> tuple[list[Certificate], bool]:
    """The pages of ``which`` and whether they are provisional, as the list they come from
    says (the prize list, or the office's standings: until the tournament is finished)."""
    if which == EVERYONE:
        standings = standings_domain.compute(tournament)
        return ranked_certificates(standings), standings.provisional
    prizes = prize_list(tournament)
    return winner_certificates(prizes), prizes.provisional


def certificates_pdf(
    tournament: Tournament, which: str = WINNERS, design: CertificateDesign | None = None
) -> bytes:
    """The certificates of ``which`` (:data:`WINNERS` or :data:`EVERYONE`) in the site's
    design, one page each; an empty list gives one page that says so."""
    design = design or CertificateDesign.current()
    pages, provisional = certificates(tournament, which)
    return render_certificates(tournament, pages, design, provisional=provisional)


def render_certificates(
    tournament: Tournament,
    pages: list[Certificate],
    design: CertificateDesign,
    *,
    provisional: bool,
) -> bytes:
    from .pdf import render_pdf  # WeasyPrint loads only when a PDF is made

    logo = bytes(design.logo or b"")
    about = [formats.date_format(tournament.date, "DATE_FORMAT") if tournament.date else ""]
    about.append(tournament.venue)
    signatures = [
        (name, role)
        for name, role in (
            (design.signature_left, design.signature_left_role),
            (design.signature_right, design.signature_right_role),
        )
        if name or role
    ]
    # No signature set: two blank lines to sign by hand, so that the page is not half empty.
    signatures = signatures or [
        ("", pgettext("certificate", "Tournament director")),
        ("", pgettext("certificate", "Organiser")),
    ]
    context = {
        "tournament": tournament,
        "design": design,
        "landscape": design.orientation == Orientation.LANDSCAPE,
        "about": " · ".join(part for part in about if part),
        "certificates": pages,
        "signatures": signatures,
        "logo": GENERATED + LOGO if logo else "",
        "provisional": provisional,
    }
    return render_pdf(
        "tournament/print/certificates.html", context, images={LOGO: logo} if logo else None
    )
