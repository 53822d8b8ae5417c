"""Failed logins are limited in the database: the limit holds for every server process, the
limited request gets 429 with Retry-After, and a real user is back in after a few minutes."""

import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import director
from tests.waiting import WAIT, Notes
from tournament.base import ratelimit
from tournament.models import RateBucket
from tournament.views.auth import PER_ACCOUNT, PER_ADDRESS, WINDOW
from tournament.views.keeper import TOKEN_FAILURES
from tournament.web import login_limit
from tournament.web.login_limit import KNOWN_BROWSER_COOKIE

pytestmark = pytest.mark.django_db


def attempt(username, password, address="192.0.2.10"):
    # A new client each time: no cookie or session carries the count, only the database.
    return Client(REMOTE_ADDR=address).post(
        reverse("login"), {"username": username, "password": password}
    )


def test_guessing_a_password_is_stopped_and_the_real_user_gets_back_in():
    user = director(username="leitung")
    user.set_password("richtiges-passwort-9")
    user.save()
    for _ in range(PER_ACCOUNT):
        assert attempt("leitung", "falsch").status_code == 200
    limited = attempt("LEITUNG", "richtiges-passwort-9", address="198.51.100.7")
    assert limited.status_code == 429
    assert 0 < int(limited["Retry-After"]) <= WINDOW
    assert "Zu viele fehlgeschlagene Anmeldungen" in limited.content.decode()
    assert "_auth_user_id" not in limited.client.session

    # Later (the window has passed) the right password works again.
    RateBucket.objects.update(
        window_start=RateBucket.objects.first().window_start - timedelta(seconds=WINDOW)
    )
    ok = attempt("leitung", "richtiges-passwort-9")
    assert ok.status_code == 302 and ok.url == reverse("manage:tournament-list")


def test_one_address_trying_many_accounts_is_stopped_too():
    for number in range(PER_ADDRESS):
        assert attempt(f"user{number}", "falsch").status_code == 200
    assert attempt("someone-else", "falsch").status_code == 429
    assert attempt("someone-else", "falsch", address="203.0.113.5").status_code == 200


def test_successful_logins_do_not_count():
    user = director(username="leitung")
    user.set_password("richtiges-passwort-9")
    user.save()
    for _ in range(PER_ACCOUNT + 2):
        assert attempt("leitung", "richtiges-passwort-9").status_code == 302
    assert not RateBucket.objects.exists()


# --- issue 14: every spelling of a name, the owner during a lock, the address behind a proxy --


def owner(username="leitung"):
    user = director(username=username)
    user.set_password("richtiges-passwort-9")
    user.save()
    return user


def lock_account(name="leitung"):
    """A stranger's guesses from ever-changing addresses: the account limit stops them."""
    for number in range(PER_ACCOUNT):
        assert attempt(name, "falsch", address=f"198.51.100.{number + 1}").status_code == 200


def test_every_spelling_django_accepts_counts_against_the_same_account():
    owner()
    # Django strips the name and folds it with NFKC before it looks the user up: the
    # full-width "ｌeitung" is "leitung" and logs in with the right password.
    assert attempt("ｌｅｉｔｕｎｇ", "richtiges-passwort-9").status_code == 302
    spellings = ["leitung", "ｌeitung", " leitung ", "LEITUNG", "ｌｅｉｔｕｎｇ", "Leitung"]
    for number in range(PER_ACCOUNT):
        spelling = spellings[number % len(spellings)]
        assert attempt(spelling, "falsch", address=f"203.0.113.{number}").status_code == 200
    for spelling in spellings:
        assert attempt(spelling, "falsch", address="192.0.2.99").status_code == 429


def test_the_owner_gets_in_from_a_known_browser_while_strangers_are_locked_out():
    owner()
    browser = Client(REMOTE_ADDR="192.0.2.10")
    login = {"username": "leitung", "password": "richtiges-passwort-9"}
    assert browser.post(reverse("login"), login).status_code == 302
    browser.post(reverse("logout"))

    lock_account()
    # A stranger, even with the right password, waits ...
    assert attempt("leitung", "richtiges-passwort-9", address="192.0.2.10").status_code == 429
    # ... the owner's browser does not, nor does the owner mistyping once.
    assert browser.post(reverse("login"), {**login, "password": "tippfehler"}).status_code == 200
    ok = browser.post(reverse("login"), login)
    assert ok.status_code == 302 and ok.url == reverse("manage:tournament-list")
    assert "_auth_user_id" in browser.session


