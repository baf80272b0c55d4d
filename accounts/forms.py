from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.contrib.auth.models import AbstractBaseUser, User
from django.db import IntegrityError
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _
from timezone_field import TimeZoneFormField

from accounts.errors import AccountRefused
from accounts.models import ChallengeSetting, NotificationSettings, PlaySettings, TimeZoneSetting
from accounts.selectors.email_confirmation import address_confirmed_elsewhere
from accounts.selectors.language import mail_language_of, offered_languages
from accounts.selectors.names import name_choice_refusal, next_change_at
from accounts.selectors.time_zone import (
    DEFAULT_ZONE,
    known_zone_names,
    offered_zone_names,
    zone_groups,
)
from accounts.services.email_confirmation import (
    email_ask,
    email_pending_forget,
    email_pending_hold,
)
from accounts.services.rename import STALE_PAGE, TAKEN, name_change

ADDRESS_TAKEN = _("Another account uses that address: choose another.")


class ZoneSelect(forms.Select):
    """The curated list (``accounts.selectors.time_zone.zone_groups``) in ``<optgroup>``s by
    region; a value outside it that is still a zone (an alias stored before, or the browser's
    own name for its zone) is shown first, selected, so it is never silently replaced.
    ``static/js/time_zone.js`` adds the filter field and the browser's zone on top."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs={"data-zone-list": "", **(attrs or {})})

    def optgroups(
        self, name: str, value: list[str], attrs: dict[str, Any] | None = None
    ) -> list[Any]:
        offered = offered_zone_names()
        extra = [v for v in value if v and v not in offered and v in known_zone_names()]
        choices = self.choices
        # The list in the reader's language, as the page renders (a form class is built once,
        # in whatever language was active at import).
        self.choices = [(region, list(zones)) for region, zones in zone_groups()]
        if extra:
            self.choices = [(_("Your zone"), [(v, v) for v in extra]), *self.choices]
        try:
            return super().optgroups(name, value, attrs)
        finally:
            self.choices = choices


class ZoneField(TimeZoneFormField):
    """A zone from the list shown (``ZoneSelect``), or any other the zone database knows (so a
    stored alias still saves); anything else is refused with a message."""

    widget = ZoneSelect

    # ``self.choices`` (every known name) is what a post is checked against; the widget shows
    # the curated list, worded when it renders.


def zone_field(
    *, help_text: str, initial: str | None = None, required: bool = True
) -> TimeZoneFormField:
    """The curated list of zones (``ZoneField``); anything not a zone is refused with a
    message."""
    return ZoneField(
        label=_("Time zone"),
        initial=initial,
        required=required,
        help_text=help_text,
        error_messages={
            "required": _("Choose a time zone."),
            "invalid_choice": _("That is not a time zone we know: choose one from the list."),
        },
    )


class TimeZoneForm(forms.Form):
    """The account page's choice of zone."""

    zone = zone_field(help_text=_("Every date, deadline and mail shows in this zone."))


class RecipientLanguagePasswordResetForm(PasswordResetForm):
    """Django's password reset form, its mail worded in the account's language (the one the
    person chose or registered in), not the language of whoever typed the address."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        with translation.override(mail_language_of(context["user"].pk)):
            super().send_mail(
                subject_template_name,
                email_template_name,
                context,
                from_email,
                to_email,
                html_email_template_name,
            )


class LanguageForm(forms.Form):
    """The account page's choice of language, each named in itself."""

    language = forms.ChoiceField(
        label=_("Language"),
        choices=offered_languages,
        help_text=_("Pages, mails and pushes speak this language."),
    )


