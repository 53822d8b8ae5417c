"""What Django's error reports (the debug page with DEBUG on, the e-mails to ADMINS) may show.

Django hides settings named like PASSWORD or SECRET_KEY, but shows the process environment in
request.META under the development server, and with it ``DATABASE_URL`` with its password. This
filter also hides every URL's password and the database and cache URLs as a whole, and the
password of a login form even with DEBUG on (Django only hides that with DEBUG off).
"""

import re
from typing import Any

from django.views.debug import SafeExceptionReporterFilter

from .login_limit import KNOWN_BROWSER_COOKIE

# scheme://user:password@host -> the password hidden, the rest kept for debugging.
_CREDENTIALS = re.compile(r"(?P<head>[a-z][a-z0-9+.-]*://[^/@\s:]*:)[^@\s]*@", flags=re.I)


class ReporterFilter(SafeExceptionReporterFilter):
    hidden_settings = re.compile(
        "API|AUTH|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|DATABASE_URL|_DSN$|CACHE_URL|"
        + KNOWN_BROWSER_COOKIE,
        flags=re.I,
    )

    def is_active(self, request) -> bool:
        return True  # sensitive_post_parameters and sensitive_variables, also with DEBUG on

    def cleanse_setting(self, key, value) -> Any:
        cleansed = super().cleanse_setting(key, value)
        if isinstance(cleansed, str):
            return _CREDENTIALS.sub(rf"\g<head>{self.cleansed_substitute}@", cleansed)
        return cleansed
