from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

from accounts.deleted_names import name_refusal
from accounts.models import NotificationSettings


class RegisterForm(UserCreationForm):
    """Username and password twice (Django's validators), plus an optional e-mail for resets."""

    email = forms.EmailField(
        required=False, help_text="Optional; needed only to reset a forgotten password."
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str:
        """Django's checks, then no name in the shape kept for deleted accounts."""
        username = super().clean_username()
        refusal = name_refusal(username)
        if refusal is not None:
            raise forms.ValidationError(refusal)
        return username

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
    that no other account uses. (Confirming it by a mailed link is issue 25's.)"""

    email = forms.EmailField(label="E-mail address", max_length=254)

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_email(self) -> str:
        email = User.objects.normalize_email(self.cleaned_data["email"])
        others = User.objects.filter(email__iexact=email).exclude(pk=self.user.pk)
        if others.exists():
            raise forms.ValidationError("Another account uses that address: choose another.")
        return email

    def save(self) -> None:
        self.user.email = self.cleaned_data["email"]
        self.user.save(update_fields=["email"])


class NotificationSettingsForm(forms.ModelForm):
    """The two kinds of mail, each on or off."""

    class Meta:
        model = NotificationSettings
        fields = ("email_turn", "email_deadline")
