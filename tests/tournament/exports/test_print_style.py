"""One look for every A4 document: each print template extends print/base.html, which links
the one stylesheet (print.css); none brings CSS of its own (base.html's only rule is the page
label in the reader's language)."""

from django.conf import settings

PRINT = settings.BASE_DIR / "templates" / "tournament" / "print"


def test_every_print_document_extends_the_base_and_has_no_css_of_its_own():
    documents = [path for path in PRINT.glob("*.html") if not path.name.startswith("_")]
    assert {path.name for path in documents} >= {"pack.html", "rounds.html", "series.html"}
    for path in documents:
        text = path.read_text()
        if path.name == "base.html":
            assert "tournament/print.css" in text
            assert text.count("<style") == 1 and "page_label_css" in text
        else:
            assert text.startswith('{% extends "tournament/print/base.html" %}'), path.name
            assert "<style" not in text and "style=" not in text, path.name