def test_a_known_browser_guessing_is_limited_on_its_own():
    owner()
    browser = Client(REMOTE_ADDR="192.0.2.10")
    login = {"username": "leitung", "password": "richtiges-passwort-9"}
    assert browser.post(reverse("login"), login).status_code == 302
    browser.post(reverse("logout"))
    for _ in range(PER_ACCOUNT):
        assert browser.post(reverse("login"), {**login, "password": "x"}).status_code == 200
    assert browser.post(reverse("login"), login).status_code == 429
    # Its guesses did not lock the account for the owner's other devices.
    assert attempt("leitung", "richtiges-passwort-9").status_code == 302


def test_a_forged_or_foreign_known_browser_cookie_does_not_open_the_lock():
    owner()
    owner(username="schiri")
    other = Client(REMOTE_ADDR="192.0.2.10")
    other.post(reverse("login"), {"username": "schiri", "password": "richtiges-passwort-9"})
    lock_account()
    login = {"username": "leitung", "password": "richtiges-passwort-9"}
    # A cookie for another account, and one made up.
    assert other.post(reverse("login"), login).status_code == 429
    forged = Client(REMOTE_ADDR="192.0.2.11")
    forged.cookies[KNOWN_BROWSER_COOKIE] = signing.dumps({"n": "x", "a": ["leitung"]})
    assert forged.post(reverse("login"), login).status_code == 429


def proxied(username, password, *, client_address, forged=""):
    """A request through the reverse proxy: it connects from 127.0.0.1 and appends the
    address it saw to whatever X-Forwarded-For the client sent."""
    chain = f"{forged}, {client_address}" if forged else client_address
    return Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=chain).post(
        reverse("login"), {"username": username, "password": password}
    )


def test_behind_the_proxy_one_guesser_does_not_lock_out_everybody(settings):
    settings.BEHIND_TLS_PROXY, settings.TRUSTED_PROXIES = True, 1
    for number in range(PER_ADDRESS):
        forged = f"10.0.0.{number}"  # a new made-up address each time: ignored
        response = proxied(f"user{number}", "falsch", client_address="203.0.113.5", forged=forged)
        assert response.status_code == 200
    assert proxied("someone", "falsch", client_address="203.0.113.5").status_code == 429
    assert proxied("someone", "falsch", client_address="198.51.100.7").status_code == 200


def test_without_the_proxy_setting_the_forwarded_header_is_not_believed(settings):
    settings.BEHIND_TLS_PROXY = False
    for number in range(PER_ADDRESS):
        response = proxied(f"user{number}", "falsch", client_address=f"10.0.{number}.1")
        assert response.status_code == 200
    assert proxied("someone", "falsch", client_address="10.9.9.9").status_code == 429


@pytest.mark.parametrize(
    ("proxy", "trusted", "chain", "expected"),
    [
        (False, 1, "1.1.1.1", "127.0.0.1"),
        (True, 1, "", "127.0.0.1"),
        (True, 1, "6.6.6.6, 1.1.1.1", "1.1.1.1"),
        (True, 2, "6.6.6.6, 1.1.1.1, 10.0.0.2", "1.1.1.1"),
        (True, 2, "1.1.1.1", "1.1.1.1"),
        (True, 1, " 6.6.6.6 ,1.1.1.1 ", "1.1.1.1"),
    ],
)
def test_the_client_address(settings, rf, proxy, trusted, chain, expected):
    settings.BEHIND_TLS_PROXY, settings.TRUSTED_PROXIES = proxy, trusted
    request = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=chain)
    assert ratelimit.client_address(request) == expected


def test_wrong_table_links_behind_the_proxy_count_per_client(settings):
    settings.BEHIND_TLS_PROXY, settings.TRUSTED_PROXIES = True, 1

    def guess(address):
        return Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=address).get("/tisch/x/")

    for _ in range(TOKEN_FAILURES):
        assert guess("203.0.113.5").status_code == 404
    assert guess("203.0.113.5").status_code == 429
    assert guess("198.51.100.7").status_code == 404


# --- the admin's login: the same limits -------------------------------------------------------


