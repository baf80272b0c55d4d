"""The sign-in page (``/accounts/login/``): Django's, with the site's form and the words of
``accounts/sign_in.py`` (why it was asked for; a name given up by a rename). Failed sign-ins
are still counted and locked out by django-axes (``accounts/throttling.py``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import LoginView

from accounts.sign_in import SignInForm, sign_in_reason


class SignInView(LoginView):
    form_class = SignInForm

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["sign_in_reason"] = sign_in_reason(self.get_redirect_url(), self.request)
        return context