class RegisterForm(UserCreationForm):
    """Username, e-mail, password twice (Django's validators) and the time zone (the browser's
    suggestion, else UTC). The address is required (it is how a forgotten password comes back,
    and how the site says it is your turn) and is held as pending until the link mailed to it is
    opened (``accounts.services.email_confirmation``)."""

    email = forms.EmailField(
        max_length=254,
        help_text=_("We mail a link to confirm it; nothing else is sent until you do."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    time_zone = zone_field(
        initial=DEFAULT_ZONE,
        required=False,  # a post without it (no select sent) means UTC; a garbage name is refused
        help_text=_(
            "Dates and deadlines show in this zone. Your browser suggests one; you can "
            "change it later on your account page."
        ),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:  # static/js/time_zone.js puts the browser's zone in, once
            self.fields["time_zone"].widget.attrs["data-suggest-zone"] = ""

    def clean_username(self) -> str:
        """Django's checks (one account per name, whatever its case), and a name given up by
        someone within ``accounts.selectors.names.NAME_HELD`` is not free yet, nor one in the
        shape kept for deleted accounts (``name_choice_refusal``, as a rename)."""
        username = super().clean_username()
        refusal = name_choice_refusal(username, user_id=None)
        if refusal is not None:
            raise forms.ValidationError(refusal)
        return username

    def clean_email(self) -> str:
        email = User.objects.normalize_email(self.cleaned_data["email"])
        if address_confirmed_elsewhere(email, user_id=None):
            raise forms.ValidationError(ADDRESS_TAKEN)
        return email

    def save(self, commit: bool = True) -> User:
        """The account, its address pending (never in ``User.email`` before confirmation; the
        caller mails the link, ``email_link_send``), and its time zone (so signing
        in puts that zone in the session)."""
        user = super().save(commit=False)
        user.email = ""
        if commit:
            user.save()
            email_pending_hold(user, email=self.cleaned_data["email"])
            zone = self.cleaned_data["time_zone"] or DEFAULT_ZONE
            TimeZoneSetting.objects.create(user=user, zone=zone)
        return user

    def validate_password_for_user(
        self, user: User, password_field_name: str = "password1"
    ) -> None:
        """A weak password's message under the password field, where it was typed (Django's
        form puts it under the confirmation)."""
        super().validate_password_for_user(user, password_field_name=password_field_name)

    def keep_fine_passwords(self) -> None:
        """After a refusal for another field only (a username taken, an address mistyped), the
        passwords typed are shown again rather than emptied; a password at fault is emptied,
        both fields, as a new one must be typed twice anyway. The page that carries them is
        never stored (the view sends ``Cache-Control: no-store``)."""
        if any(name in self.errors for name in ("password1", "password2")):
            return
        for name in ("password1", "password2"):
            self.fields[name].widget.render_value = True


class EmailAddressForm(forms.Form):
    """The address mail goes to, added or changed from the notifications page: a valid address
    that no other account has confirmed. It is held as pending and its link mailed; the
    confirmed address, if any, keeps receiving until the new one is confirmed."""

    email = forms.EmailField(
        label=_("E-mail address"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_email(self) -> str:
        email = User.objects.normalize_email(self.cleaned_data["email"])
        if address_confirmed_elsewhere(email, user_id=self.user.pk):
            raise forms.ValidationError(ADDRESS_TAKEN)
        return email

    def is_confirmed_already(self) -> bool:
        """Whether the address posted is the confirmed one (then nothing is mailed)."""
        return self.cleaned_data["email"] == self.user.email

    def save(self) -> bool:
        """Hold the address and mail its link (``False`` when the mail failed); the confirmed
        address posted again instead just drops any pending one."""
        if self.is_confirmed_already():
            email_pending_forget(self.user.pk)
            return True
        return email_ask(self.user, email=self.cleaned_data["email"])


class NotificationSettingsForm(forms.ModelForm):
    """Each kind of mail, and each kind of notice, on or off."""

    class Meta:
        model = NotificationSettings
        fields = (
            "email_turn",
            "email_deadline",
            "email_invitations",
            "email_events",
            "push_turn",
            "push_events",
            "notice_invitations",
            "notice_turns",
            "notice_finished",
            "notice_ladder",
            "notice_events",
            "mute_phrases",
        )


class RenameForm(forms.Form):
    """The new name, confirmed by the password; ``current`` is the name the page showed, so a
    page left open across a change (or a second click) is refused rather than applied again."""

    new_name = forms.CharField(
        label=_("New name"),
        max_length=150,
        # A password manager saves the new name with the password (WCAG 3.3.8).
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
        help_text=_("Letters, digits and @/./+/-/_ only; once every 30 days."),
    )
    password = forms.CharField(
        label=_("Your password"),
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        strip=False,
    )
    current = forms.CharField(
        widget=forms.HiddenInput,
        max_length=150,
        error_messages={"required": STALE_PAGE, "max_length": STALE_PAGE},
    )

    def __init__(self, *args: Any, user: AbstractBaseUser, **kwargs: Any) -> None:
        # Its own ids: other sections of the account page ask for the password too.
        kwargs.setdefault("auto_id", "rename-%s")
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["new_name"].validators.append(get_user_model().username_validator)
        self.fields["current"].initial = user.get_username()

    def clean_new_name(self) -> str:
        name = self.cleaned_data["new_name"]
        if name == self.user.get_username():
            raise forms.ValidationError(_("That is your name already."))
        refusal = name_choice_refusal(name, user_id=self.user.pk)  # as registration
        if refusal is not None:
            raise forms.ValidationError(refusal)
        return name

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."))
        return password

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if cleaned.get("current") not in (None, self.user.get_username()):
            raise forms.ValidationError(
                _("Your name has changed since this page was shown: nothing was changed.")
            )
        allowed = next_change_at(self.user.pk)
        if allowed is not None:
            raise forms.ValidationError(
                _(
                    "You changed your name less than 30 days ago: the next change is allowed "
                    "from %(when)s (%(zone)s)."
                )
                % {
                    "when": date_format(timezone.localtime(allowed), "j F Y, H:i"),
                    "zone": timezone.get_current_timezone_name(),
                }
            )
        return cleaned

    def save(self) -> bool:
        """Rename (``accounts.services.rename.name_change``); ``False`` (with the form's error)
        when a rename racing this one got there first: the name taken meanwhile, or this
        person's own other rename."""
        name = self.cleaned_data["new_name"]
        try:
            name_change(self.user, name=name, current=self.cleaned_data["current"])
        except AccountRefused as raced:
            self.add_error(None, raced.message)
            return False
        except IntegrityError:
            self.add_error("new_name", TAKEN)  # the same name, registered or renamed meanwhile
            return False
        self.user.username = name
        return True


class PasswordConfirmForm(forms.Form):
    """The person's current password, to confirm an action on their account."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        max_length=4096,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: AbstractBaseUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password: nothing was changed."))
        return password


class ChallengeSettingForm(forms.Form):
    """The account page's _("Who may challenge me") choice."""

    who = forms.ChoiceField(
        label=_("Who may challenge me"),
        choices=ChallengeSetting.Who.choices,
        widget=forms.RadioSelect,
        error_messages={
            "required": _("Choose who may challenge you."),
            "invalid_choice": _("Choose one of the offered answers."),
        },
    )


class PlaySettingsForm(forms.Form):
    """The account page's "Play" settings: when a move asks to be confirmed, and whether a move
    takes the person to the next table waiting for them."""

    confirm_moves = forms.ChoiceField(
        label=PlaySettings._meta.get_field("confirm_moves").verbose_name,
        help_text=PlaySettings._meta.get_field("confirm_moves").help_text,
        choices=PlaySettings.Confirm.choices,
        widget=forms.RadioSelect,
        error_messages={
            "required": _("Choose when moves are confirmed."),
            "invalid_choice": _("Choose when moves are confirmed from the offered answers."),
        },
    )
    next_table_at_once = forms.BooleanField(
        label=PlaySettings._meta.get_field("next_table_at_once").verbose_name,
        help_text=PlaySettings._meta.get_field("next_table_at_once").help_text,
        required=False,
    )
    keyboard_shortcuts = forms.BooleanField(
        label=PlaySettings._meta.get_field("keyboard_shortcuts").verbose_name,
        help_text=PlaySettings._meta.get_field("keyboard_shortcuts").help_text,
        required=False,
    )
    text_mode = forms.BooleanField(
        label=PlaySettings._meta.get_field("text_mode").verbose_name,
        help_text=PlaySettings._meta.get_field("text_mode").help_text,
        required=False,
    )