def admin_attempt(username, password, client=None, address="192.0.2.10"):
    client = client or Client(REMOTE_ADDR=address)
    return client.post(reverse("admin:login"), {"username": username, "password": password})


def administrator():
    return get_user_model().objects.create_user(
        "admin", password="richtiges-passwort-9", is_staff=True, is_superuser=True
    )


def test_guessing_at_the_admin_login_is_stopped():
    administrator()
    for number in range(PER_ACCOUNT):
        response = admin_attempt("admin", f"guess-{number}", address=f"203.0.113.{number}")
        assert response.status_code == 200
    limited = admin_attempt("ａｄｍｉｎ", "richtiges-passwort-9", address="198.51.100.7")
    assert limited.status_code == 429
    assert 0 < int(limited["Retry-After"]) <= WINDOW
    assert "Zu viele fehlgeschlagene Anmeldungen" in limited.content.decode()
    assert "_auth_user_id" not in limited.client.session


def test_the_site_and_the_admin_login_share_their_counts():
    administrator()
    for number in range(PER_ACCOUNT // 2):
        assert attempt("admin", "falsch", address=f"203.0.113.{number}").status_code == 200
        assert admin_attempt("admin", "falsch", address=f"198.51.100.{number}").status_code == 200
    assert attempt("admin", "richtiges-passwort-9").status_code == 429
    for number in range(PER_ADDRESS):
        admin_attempt(f"user{number}", "falsch", address="192.0.2.77")
    assert attempt("someone", "falsch", address="192.0.2.77").status_code == 429


def test_the_administrator_gets_into_the_admin_from_a_known_browser_during_a_lock():
    administrator()
    browser = Client(REMOTE_ADDR="192.0.2.10")
    assert admin_attempt("admin", "richtiges-passwort-9", browser).status_code == 302
    browser.post(reverse("admin:logout"))
    lock_account("admin")
    assert admin_attempt("admin", "richtiges-passwort-9").status_code == 429
    ok = admin_attempt("admin", "richtiges-passwort-9", browser)
    assert ok.status_code == 302 and "_auth_user_id" in browser.session
    assert browser.get(reverse("admin:index")).status_code == 200


# --- review: count before the check, known browsers tied to the account ----------------------


def writers_take_turns_in_memory(monkeypatch):
    """A file database, as on the site and in the default test settings, lets writers queue
    (busy timeout); SQLite's shared in-memory test database (used when DATABASE_URL is set)
    answers "database table is locked" at once instead. There the counting steps take turns
    under a lock of the test; they stay parallel to the held password checks."""
    if connection.vendor != "sqlite" or not connection.is_in_memory_db():
        return
    turn = threading.RLock()
    for name in ("take", "give_back", "retry_after", "hit"):
        real = getattr(ratelimit, name)

        def in_turn(*args, real=real, **kwargs):
            with turn:
                return real(*args, **kwargs)

        monkeypatch.setattr(ratelimit, name, in_turn)


@pytest.mark.django_db(transaction=True)
def test_parallel_guesses_get_no_more_password_checks_than_the_limit(monkeypatch):
    """More guesses than the limit arrive at once, each on its own connection: the password
    check of each is held until every one of them has been let in or refused. Checking the
    limit first and counting the failure afterwards let all of them in."""
    owner()
    guesses = PER_ACCOUNT + 4
    checked, answers, notes = [], [], Notes()
    release = threading.Event()
    model = get_user_model()
    real_check = model.check_password

    def held_check(user, raw_password):
        notes.add(checked, raw_password)
        release.wait(WAIT)
        return real_check(user, raw_password)

    monkeypatch.setattr(model, "check_password", held_check)
    writers_take_turns_in_memory(monkeypatch)

    def guess(number):
        try:
            notes.add(answers, attempt("leitung", f"guess-{number}", f"198.51.100.{number}"))
        except Exception as exc:
            notes.add(answers, exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(guesses)]
    for thread in threads:
        thread.start()
    try:
        notes.wait_for(lambda: len(checked) + len(answers) == guesses)
        held = len(checked)
    finally:
        release.set()
        for thread in threads:
            thread.join(WAIT)
    assert held == PER_ACCOUNT
    codes = sorted(answer.status_code for answer in answers)
    assert codes == [200] * PER_ACCOUNT + [429] * (guesses - PER_ACCOUNT)
    assert RateBucket.objects.get(key="login-user:leitung").count == PER_ACCOUNT
    assert attempt("leitung", "richtiges-passwort-9").status_code == 429


@pytest.mark.django_db(transaction=True)
def test_a_successful_login_gives_its_slot_back():
    owner()
    for number in range(PER_ACCOUNT - 1):
        assert attempt("leitung", "falsch", f"198.51.100.{number}").status_code == 200
    for _ in range(3):  # each success held the last slot while its password was checked
        assert attempt("leitung", "richtiges-passwort-9").status_code == 302
    assert RateBucket.objects.get(key="login-user:leitung").count == PER_ACCOUNT - 1
    assert attempt("leitung", "falsch").status_code == 200
    assert attempt("leitung", "richtiges-passwort-9").status_code == 429


def known(login):
    """A browser that has logged in with ``login`` and logged out again."""
    browser = Client(REMOTE_ADDR="192.0.2.10")
    assert browser.post(reverse("login"), login).status_code == 302
    browser.post(reverse("logout"))
    return browser


def test_a_password_change_retires_the_known_browser():
    user = owner()
    login = {"username": "leitung", "password": "richtiges-passwort-9"}
    browser = known(login)
    user.set_password("neues-passwort-7")
    user.save()
    lock_account()
    # The cookie was made for the old password: the browser waits like any other.
    assert (
        browser.post(reverse("login"), {**login, "password": "neues-passwort-7"}).status_code == 429
    )
    assert browser.post(reverse("login"), login).status_code == 429
    # Once the lock is over, a login with the new password makes the browser known again.
    RateBucket.objects.update(window_start=timezone.now() - timedelta(seconds=WINDOW))
    assert (
        browser.post(reverse("login"), {**login, "password": "neues-passwort-7"}).status_code == 302
    )
    browser.post(reverse("logout"))
    lock_account()
    assert (
        browser.post(reverse("login"), {**login, "password": "neues-passwort-7"}).status_code == 302
    )


def test_a_known_browser_opens_only_its_own_account_not_one_differing_in_case():
    owner(username="Leitung")
    other = owner(username="leitung")  # a distinct Django account: names match case-sensitively
    other.set_password("anderes-passwort-5")
    other.save()
    browser = known({"username": "Leitung", "password": "richtiges-passwort-9"})
    lock_account("leitung")
    answer = browser.post(
        reverse("login"), {"username": "leitung", "password": "anderes-passwort-5"}
    )
    assert answer.status_code == 429
    assert "_auth_user_id" not in browser.session
    # Its own account it still opens during the lock.
    ok = browser.post(reverse("login"), {"username": "Leitung", "password": "richtiges-passwort-9"})
    assert ok.status_code == 302 and browser.session["_auth_user_id"] != str(other.pk)


def test_the_known_browser_cookie_names_the_account_by_key_and_password_mark():
    user = owner()
    browser = known({"username": "leitung", "password": "richtiges-passwort-9"})
    data = signing.loads(browser.cookies[KNOWN_BROWSER_COOKIE].value, salt=login_limit._SALT)
    [[pk, mark]] = data["a"]
    assert pk == str(user.pk) and "leitung" not in str(data)
    lock_account()
    login = {"username": "leitung", "password": "richtiges-passwort-9"}
    # Signed with the right key, but naming the account by name (the old cookie) or with a
    # mark not made from its password hash: neither opens the lock.
    for accounts in (["leitung"], [[pk, "0" * len(mark)]], [[str(user.pk + 1), mark]]):
        forged = Client(REMOTE_ADDR="192.0.2.11")
        value = signing.dumps({"n": "x", "a": accounts}, salt=login_limit._SALT, compress=True)
        forged.cookies[KNOWN_BROWSER_COOKIE] = value
        assert forged.post(reverse("login"), login).status_code == 429, accounts


def test_a_refused_login_does_not_check_the_password(monkeypatch):
    owner()
    lock_account()
    model = get_user_model()
    checked = []
    real_check = model.check_password
    monkeypatch.setattr(
        model, "check_password", lambda user, raw: checked.append(raw) or real_check(user, raw)
    )
    limited = attempt("leitung", "richtiges-passwort-9")
    assert limited.status_code == 429 and checked == []
    page = limited.content.decode()
    assert 'value="leitung"' in page and "richtiges-passwort-9" not in page
