import os
import shutil

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def playwright_driver():
    # Playwright drives Debian's Chromium; it never downloads a browser of its own. Its sync
    # API runs an event loop in this thread, so Django's ORM must be told that is fine here.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright
    if previous is None:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


def launch(playwright, *extra_args):
    return playwright.chromium.launch(
        executable_path=CHROMIUM, headless=True, args=[*ARGS, *extra_args]
    )


@pytest.fixture(scope="session")
def browser(playwright_driver):
    browser = launch(playwright_driver)
    yield browser
    browser.close()


@pytest.fixture
def browser_launcher(playwright_driver):
    """A Chromium of its own with extra switches, e.g. ``--host-resolver-rules`` so that a
    LAN host name (as phones in the hall use) leads to this machine."""
    launched = []

    def start(*extra_args):
        launched.append(launch(playwright_driver, *extra_args))
        return launched[-1]

    yield start
    for browser in launched:
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="de-DE")
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()
