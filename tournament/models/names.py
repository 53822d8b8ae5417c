"""A forgiving key for people's names, for search and for matching imported players.

Players type their names the way their phone keyboard lets them: "Kässmann", "Kaessmann",
"Kassmann" and "KÄSSMANN" are one person, and so are "Weiß" and "Weiss", "Łukasz" and
"Lukasz", "José" and "Jose". ``fold`` maps all spellings of a name onto one key:

- case is ignored (``str.casefold``, which also turns "ß" and "ẞ" into "ss");
- German umlauts match both the plain vowel and the "e" spelling: ä/ae/a -> a, ö/oe/o -> o,
  ü/ue/u -> u (so "Michael" becomes "michal" as well — harmless, because both sides of every
  comparison are folded the same way);
- accents and other marks are dropped (é -> e, ç -> c, ł -> l, ø -> o, æ -> a);
- apostrophes vanish ("O'Brien" = "OBrien"); hyphens, dots, commas and any run of white space
  become one space, so "Müller-Lüdenscheidt" and "Müller Lüdenscheidt" agree.

The key is for comparing, never for showing. The functions are pure Python (the module sits
in ``models`` because ``Player.save`` stores the key).

One function per use: ``fold`` finds (search, duplicates); ``name_key`` decides that two rows
are one person (stricter about umlauts; stored and indexed as ``Player.name_key``, which the
lookups query); ``club_key`` compares clubs; ``sort_key`` orders lists.
"""

from __future__ import annotations

import re
import unicodedata

# Letters that Unicode does not decompose into a base letter plus a mark.
_LETTERS = str.maketrans(
    {
        "æ": "ae",
        "œ": "oe",
        "ø": "o",
        "ł": "l",
        "đ": "d",
        "ð": "d",
        "þ": "th",
        "ı": "i",
        "ĸ": "k",
    }
)
_APOSTROPHES = re.compile(r"['’`´ʼ]")
_UMLAUT_SPELLING = re.compile(r"([aou])e")
_NOT_ALNUM = re.compile(r"[^0-9a-z]+")


def fold(*parts: str, umlaut_spelling: bool = True) -> str:
    """The search key of a name: lower case ASCII letters and digits, words separated by one
    space. Several parts (first name, last name) are joined with a space.

    >>> fold("Kässmann") == fold("Kaessmann") == fold("KASSMANN") == "kassmann"
    True
    >>> fold("Jürgen", "Weiß")
    'jurgen weiss'
    """
    text = " ".join(part for part in parts if part)
    text = unicodedata.normalize("NFKC", text).casefold().translate(_LETTERS)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(char for char in text if not unicodedata.combining(char))
    text = _APOSTROPHES.sub("", text)
    if umlaut_spelling:
        text = _UMLAUT_SPELLING.sub(r"\1", text)
    return _NOT_ALNUM.sub(" ", text).strip()


# An umlaut and its spelling with "e" become one marker that ``fold`` keeps (it keeps digits):
# "Schäfer" and "Schaefer" -> "scha9fer", while a plain vowel stays itself.
_UMLAUT_MARKERS = (("ä", "a9"), ("ö", "o9"), ("ü", "u9"), ("ae", "a9"), ("oe", "o9"), ("ue", "u9"))
# The length of the stored key (``Player.name_key``): an umlaut becomes two characters and
# NFKC may spread one character over several, so a key is cut here; two names alike in their
# first 210 folded characters are rare enough to count as one.
NAME_KEY_LENGTH = 210


def name_key(*parts: str) -> str:
    """The key under which two spellings of a name are taken for the same person.

    Built on :func:`fold` (case, accents, "ß"/"ss", punctuation), but
    stricter about umlauts: "ä" matches its spelling "ae" and nothing else. The search key also
    folds "ae" into "a", so that "Michael" would meet "Michal" and "Rafael" "Rafał" — fine for
    finding, wrong for deciding that two rows are one person.
    """
    text = unicodedata.normalize("NFKC", " ".join(p for p in parts if p)).casefold()
    for umlaut, marker in _UMLAUT_MARKERS:
        text = text.replace(umlaut, marker)
    return fold(text)[:NAME_KEY_LENGTH].rstrip()


def club_key(*parts: str) -> str:
    """The matching key of a club's name: Unicode-composed, case-folded, whitespace collapsed.

    "Jürgen" typed with a combining diaeresis ("Ju\u0308rgen") and "JÜRGEN" give the same key.
    """
    text = " ".join(p for p in parts if p)
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(text.split())


def query_words(query: str, limit: int = 8) -> list[str]:
    """The folded words of a search query, at most ``limit`` of them, without repeats.

    Anything that is not a letter or digit separates words, so "%", "_" or a lone "-" never
    reach a database pattern and a query of only spaces or punctuation gives no words.
    """
    words: list[str] = []
    for word in fold(query).split():
        if word not in words:
            words.append(word)
    return words[:limit]


def name_matches(words: list[str], *parts: str) -> bool:
    """Whether every query word (from ``query_words``) occurs somewhere in the name. Part of
    a name may start inside an "ue"-like spelling ("el" in "Samuel", whose key is "samul"):
    such a word is also looked for in the name folded without that rule."""
    key, plain = fold(*parts), fold(*parts, umlaut_spelling=False)
    return all(word in key or word in plain for word in words)


def sort_key(text: str) -> str:
    """German phone-book order (DIN 5007-1) for lists people read: umlauts sort as their base
    letter, ß as ss. Unlike ``fold`` it keeps the name recognisable ("mueller" stays apart
    from "muller"), and it is for ordering, never for matching."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


# Characters refused in every typed text (names, clubs, titles, reasons), at the form
# (tournament/forms/text.py) and in the player import: controls (Cc: C0 and C1, tab, line
# feed, carriage return), format characters (Cf: bidi controls, zero-width characters, the
# byte-order mark), line and paragraph separators (Zl, Zp) and lone surrogates (Cs).
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})


def has_control_characters(value: str, *, line_breaks: bool = False) -> bool:
    """True when ``value`` holds a character of :data:`REFUSED_CATEGORIES` (``line_breaks``:
    except the line feed, for a text area whose CR LF was made LF first)."""
    return any(
        unicodedata.category(char) in REFUSED_CATEGORIES
        for char in value
        if not (line_breaks and char == "\n")
    )
