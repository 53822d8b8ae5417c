"""Login with a database-backed limit on failed attempts: per account and per address, so
guessing passwords is slow from any number of server processes, while a real user who
mistyped waits minutes at most."""

from django.contrib.auth import views as auth_views
from django.utils.translation import gettext as _

from .. import ratelimit

# Failed logins allowed per window, for one user name and for one address (a hall behind
# one router shares an address, but only officials log in).
PER_ACCOUNT, PER_ADDRESS, WINDOW = 8, 30, 300


class LoginView(auth_views.LoginView):
    def _keys(self, request) -> list[tuple[str, int]]:
        name = request.POST.get("username", "")[:150].strip().casefold()
        return [
            (f"login-user:{name}", PER_ACCOUNT),
            (f"login-ip:{ratelimit.client_address(request)}", PER_ADDRESS),
        ]

    def post(self, request, *args, **kwargs):
        keys = self._keys(request)
        waits = [ratelimit.retry_after(key, limit, WINDOW) for key, limit in keys]
        wait = max((w for w in waits if w is not None), default=None)
        if wait is not None:
            form = self.get_form()
            form.errors.clear()
            message = _("Too many failed logins. Please wait %(minutes)s minute(s).") % {
                "minutes": (wait + 59) // 60
            }
            response = self.render_to_response(
                self.get_context_data(form=form, limited=message), status=429
            )
            response["Retry-After"] = str(wait)
            return response
        response = super().post(request, *args, **kwargs)
        if response.status_code == 200:  # the form came back: wrong user name or password
            for key, _limit in keys:
                ratelimit.hit(key, WINDOW)
        return response
