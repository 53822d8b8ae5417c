"""Player.name_key holds the one name key (tournament/models/names.py ``name_key``) that the
lookups now query, no longer the plain case-folded name it held before: recomputed for every
player. The key is copied here as it is today, so that this migration never changes."""

import re
import unicodedata

from django.db import migrations

_LETTERS = str.maketrans(
    {"æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "ĸ": "k"}
)
_APOSTROPHES = re.compile(r"['’`´ʼ]")
_UMLAUT_SPELLING = re.compile(r"([aou])e")
_NOT_ALNUM = re.compile(r"[^0-9a-z]+")
_UMLAUT_MARKERS = (("ä", "a9"), ("ö", "o9"), ("ü", "u9"), ("ae", "a9"), ("oe", "o9"), ("ue", "u9"))


def _fold(text):
    text = unicodedata.normalize("NFKC", text).casefold().translate(_LETTERS)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(char for char in text if not unicodedata.combining(char))
    text = _APOSTROPHES.sub("", text)
    text = _UMLAUT_SPELLING.sub(r"\1", text)
    return _NOT_ALNUM.sub(" ", text).strip()


def _name_key(first, last):
    text = unicodedata.normalize("NFKC", " ".join(p for p in (first, last) if p)).casefold()
    for umlaut, marker in _UMLAUT_MARKERS:
        text = text.replace(umlaut, marker)
    return _fold(text)[:210].rstrip()  # the field's length


def _casefolded(first, last):
    text = unicodedata.normalize("NFKC", " ".join(p for p in (first, last) if p)).casefold()
    return " ".join(text.split())[:210]


def _recompute(key):
    def run(apps, schema_editor):
        Player = apps.get_model("tournament", "Player")
        changed = []
        for player in Player.objects.only("pk", "first_name", "last_name", "name_key").iterator():
            new = key(player.first_name, player.last_name)
            if new != player.name_key:
                player.name_key = new
                changed.append(player)
        Player.objects.bulk_update(changed, ["name_key"], batch_size=500)

    return run


class Migration(migrations.Migration):
    dependencies = [("tournament", "0036_game_facts")]

    operations = [migrations.RunPython(_recompute(_name_key), _recompute(_casefolded))]
