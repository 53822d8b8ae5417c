"""Issue 20 in Chromium on a phone (390x844): a player finds the registration on the public
tournament page, registers, lands on their personal page, and on the day taps "I am here"
once the director has opened check-in."""

import os
from pathlib import Path

import pytest
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from tournament.models import Registration, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"locale": "en-GB", "viewport": {"width": 390, "height": 844}, "is_mobile": True,
         "has_touch": True}  # fmt: skip
# Set SCREENSHOTS=/some/folder to keep pictures of the phone screens for a look.
SHOTS = os.environ.get("SCREENSHOTS")


def shot(page, name):
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"signup-{name}.png"), full_page=True)


def fits(page):
    """Phone first: the page never scrolls sideways."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_register_on_a_phone_then_check_in_by_the_personal_link(live_server, browser):
    tournament = Tournament.objects.create(
        name="Nikolausturnier", slug="nikolaus", date="2026-12-06", venue="Bürgerhaus Kassel",
        is_public=True, registration_open=True, registration_capacity=40,
    )  # fmt: skip
    context = browser.new_context(**PHONE)
    phone = context.new_page()
    phone.set_default_timeout(15_000)

    phone.goto(f"{live_server.url}/t/nikolaus/")
    expect(phone.locator("#registration-box")).to_contain_text("40 places are free")
    phone.get_by_role("link", name="Register now").tap()

    phone.get_by_label("First name", exact=True).fill("Karla")
    phone.get_by_label("Last name", exact=True).fill("Kässmann")
    phone.get_by_label("Club", exact=True).fill("Doko-Freunde Kassel 1987")
    phone.get_by_label("E-mail address", exact=True).fill("karla@example.org")
    expect(phone.get_by_label("Language of the e-mails", exact=True)).to_have_value("en")
    # The honeypot is out of sight.
    assert not phone.locator("input[name=website]").is_visible() or (
        phone.locator("input[name=website]").bounding_box()["x"] < 0
    )
    phone.locator("label.consent-line", has=phone.locator("input[name=consent]")).tap()
    fits(phone)
    shot(phone, "form")
    phone.get_by_role("button", name="Send my registration").tap()

    state = phone.locator("#registration-state")
    expect(state).to_contain_text("Your place is confirmed.")
    expect(phone.locator("#start-number")).to_have_text("1")
    expect(phone.locator("#i-am-here")).to_have_count(0)
    fits(phone)
    registration = Registration.objects.get()
    assert registration.email == "karla@example.org"
    assert [m.to for m in mail.outbox] == [["karla@example.org"]]

    # On the day the director opens check-in; the player opens the link again.
    Tournament.objects.filter(pk=tournament.pk).update(checkin_open=True)
    phone.reload()
    button = phone.get_by_role("button", name="I am here")
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box["width"] >= 300 and box["height"] >= 60  # a big target for a thumb
    shot(phone, "check-in")
    # The hall's Wi-Fi drops: the tap is not lost in a browser error page, the player is told.
    context.set_offline(True)
    button.tap()
    expect(phone.locator("#i-am-here-offline")).to_be_visible()
    assert not Registration.objects.get().entry.checked_in
    shot(phone, "check-in-offline")
    context.set_offline(False)
    phone.wait_for_function("navigator.onLine")
    expect(phone.locator("#i-am-here-offline")).to_be_hidden()
    button.tap()

    expect(phone.locator("#checked-in")).to_contain_text("You are checked in at")
    expect(phone.get_by_role("button", name="I am here")).to_have_count(0)
    fits(phone)
    shot(phone, "checked-in")
    entry = Registration.objects.get().entry
    assert entry.checked_in
    expected = timezone.localtime(entry.checked_in_at).strftime("%H:%M")
    expect(phone.locator("#checked-in")).to_contain_text(expected)

    phone.get_by_role("link", name="Print my QR code").tap()
    expect(phone.locator(".print-qr svg")).to_be_visible()
    fits(phone)
    shot(phone, "print")
    context.close()
