"""Registering an account and resetting a password (docs/accounts.md), each limited per address
(``accounts.throttling``): over a limit, the form again with the message and a 429."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import PasswordResetView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts import throttling
from accounts.forms import RecipientLanguagePasswordResetForm, RegisterForm
from accounts.services.email_confirmation import email_link_send
from accounts.services.language import language_store


@never_cache  # a refused form may carry the passwords typed: no cache or history keeps it
@require_http_methods(["GET", "POST"])
def register(request: HttpRequest) -> HttpResponse:
    """Create an account and sign in. Every POST counts against the address's registration limit
    (valid or not: the form also tells whether a username is taken); over it, the form page
    again with the message, a 429, and no account made. A refusal keeps what was fine, the
    passwords included when neither is at fault (``RegisterForm.keep_fine_passwords``)."""
    if request.user.is_authenticated:
        return redirect("lobby")
    if request.method == "POST":
        refusal = throttling.registration_refusal(request)
        if refusal is not None:
            # Unbound, so nothing is validated; the username and e-mail are filled back in.
            form = RegisterForm(initial=throttled_initial(request, ("username", "email")))
            context = {"form": form, "throttle_message": refusal}
            return render(request, "accounts/register.html", context, status=429)
    form = RegisterForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # The language the page was read in becomes the account's: its mails speak it too.
        language_store(user_id=user.pk, language=translation.get_language())
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        email = form.cleaned_data["email"]
        sent = email_link_send(user, email=email)
        messages.success(request, _("Welcome to Parlour, %(name)s.") % {"name": user.username})
        if sent:
            messages.info(
                request,
                _("We mailed a link to %(email)s: open it to confirm the address.")
                % {"email": email},
            )
        else:
            messages.error(request, CONFIRM_NOT_SENT)
        return redirect(_next_page(request))
    if request.method == "POST":
        form.keep_fine_passwords()
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/register.html", {"form": form}, status=status)


def _next_page(request: HttpRequest) -> str:
    """Where the new account goes: the page that sent them to register (``?next=``, a path of
    this site only), or the lobby."""
    wanted = request.GET.get("next", "")
    safe = url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return wanted if wanted and safe else "lobby"


CONFIRM_NOT_SENT = gettext_lazy(
    "The confirmation mail could not be sent just now: send it again from your account page."
)


def throttled_initial(request: HttpRequest, names: tuple[str, ...]) -> dict[str, str]:
    """The POSTed values of ``names`` (never a password), to fill a refused form back in."""
    return {name: request.POST.get(name, "")[:254] for name in names}


class ThrottledPasswordResetView(PasswordResetView):
    """Django's password reset, limited per address and per e-mail address.

    Over a limit: the form page with the message and a 429, and no mail sent. The refusal is the
    same whether or not the address belongs to an account, as Django's own answer is. The mail
    speaks the account's language (``RecipientLanguagePasswordResetForm``).
    """

    form_class = RecipientLanguagePasswordResetForm

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refusal = throttling.password_reset_refusal(request)
        if refusal is None:
            return super().post(request, *args, **kwargs)
        form = self.form_class(initial=throttled_initial(request, ("email",)))
        context = self.get_context_data(form=form, throttle_message=refusal)
        return self.render_to_response(context, status=429)
