"""The Doppelkopf words the English UI keeps in German.

Players who read the site in English still call these things by their German names at the
table, in the DDV rules and on every score sheet; an English paraphrase ("marriage", "fox",
"no ninety") would only make them look twice. Everything else in the English UI is English:
a Spielliste is a "score sheet", a Sonderpunkt an "extra point", geringfügig "minor".

One list, used by the page tests (tests/test_page_hygiene.py) and shown in README.md.
"""

# term -> what it means, in English (for the README and for a reader of the code)
GLOSSARY: dict[str, str] = {
    "Doppelkopf": "the game; also the trick worth 40 or more card points (an extra point)",
    "Re": "the party holding the queens of clubs (in a solo: the soloist)",
    "Kontra": "the other party",
    "Solo": "one player against three; plural Soli",
    "Pflichtsolo": "the solo every player must play once per round (plural Pflichtsoli)",
    "vorgeführtes Pflichtsolo": (
        "a Pflichtsolo forced at the end of the round because the player has not played one"
    ),
    "Lustsolo": "a solo played by choice, beyond the Pflichtsolo",
    "Hochzeit": (
        "both queens of clubs in one hand, announced: the first other player to win one of the "
        "first three tricks becomes the partner; without one it becomes a solo"
    ),
    "stille Hochzeit": "both queens of clubs in one hand, not announced: played as a solo",
    "Fuchs": "the ace of diamonds; capturing the opponents' one is an extra point",
    "Karlchen": "the jack of clubs winning the last trick: an extra point",
    "gegen die Alten": "Kontra winning against the party of the queens of clubs: an extra point",
    "Absage": "a bid after Re or Kontra: keine 90, keine 60, keine 30, schwarz (plural Absagen)",
    "keine 90": "Absage: the other party will get fewer than 90 card points",
    "keine 60": "Absage: the other party will get fewer than 60 card points",
    "keine 30": "Absage: the other party will get fewer than 30 card points",
    "schwarz": "Absage: the other party will win no trick",
}


# The plural and declined forms the English sentences use.
INFLECTIONS = (
    "Soli",
    "Pflichtsoli",
    "Absagen",
    "vorgeführte Pflichtsoli",
    "vorgeführt",  # "a Pflichtsolo must be vorgeführt"; "V vorgeführt" in a sheet's legend
    "Hochzeiten",
)


def terms() -> list[str]:
    """Every glossary term and inflection, the longest first (so that a text can be cleared
    of "stille Hochzeit" before "Hochzeit")."""
    return sorted({*GLOSSARY, *INFLECTIONS}, key=len, reverse=True)
