"""Login with a database-backed limit on failed attempts (tournament/web/login_limit.py): guessing
passwords is slow from any number of server processes, while the owner of an account under
attack still gets in from a browser that logged in before."""

from django.contrib.auth import views as auth_views

from ..web.login_limit import PER_ACCOUNT, PER_ADDRESS, WINDOW, Attempt, message

__all__ = ["PER_ACCOUNT", "PER_ADDRESS", "WINDOW", "LoginView"]


class LoginView(auth_views.LoginView):
    def post(self, request, *args, **kwargs):
        attempt = Attempt.of(request)
        wait = attempt.take()
        if wait is not None:
            # An unbound form: a bound one would check the password while it shows the page.
            username = request.POST.get("username", "")
            form = self.get_form_class()(request, initial={"username": username})
            response = self.render_to_response(
                self.get_context_data(form=form, limited=message(wait)), status=429
            )
            response["Retry-After"] = str(wait)
            return response
        response = super().post(request, *args, **kwargs)
        attempt.record(request, response)
        return response
